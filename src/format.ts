/**
 * @file Printing tensors the way PyTorch's `repr` does (torch/_tensor_str.py with the default print
 * options: precision 4, threshold 1000, edgeitems 3, linewidth 80): one width for every element,
 * fixed or scientific notation chosen from the printed values, rows wrapped at 80 columns, `...`
 * past 1000 elements, and `dtype=` / `device=` suffixes only when they are not the defaults.
 */
import { type DType, dtypes } from "./dtype.js";
import type { Tensor } from "./tensor.js";

const PRECISION = 4;
const THRESHOLD = 1000;
const EDGE = 3;
const LINEWIDTH = 80;

/** Dtypes PyTorch does not name in the suffix (the default float dtype, int64 and bool). */
const unnamedDTypes: ReadonlySet<DType> = new Set<DType>(["float32", "int64", "bool"]);

type Value = number | bigint;

/** |x| = digits × 10^−scale exactly (every double is a finite decimal). */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  if (exponent >= 0) return { digits: mantissa << BigInt(exponent), scale: 0 };
  return { digits: mantissa * 5n ** BigInt(-exponent), scale: -exponent };
}

/** n / 10^k rounded half to even, as Python's float formatting rounds. */
function divRoundHalfEven(n: bigint, k: number): bigint {
  if (k <= 0) return n * 10n ** BigInt(-k);
  const d = 10n ** BigInt(k);
  const q = n / d;
  const r2 = (n % d) * 2n;
  return r2 > d || (r2 === d && q % 2n === 1n) ? q + 1n : q;
}

const signOf = (x: number): string => (x < 0 || Object.is(x, -0) ? "-" : "");

function nonFinite(x: number): string | undefined {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return undefined;
}

/** Python's f"{x:.{p}f}". */
export function pyFixed(x: number, p: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  const { digits, scale } = exactDecimal(x);
  const n = divRoundHalfEven(digits, scale - p).toString().padStart(p + 1, "0");
  const body = p === 0 ? n : `${n.slice(0, -p)}.${n.slice(-p)}`;
  return signOf(x) + body;
}

