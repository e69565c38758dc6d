/**
 * @file Conv1d/2d/3d, ConvTranspose1d/2d, and the pooling modules. Convolution weights and biases
 * start as PyTorch's: uniform in ±1/√fanIn (kaiming-uniform with a = √5 for the weight).
 */
import { empty } from "../../ops/creation/filled.js";
import { ArgumentError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { fans, kaimingUniform_, uniform_ } from "../init.js";
import { Module, Parameter } from "../module.js";
import { factory, type FactoryOptions, layerOptions } from "./options.js";

type Size = number | readonly number[];

export interface ConvOptions extends FactoryOptions {
  stride?: Size;
  padding?: Size | "valid" | "same";
  dilation?: Size;
  groups?: number;
  bias?: boolean;
  /** ConvTranspose only. */
  outputPadding?: Size;
}

const tuple = (s: Size, n: number): number[] => (typeof s === "number" ? new Array<number>(n).fill(s) : [...s]);

type ConvFn = (x: Tensor, w: Tensor, options: object) => Tensor;

function convolution(name: string, dims: number, fn: ConvFn, transposed: boolean) {
  const known = ["stride", "padding", "dilation", "groups", "bias", "device", "dtype", ...(transposed ? ["outputPadding"] : [])] as (keyof ConvOptions)[];
  const layer = class extends Module {
    readonly inChannels: number;
    readonly outChannels: number;
    readonly kernelSize: number[];
    readonly options: Omit<ConvOptions, "bias" | "device" | "dtype">;
    weight: Parameter;
    bias: Parameter | null;

    constructor(inChannels: number, outChannels: number, kernelSize: Size, options?: ConvOptions) {
      super();
      const o = layerOptions<ConvOptions>(name, options, known);
      const groups = o.groups ?? 1;
      if (!Number.isInteger(groups) || groups < 1 || inChannels % groups !== 0 || outChannels % groups !== 0) {
        throw new ArgumentError(`${name}: inChannels (${inChannels}) and outChannels (${outChannels}) must be divisible by groups (${String(groups)})`);
      }
      this.inChannels = inChannels;
      this.outChannels = outChannels;
      this.kernelSize = tuple(kernelSize, dims);
      const { bias, device, dtype, ...rest } = o;
      this.options = rest;
      const shape = transposed ? [inChannels, outChannels / groups, ...this.kernelSize] : [outChannels, inChannels / groups, ...this.kernelSize];
      this.weight = new Parameter(empty(shape, factory(o)));
      this.bias = bias === false ? null : new Parameter(empty([outChannels], factory(o)));
      this.resetParameters();
    }

    resetParameters(): void {
      kaimingUniform_(this.weight, { a: Math.sqrt(5) });
      if (this.bias !== null) {
        const [fanIn] = fans(this.weight, name);
        const bound = fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
        uniform_(this.bias, -bound, bound);
      }
    }

    override forward(x: Tensor): Tensor {
      return fn(x, this.weight, { ...(this.bias ? { bias: this.bias } : {}), ...this.options });
    }

    override extraRepr(): string {
      const extras = Object.entries(this.options).map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.join(", ")}]` : String(v)}`);
      return [`${this.inChannels}, ${this.outChannels}, kernelSize=[${this.kernelSize.join(", ")}]`, ...extras, ...(this.bias ? [] : ["bias=false"])].join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const Conv1d = convolution("Conv1d", 1, F.conv1d as ConvFn, false);
export const Conv2d = convolution("Conv2d", 2, F.conv2d as ConvFn, false);
export const Conv3d = convolution("Conv3d", 3, F.conv3d as ConvFn, false);
export const ConvTranspose1d = convolution("ConvTranspose1d", 1, F.convTranspose1d as ConvFn, true);
export const ConvTranspose2d = convolution("ConvTranspose2d", 2, F.convTranspose2d as ConvFn, true);

/** A pooling module: its functional op with the constructor's first argument and options. */
function pooling<O extends object>(name: string, fn: (x: Tensor, first: never, options: O) => Tensor, known: readonly (keyof O & string)[]) {
  const layer = class extends Module {
    readonly options: Partial<O>;
    constructor(readonly size: Size, options?: O) {
      super();
      this.options = layerOptions<O>(name, options, known);
    }
    override forward(x: Tensor): Tensor {
      return fn(x, this.size as never, this.options as O);
    }
    override extraRepr(): string {
      return [`${Array.isArray(this.size) ? `[${this.size.join(", ")}]` : String(this.size)}`, ...Object.entries(this.options).map(([k, v]) => `${k}=${String(v)}`)].join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

type MaxPoolOptions = { stride?: Size; padding?: Size; dilation?: Size; ceilMode?: boolean };
type AvgPoolOptions = { stride?: Size; padding?: Size; ceilMode?: boolean; countIncludePad?: boolean; divisorOverride?: number };
const maxKnown = ["stride", "padding", "dilation", "ceilMode"] as const;
export const MaxPool1d = pooling<MaxPoolOptions>("MaxPool1d", F.maxPool1d as never, maxKnown);
export const MaxPool2d = pooling<MaxPoolOptions>("MaxPool2d", F.maxPool2d as never, maxKnown);
export const AvgPool1d = pooling<AvgPoolOptions>("AvgPool1d", F.avgPool1d as never, ["stride", "padding", "ceilMode", "countIncludePad"]);
export const AvgPool2d = pooling<AvgPoolOptions>("AvgPool2d", F.avgPool2d as never, ["stride", "padding", "ceilMode", "countIncludePad", "divisorOverride"]);
export const AdaptiveAvgPool1d = pooling<Record<string, never>>("AdaptiveAvgPool1d", F.adaptiveAvgPool1d as never, []);
export const AdaptiveAvgPool2d = pooling<Record<string, never>>("AdaptiveAvgPool2d", F.adaptiveAvgPool2d as never, []);
