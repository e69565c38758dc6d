/**
 * @file The window primitives of the prim table (src/ops/prims.ts spreads these rows in):
 * reduce_window with fixed bodies, convolution in PyTorch's channels-first layout, and
 * select_and_scatter (max/min-pool gradients). Window geometry follows the StableHLO spec: the operand
 * is dilated (baseDilation), padded with the init value, and a dilated window slides with strides.
 */
import { DTypeError, ShapeError } from "../runtime/errors.js";
import type { NativeAttr } from "../runtime/native.js";
import type { Precision } from "../matmul_precision.js";
import type { Aval, PrimDef } from "./prims.js";

type Dims = readonly number[];
export type Padding = readonly (readonly [number, number])[];

/** One entry per operand dimension. */
export interface WindowParams {
  window: Dims;
  strides: Dims;
  padding: Padding;
  baseDilation: Dims;
  windowDilation: Dims;
}

/** lhs [N, C, ...spatial], rhs [O, C / featureGroups, ...kernel], result [N / batchGroups, O, ...spatial]. */
export interface ConvParams {
  strides: Dims;
  padding: Padding;
  lhsDilation: Dims;
  rhsDilation: Dims;
  featureGroups: number;
  batchGroups: number;
  precision?: Precision;
}

export interface WindowPrimParams {
  reduce_window_sum: WindowParams; reduce_window_max: WindowParams; reduce_window_min: WindowParams;
  reduce_window_prod: WindowParams;
  /** log(Σ exp) over the window (logcumsumexp). */
  reduce_window_logaddexp: WindowParams;
  /** Inputs: values, indices, value init, index init; the later index wins ties and among NaNs (cummax/cummin). */
  reduce_window_cumargmax: WindowParams; reduce_window_cumargmin: WindowParams;
  /** Like cumargmax/cumargmin, but the earlier index wins (max-pool indices). */
  reduce_window_argmax: WindowParams; reduce_window_argmin: WindowParams;
  convolution: ConvParams;
  /** Inputs: operand, source (one value per window), 0-d init; each source value is added at its
   * window's first maximum ("GE") or minimum ("LE"). */
  select_and_scatter: Omit<WindowParams, "baseDilation" | "windowDilation"> & { select: "GE" | "LE" };
}

const fmt = (a: Aval): string => `${a.dtype}[${a.shape.join(", ")}]`;
const list = (d: Dims): string => `[${d.join(", ")}]`;

/** The size of a window sliding over `size` elements dilated and padded (StableHLO's shape rule). */
export function slide(size: number, dilation: number, [lo, hi]: readonly [number, number], window: number, windowDilation: number, stride: number): number {
  const padded = (size === 0 ? 0 : (size - 1) * dilation + 1) + lo + hi;
  const span = (window - 1) * windowDilation + 1;
  return padded < span ? 0 : Math.floor((padded - span) / stride) + 1;
}

function checkWindow(prim: string, x: Aval, p: Omit<WindowParams, "baseDilation" | "windowDilation"> & Partial<WindowParams>): number[] {
  const rank = x.shape.length;
  const lists: [string, Dims | Padding | undefined][] = [["window", p.window], ["strides", p.strides], ["padding", p.padding], ["baseDilation", p.baseDilation], ["windowDilation", p.windowDilation]];
  for (const [name, l] of lists) {
    if (l !== undefined && l.length !== rank) throw new ShapeError(`${prim}: ${name} needs ${rank} entries for ${fmt(x)}, got ${l.length}`);
  }
  for (const [name, l] of [["window", p.window], ["strides", p.strides], ["baseDilation", p.baseDilation], ["windowDilation", p.windowDilation]] as const) {
    if (l !== undefined && l.some((v) => !Number.isInteger(v) || v < 1)) throw new ShapeError(`${prim}: ${name} ${list(l)} must be positive integers`);
  }
  return x.shape.map((d, i) => slide(d, p.baseDilation?.[i] ?? 1, p.padding[i]!, p.window[i]!, p.windowDilation?.[i] ?? 1, p.strides[i]!));
}

const ints = (name: string, l: Dims): NativeAttr => ({ name, ints: [...l] });
const padding = (p: Padding): NativeAttr => ({
  name: "padding",
  text: `dense<[${p.map(([lo, hi]) => `[${lo}, ${hi}]`).join(", ")}]> : tensor<${p.length}x2xi64>`,
});
/** dot_general's and convolution's operand precisions (none: the plugin's default). */
export const precisionConfig = (p: Precision | undefined): NativeAttr[] =>
  p === undefined ? [] : [{ name: "precision_config", text: `[#stablehlo<precision ${p}>, #stablehlo<precision ${p}>]` }];
const windowAttrs = (p: WindowParams): NativeAttr[] => [
  ints("window_dimensions", p.window), ints("window_strides", p.strides), ints("base_dilations", p.baseDilation),
  ints("window_dilations", p.windowDilation), padding(p.padding),
];

function checkInits(prim: string, values: readonly Aval[], inits: readonly Aval[]): void {
  values.forEach((x, i) => {
    const init = inits[i]!;
    if (init.dtype !== x.dtype || init.shape.length !== 0) throw new ShapeError(`${prim}: init ${fmt(init)} must be a 0-d ${x.dtype}`);
  });
}

