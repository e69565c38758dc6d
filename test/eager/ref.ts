// float64 references computed in JS: broadcasting elementwise ops, reductions and matmul.

export interface Ref {
  shape: number[];
  values: number[];
}

export const numel = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

export function broadcastShape(...shapes: number[][]): number[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  return Array.from({ length: rank }, (_, k) =>
    Math.max(...shapes.map((s) => (k - rank + s.length >= 0 ? s[k - rank + s.length]! : 1))),
  ).map((d, k) => (shapes.some((s) => s[k - rank + s.length] === 0) ? 0 : d));
}

/** Index into a tensor of `shape` for the output multi-index `idx` under broadcasting. */
function at(shape: number[], values: number[], idx: number[]): number {
  let offset = 0;
  const lead = idx.length - shape.length;
  for (let i = 0; i < shape.length; i++) offset = offset * shape[i]! + (shape[i] === 1 ? 0 : idx[lead + i]!);
  return values[offset]!;
}

function unravel(i: number, shape: number[]): number[] {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = i % shape[d]!;
    i = Math.floor(i / shape[d]!);
  }
  return idx;
}

export function elementwise(inputs: Ref[], f: (...xs: number[]) => number): Ref {
  const shape = broadcastShape(...inputs.map((r) => r.shape));
  const values = Array.from({ length: numel(shape) }, (_, i) => {
    const idx = unravel(i, shape);
    return f(...inputs.map((r) => at(r.shape, r.values, idx)));
  });
  return { shape, values };
}

/** Reduces `dims` of x with `f` over the reduced elements' values. */
export function reduceRef(x: Ref, dims: number[], f: (xs: number[]) => number, keepdim = false): Ref {
  const outShape = x.shape.map((d, i) => (dims.includes(i) ? 1 : d));
  const groups = new Map<number, number[]>();
  for (let i = 0; i < x.values.length; i++) {
    const idx = unravel(i, x.shape).map((v, d) => (dims.includes(d) ? 0 : v));
    let o = 0;
    for (let d = 0; d < idx.length; d++) o = o * outShape[d]! + idx[d]!;
    if (!groups.has(o)) groups.set(o, []);
    groups.get(o)!.push(x.values[i]!);
  }
  const values = Array.from({ length: numel(outShape) }, (_, o) => f(groups.get(o) ?? []));
  return { shape: keepdim ? outShape : x.shape.filter((_, i) => !dims.includes(i)), values };
}

/** Plain [n, k] × [k, m]. */
export function mm(a: number[], b: number[], n: number, k: number, m: number): number[] {
  const out = new Array<number>(n * m).fill(0);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) for (let p = 0; p < k; p++) out[i * m + j]! += a[i * k + p]! * b[p * m + j]!;
  return out;
}

/** Deterministic test data: n values in about [−3, 3] with a fixed pattern. */
export function data(n: number, seed = 1): number[] {
  return Array.from({ length: n }, (_, i) => Math.round((Math.sin(i * 12.9898 + seed * 78.233) * 3) * 100) / 100);
}

export const f32 = (v: number): number => Math.fround(v);
