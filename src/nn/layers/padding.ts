/**
 * @file The padding modules, F.pad as a module: ZeroPad, ConstantPad, ReflectionPad, ReplicationPad
 * and CircularPad in 1d, 2d and 3d. `padding` is one int for every side or (left, right, top,
 * bottom, front, back): 2, 4 or 6 ints, the last dim's pair first, as F.pad takes them.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { Module } from "../module.js";
import { constructorOptions } from "./constructor_options.js";

type Mode = "constant" | "reflect" | "replicate" | "circular";
type Padding = number | readonly number[];

/** `padding` as its 2·dims amounts (PyTorch's _pair, _quadruple, _ntuple(6)), checked. */
function amounts(name: string, padding: unknown, dims: number): number[] {
  const list = typeof padding === "number" ? new Array<number>(2 * dims).fill(padding) : padding;
  if (!Array.isArray(list) || list.length !== 2 * dims || list.some((p) => !Number.isInteger(p))) {
    throw new ArgumentError(`${name}: padding must be an int or a list of ${2 * dims} ints, got ${JSON.stringify(padding)}`);
  }
  return [...(list as number[])];
}

/** A padding module of `dims` dims and `mode`; constant ones take a `value` (ZeroPad's is 0 and not an argument). */
function padding(name: string, dims: number, mode: Mode, withValue = false) {
  const layer = class extends Module {
    readonly padding: number[];
    readonly value: number;
    /** (padding) or (padding, value) for ConstantPad, positionally or by name. */
    constructor(...args: [padding?: Padding | { padding?: Padding; value?: number }, value?: number | { value?: number }]) {
      super();
      const o = constructorOptions<{ padding: Padding; value: number }>(name, args, withValue ? ["padding", "value"] : ["padding"]);
      if (o.padding === undefined) throw new ArgumentError(`${name}: padding is required`);
      if (withValue && typeof o.value !== "number") throw new ArgumentError(`${name}: value is a required number, got ${String(o.value)}`);
      this.padding = amounts(name, o.padding, dims);
      this.value = o.value ?? 0;
    }
    override forward(x: Tensor): Tensor {
      // the non-constant modes pad a batched or unbatched input; PyTorch's circular modules check it here
      if (mode !== "constant" && x.ndim !== dims + 1 && x.ndim !== dims + 2) throw new ShapeError(`${name}: expected ${dims + 1}D or ${dims + 2}D input (got ${x.ndim}D input)`);
      return mode === "constant" ? F.pad(x, this.padding, "constant", this.value) : F.pad(x, this.padding, mode);
    }
    override extraRepr(): string {
      const text = `[${this.padding.join(", ")}]`;
      return withValue ? `padding=${text}, value=${this.value}` : text;
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const ZeroPad1d = padding("ZeroPad1d", 1, "constant");
export const ZeroPad2d = padding("ZeroPad2d", 2, "constant");
export const ZeroPad3d = padding("ZeroPad3d", 3, "constant");
export const ConstantPad1d = padding("ConstantPad1d", 1, "constant", true);
export const ConstantPad2d = padding("ConstantPad2d", 2, "constant", true);
export const ConstantPad3d = padding("ConstantPad3d", 3, "constant", true);
export const ReflectionPad1d = padding("ReflectionPad1d", 1, "reflect");
export const ReflectionPad2d = padding("ReflectionPad2d", 2, "reflect");
export const ReflectionPad3d = padding("ReflectionPad3d", 3, "reflect");
export const ReplicationPad1d = padding("ReplicationPad1d", 1, "replicate");
export const ReplicationPad2d = padding("ReplicationPad2d", 2, "replicate");
export const ReplicationPad3d = padding("ReplicationPad3d", 3, "replicate");
export const CircularPad1d = padding("CircularPad1d", 1, "circular");
export const CircularPad2d = padding("CircularPad2d", 2, "circular");
export const CircularPad3d = padding("CircularPad3d", 3, "circular");