function reduceWindow<P extends "reduce_window_sum" | "reduce_window_max" | "reduce_window_min" | "reduce_window_prod" | "reduce_window_logaddexp">(body: string, floatOnly = false): PrimDef<P> {
  const prim = `reduce_window_${body}`;
  return {
    arity: 2,
    infer: ([x, init], p) => {
      if (floatOnly && !["float16", "bfloat16", "float32", "float64"].includes(x!.dtype)) throw new DTypeError(`${prim}: ${x!.dtype} is not a floating dtype`);
      checkInits(prim, [x!], [init!]);
      return [{ shape: checkWindow(prim, x!, p), dtype: x!.dtype }];
    },
    lower: (p) => ({ op: "reduce_window", body, attrs: windowAttrs(p) }),
  };
}

function cumArg<P extends "reduce_window_cumargmax" | "reduce_window_cumargmin" | "reduce_window_argmax" | "reduce_window_argmin">(body: string): PrimDef<P> {
  return {
    arity: 4,
    infer: ([x, idx, xInit, iInit], p) => {
      if (idx!.shape.join() !== x!.shape.join()) throw new ShapeError(`${body}: indices ${fmt(idx!)} must have the shape of ${fmt(x!)}`);
      checkInits(body, [x!, idx!], [xInit!, iInit!]);
      const shape = checkWindow(body, x!, p);
      return [{ shape, dtype: x!.dtype }, { shape, dtype: idx!.dtype }];
    },
    lower: (p) => ({ op: "reduce_window", body, attrs: windowAttrs(p) }),
  };
}

export const windowPrims = {
  reduce_window_sum: reduceWindow("add"),
  reduce_window_max: reduceWindow("max"),
  reduce_window_min: reduceWindow("min"),
  reduce_window_prod: reduceWindow("mul"),
  reduce_window_logaddexp: reduceWindow("logaddexp", true),
  reduce_window_cumargmax: cumArg("cumargmax"),
  reduce_window_cumargmin: cumArg("cumargmin"),
  reduce_window_argmax: cumArg("argmax"),
  reduce_window_argmin: cumArg("argmin"),
  convolution: {
    arity: 2,
    infer: ([x, w], p) => {
      const n = x!.shape.length - 2;
      if (n < 1 || w!.shape.length !== x!.shape.length) throw new ShapeError(`convolution: input ${fmt(x!)} and weight ${fmt(w!)} need one rank of at least 3`);
      if (x!.dtype !== w!.dtype) throw new DTypeError(`convolution: input ${fmt(x!)} and weight ${fmt(w!)} differ in dtype`);
      for (const [name, l] of [["strides", p.strides], ["padding", p.padding], ["lhsDilation", p.lhsDilation], ["rhsDilation", p.rhsDilation]] as const) {
        if (l.length !== n) throw new ShapeError(`convolution: ${name} needs ${n} entries, got ${l.length}`);
      }
      const [batch, channels] = [x!.shape[0]!, x!.shape[1]!];
      const [out, perGroup] = [w!.shape[0]!, w!.shape[1]!];
      if (perGroup * p.featureGroups !== channels || out % p.featureGroups !== 0 || out % p.batchGroups !== 0 || batch % p.batchGroups !== 0) {
        throw new ShapeError(`convolution: input ${fmt(x!)} and weight ${fmt(w!)} do not fit feature_group_count ${p.featureGroups}, batch_group_count ${p.batchGroups}`);
      }
      const spatial = x!.shape.slice(2).map((d, i) => slide(d, p.lhsDilation[i]!, p.padding[i]!, w!.shape[2 + i]!, p.rhsDilation[i]!, p.strides[i]!));
      return [{ shape: [batch / p.batchGroups, out, ...spatial], dtype: x!.dtype }];
    },
    lower: (p, [x]) => {
      const sp = Array.from({ length: x!.shape.length - 2 }, (_, i) => i).join(", ");
      return {
        op: "convolution",
        attrs: [
          ints("window_strides", p.strides), padding(p.padding), ints("lhs_dilation", p.lhsDilation), ints("rhs_dilation", p.rhsDilation),
          { name: "dimension_numbers", text: `#stablehlo.conv<[b, f, ${sp}]x[o, i, ${sp}]->[b, f, ${sp}]>` },
          { name: "feature_group_count", int: p.featureGroups }, { name: "batch_group_count", int: p.batchGroups },
          ...precisionConfig(p.precision),
        ],
      };
    },
  },
  select_and_scatter: {
    arity: 3,
    infer: ([x, source, init], p) => {
      checkInits("select_and_scatter", [x!], [init!]);
      const shape = checkWindow("select_and_scatter", x!, p);
      if (source!.dtype !== x!.dtype || source!.shape.join() !== shape.join()) throw new ShapeError(`select_and_scatter: source ${fmt(source!)} must be ${x!.dtype}${list(shape)}`);
      return [x!];
    },
    lower: (p) => ({ op: "select_and_scatter", body: p.select, attrs: [ints("window_dimensions", p.window), ints("window_strides", p.strides), padding(p.padding)] }),
  },
} satisfies { [P in keyof WindowPrimParams]: PrimDef<P> };
