// References for the element types torch-pjrt's tensors cannot hold (the test modules convert to and
// from them inside the program): the 8- and 4-bit floats, by a table of every value each bit pattern
// decodes to and a nearest-value search, and the 2- and 4-bit integers.

export interface FloatFormat {
  mlir: string;
  e: number;
  m: number;
  bias: number;
  /** ieee: ±inf and NaNs at the top exponent; fn: no inf, NaN is the all-ones pattern; fnuz: no inf and no
   *  -0, NaN is the -0 pattern; sat: neither (overflow saturates); e8m0: exponent only, no sign, no zero */
  kind: "ieee" | "fn" | "fnuz" | "sat" | "e8m0";
}

export const NARROW_FLOATS: FloatFormat[] = [
  { mlir: "f8E5M2", e: 5, m: 2, bias: 15, kind: "ieee" },
  { mlir: "f8E4M3FN", e: 4, m: 3, bias: 7, kind: "fn" },
  { mlir: "f8E4M3FNUZ", e: 4, m: 3, bias: 8, kind: "fnuz" },
  { mlir: "f8E5M2FNUZ", e: 5, m: 2, bias: 16, kind: "fnuz" },
  { mlir: "f8E4M3B11FNUZ", e: 4, m: 3, bias: 11, kind: "fnuz" },
  { mlir: "f8E4M3", e: 4, m: 3, bias: 7, kind: "ieee" },
  { mlir: "f8E3M4", e: 3, m: 4, bias: 3, kind: "ieee" },
  { mlir: "f8E8M0FNU", e: 8, m: 0, bias: 127, kind: "e8m0" },
  { mlir: "f4E2M1FN", e: 2, m: 1, bias: 1, kind: "sat" },
];

/** The value of bit pattern `bits` (NaN for the NaN patterns). */
export function decode(f: FloatFormat, bits: number): number {
  const sign = f.kind === "e8m0" ? 1 : bits >> (f.e + f.m) ? -1 : 1;
  const exp = (bits >> f.m) & ((1 << f.e) - 1);
  const man = bits & ((1 << f.m) - 1);
  const top = (1 << f.e) - 1;
  if (f.kind === "e8m0") return exp === top ? NaN : 2 ** (exp - f.bias);
  if (f.kind === "ieee" && exp === top) return man === 0 ? sign * Infinity : NaN;
  if (f.kind === "fn" && exp === top && man === (1 << f.m) - 1) return NaN;
  if (f.kind === "fnuz" && bits === 1 << (f.e + f.m)) return NaN;
  const v = exp === 0 ? man * 2 ** (1 - f.bias - f.m) : (1 + man / 2 ** f.m) * 2 ** (exp - f.bias);
  return sign * v;
}

const tables = new Map<string, { value: number; even: boolean }[]>();

/** Every finite non-negative value with whether its pattern is even, ascending; then one past the largest
 *  (where the grid would continue), which marks overflow. */
function grid(f: FloatFormat): { value: number; even: boolean }[] {
  let t = tables.get(f.mlir);
  if (t) return t;
  t = [];
  const n = 1 << (f.e + f.m);
  for (let bits = 0; bits < n; bits++) {
    const v = decode(f, bits);
    if (Number.isFinite(v) && v >= 0) t.push({ value: v, even: bits % 2 === 0 });
  }
  t.sort((a, b) => a.value - b.value);
  const max = t[t.length - 1]!;
  const below = t[t.length - 2]!;
  // the next grid point: the same spacing, or the next power of two when the largest ends its binade
  const next = f.kind === "e8m0" ? 2 * max.value : max.value + (max.value - below.value);
  t.push({ value: next, even: f.kind === "e8m0" || !max.even });
  tables.set(f.mlir, t);
  return t;
}

/** x rounded to the format (to nearest, ties to the even pattern; e8m0's ties go up), with its overflow rule. */
export function roundTo(f: FloatFormat, x: number): number {
  if (Number.isNaN(x)) return f.kind === "sat" ? -0 : NaN;
  const neg = x < 0 || Object.is(x, -0);
  if (f.kind === "e8m0" && (neg || x === 0)) return NaN;
  const a = Math.abs(x);
  const t = grid(f);
  const max = t[t.length - 2]!.value;
  let r: number;
  if (a >= t[t.length - 1]!.value) r = Infinity;
  else {
    let i = 0;
    while (t[i + 1]!.value <= a) i++;
    const lo = t[i]!;
    const hi = t[i + 1]!;
    if (a === lo.value) r = lo.value;
    else if (a - lo.value < hi.value - a) r = lo.value;
    else if (a - lo.value > hi.value - a) r = hi.value;
    else r = f.kind === "e8m0" || hi.even ? hi.value : lo.value;
    if (f.kind === "e8m0" && a < t[0]!.value) r = t[0]!.value; // no zero: the smallest
  }
  if (r > max) r = f.kind === "ieee" ? Infinity : f.kind === "sat" ? max : NaN;
  if (f.kind === "fnuz" && r === 0) return 0;
  return neg ? -r : r;
}

export interface IntFormat {
  mlir: string;
  bits: number;
  signed: boolean;
}
export const NARROW_INTS: IntFormat[] = [
  { mlir: "i4", bits: 4, signed: true },
  { mlir: "ui4", bits: 4, signed: false },
  { mlir: "i2", bits: 2, signed: true },
  { mlir: "ui2", bits: 2, signed: false },
];

/** An integer wrapped to the format (integer converts). */
export function wrapInt(f: IntFormat, v: number): number {
  return Number(f.signed ? BigInt.asIntN(f.bits, BigInt(v)) : BigInt.asUintN(f.bits, BigInt(v)));
}
/** A float converted to the format: truncated, saturated, NaN to 0. */
export function saturateInt(f: IntFormat, x: number): number {
  if (Number.isNaN(x)) return 0;
  const lo = f.signed ? -(2 ** (f.bits - 1)) : 0;
  const hi = f.signed ? 2 ** (f.bits - 1) - 1 : 2 ** f.bits - 1;
  return Math.min(hi, Math.max(lo, Math.trunc(x))) + 0;
}