/** Python's f"{x:.{p}e}". */
export function pyExp(x: number, p: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  const { digits, scale } = exactDecimal(x);
  let mantissa = 0n;
  let exponent = 0;
  if (digits !== 0n) {
    const length = digits.toString().length;
    exponent = length - 1 - scale;
    mantissa = divRoundHalfEven(digits, length - 1 - p);
    if (mantissa.toString().length > p + 1) {
      mantissa /= 10n;
      exponent += 1;
    }
  }
  const m = mantissa.toString().padStart(p + 1, "0");
  const e = `${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  return `${signOf(x)}${m[0]}${p > 0 ? `.${m.slice(1)}` : ""}e${e}`;
}

/** PyTorch's _Formatter: one element width and notation for the whole (printed part of the) tensor. */
class Formatter {
  #intMode = true;
  #sciMode = false;
  width = 1;

  constructor(
    readonly kind: "float" | "int" | "bool",
    values: readonly Value[],
  ) {
    if (kind !== "float") {
      for (const v of values) this.width = Math.max(this.width, this.format(v).length);
      return;
    }
    const finite = (values as number[]).filter((v) => Number.isFinite(v) && v !== 0);
    if (finite.length === 0) return;
    const abs = finite.map(Math.abs);
    const lo = Math.min(...abs);
    const hi = Math.max(...abs);
    this.#intMode = finite.every((v) => v === Math.ceil(v));
    const wide = hi / lo > 1000 || hi > 1e8;
    this.#sciMode = this.#intMode ? wide : wide || lo < 1e-4;
    for (const v of finite) {
      const s = this.#sciMode ? pyExp(v, PRECISION) : this.#intMode ? `${pyFixed(v, 0)}.` : pyFixed(v, PRECISION);
      this.width = Math.max(this.width, s.length);
    }
  }

  /** One element, right-aligned to the common width. */
  format(v: Value): string {
    let s: string;
    if (this.kind === "bool") s = v ? "True" : "False";
    else if (this.kind === "int") s = String(v);
    else {
      const x = v as number;
      if (this.#sciMode) s = pyExp(x, PRECISION);
      else if (this.#intMode) s = Number.isFinite(x) ? `${pyFixed(x, 0)}.` : pyFixed(x, 0);
      else s = pyFixed(x, PRECISION);
    }
    return s.padStart(this.width);
  }
}

/** A row-major view of host values: the element offsets along one dim, with `...` where summarised. */
class Layout {
  readonly strides: number[];

  constructor(
    readonly shape: readonly number[],
    readonly summarize: boolean,
  ) {
    this.strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  }

  /** The indices printed along `dim` (null marks the `...`). */
  indices(dim: number): (number | null)[] {
    const n = this.shape[dim]!;
    if (this.summarize && n > 2 * EDGE) {
      return [...Array.from({ length: EDGE }, (_, i) => i), null, ...Array.from({ length: EDGE }, (_, i) => n - EDGE + i)];
    }
    return Array.from({ length: n }, (_, i) => i);
  }

  /** Offsets of every printed element, in order. */
  printed(dim = 0, offset = 0, out: number[] = []): number[] {
    if (dim === this.shape.length) {
      out.push(offset);
      return out;
    }
    for (const i of this.indices(dim)) if (i !== null) this.printed(dim + 1, offset + i * this.strides[dim]!, out);
    return out;
  }
}

function render(values: ArrayLike<Value>, layout: Layout, fmt: Formatter, dim: number, offset: number, indent: number): string {
  const rank = layout.shape.length;
  if (rank === 0) return fmt.format(values[0]!);
  if (dim === rank - 1) {
    const items = layout.indices(dim).map((i) => (i === null ? " ..." : fmt.format(values[offset + i * layout.strides[dim]!]!)));
    const perLine = Math.max(1, Math.floor((LINEWIDTH - indent) / (fmt.width + 2)));
    const lines: string[] = [];
    for (let i = 0; i < items.length; i += perLine) lines.push(items.slice(i, i + perLine).join(", "));
    return `[${lines.join(`,\n${" ".repeat(indent + 1)}`)}]`;
  }
  const parts = layout
    .indices(dim)
    .map((i) => (i === null ? "..." : render(values, layout, fmt, dim + 1, offset + i * layout.strides[dim]!, indent + 1)));
  return `[${parts.join(`,${"\n".repeat(rank - dim - 1)}${" ".repeat(indent + 1)}`)}]`;
}

/** Appends `, suffix` or wraps it onto a new line as PyTorch's _add_suffixes does. */
function addSuffixes(body: string, suffixes: readonly string[], indent: number): string {
  let out = body;
  let lastLine = body.length - body.lastIndexOf("\n") + 1;
  for (const s of suffixes) {
    if (lastLine + s.length + 2 > LINEWIDTH) {
      out += `,\n${" ".repeat(indent)}${s}`;
      lastLine = indent + s.length;
    } else {
      out += `, ${s}`;
      lastLine += s.length + 2;
    }
  }
  return `${out})`;
}

/** The tensor's values as PyTorch prints them (copies the values to the host). */
export function formatTensor(t: Tensor): string {
  const prefix = "tensor(";
  const indent = prefix.length;
  const suffixes: string[] = [];
  if (t.device !== "cpu:0") suffixes.push(`device='${t.device}'`);
  let body: string;
  if (t.numel() === 0) {
    if (t.ndim !== 1) suffixes.push(`size=(${t.shape.join(", ")}${t.ndim === 1 ? "," : ""})`);
    if (t.dtype !== "float32") suffixes.push(`dtype=torch.${t.dtype}`);
    body = "[]";
  } else {
    if (!unnamedDTypes.has(t.dtype)) suffixes.push(`dtype=torch.${t.dtype}`);
    const values = t.dataSync() as ArrayLike<Value>;
    const layout = new Layout(t.shape, t.numel() > THRESHOLD);
    const kind = t.dtype === "bool" ? "bool" : dtypes[t.dtype].kind === "float" ? "float" : "int";
    const fmt = new Formatter(kind, layout.printed().map((i) => values[i]!));
    body = render(values, layout, fmt, 0, 0, indent);
  }
  if (t.requiresGrad) suffixes.push("requires_grad=True");
  return addSuffixes(prefix + body, suffixes, indent);
}
