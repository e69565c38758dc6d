/**
 * @file Conv1d/2d/3d, ConvTranspose1d/2d/3d, Fold/Unfold, and the pooling and unpooling modules.
 * Convolution weights and biases start as PyTorch's: uniform in ±1/√fanIn (kaiming-uniform with
 * a = √5 for the weight).
 */
import { empty } from "../../ops/creation/filled.js";
import { ArgumentError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { fans, kaimingUniform_, uniform_ } from "../init.js";
import { Module, Parameter } from "../module.js";
import { constructorOptions } from "./constructor_options.js";
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
export const ConvTranspose3d = convolution("ConvTranspose3d", 3, F.convTranspose3d as ConvFn, true);

/**
 * A pooling module: its functional op with the constructor's first argument and options. A max pool
 * made with `returnIndices: true` returns [values, indices] (R = true), as PyTorch's does.
 */
function pooling<O extends object>(name: string, fn: (x: Tensor, first: never, options: O) => Tensor, known: readonly (keyof O & string)[]) {
  const layer = class<R extends boolean = false> extends Module {
    readonly options: Partial<O>;
    constructor(readonly size: Size, options?: O & { returnIndices?: R }) {
      super();
      this.options = layerOptions<O>(name, options, known);
    }
    override forward(x: Tensor): R extends true ? [Tensor, Tensor] : Tensor {
      return fn(x, this.size as never, this.options as O) as never;
    }
    override extraRepr(): string {
      return [`${Array.isArray(this.size) ? `[${this.size.join(", ")}]` : String(this.size)}`, ...Object.entries(this.options).map(([k, v]) => `${k}=${String(v)}`)].join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

type MaxPoolOptions = { stride?: Size; padding?: Size; dilation?: Size; ceilMode?: boolean; returnIndices?: boolean };
type AvgPoolOptions = { stride?: Size; padding?: Size; ceilMode?: boolean; countIncludePad?: boolean; divisorOverride?: number };
type AdaptiveMaxPoolOptions = { returnIndices?: boolean };
const maxKnown = ["stride", "padding", "dilation", "ceilMode", "returnIndices"] as const;
export const MaxPool1d = pooling<MaxPoolOptions>("MaxPool1d", F.maxPool1d as never, maxKnown);
export const MaxPool2d = pooling<MaxPoolOptions>("MaxPool2d", F.maxPool2d as never, maxKnown);
export const MaxPool3d = pooling<MaxPoolOptions>("MaxPool3d", F.maxPool3d as never, maxKnown);
export const AvgPool1d = pooling<AvgPoolOptions>("AvgPool1d", F.avgPool1d as never, ["stride", "padding", "ceilMode", "countIncludePad"]);
export const AvgPool2d = pooling<AvgPoolOptions>("AvgPool2d", F.avgPool2d as never, ["stride", "padding", "ceilMode", "countIncludePad", "divisorOverride"]);
export const AvgPool3d = pooling<AvgPoolOptions>("AvgPool3d", F.avgPool3d as never, ["stride", "padding", "ceilMode", "countIncludePad", "divisorOverride"]);
export const AdaptiveAvgPool1d = pooling<Record<string, never>>("AdaptiveAvgPool1d", F.adaptiveAvgPool1d as never, []);
export const AdaptiveAvgPool2d = pooling<Record<string, never>>("AdaptiveAvgPool2d", F.adaptiveAvgPool2d as never, []);
export const AdaptiveAvgPool3d = pooling<Record<string, never>>("AdaptiveAvgPool3d", F.adaptiveAvgPool3d as never, []);
export const AdaptiveMaxPool1d = pooling<AdaptiveMaxPoolOptions>("AdaptiveMaxPool1d", F.adaptiveMaxPool1d as never, ["returnIndices"]);
export const AdaptiveMaxPool2d = pooling<AdaptiveMaxPoolOptions>("AdaptiveMaxPool2d", F.adaptiveMaxPool2d as never, ["returnIndices"]);
export const AdaptiveMaxPool3d = pooling<AdaptiveMaxPoolOptions>("AdaptiveMaxPool3d", F.adaptiveMaxPool3d as never, ["returnIndices"]);

const sizeText = (s: Size): string => (typeof s === "number" ? String(s) : `[${s.join(", ")}]`);
const optionsText = (o: object): string[] => Object.entries(o).map(([k, v]) => `${k}=${Array.isArray(v) ? sizeText(v as number[]) : String(v)}`);

type LPPoolOptions = { stride?: Size; ceilMode?: boolean };

/** An Lp pooling module: LPPool2d(normType, kernelSize, { stride, ceilMode }). */
function lpPooling(name: string, fn: (x: Tensor, normType: number, kernelSize: Size, options: LPPoolOptions) => Tensor) {
  const layer = class extends Module {
    readonly options: LPPoolOptions;
    constructor(readonly normType: number, readonly kernelSize: Size, options?: LPPoolOptions) {
      super();
      this.options = layerOptions<LPPoolOptions>(name, options, ["stride", "ceilMode"]);
    }
    override forward(x: Tensor): Tensor {
      return fn(x, this.normType, this.kernelSize, this.options);
    }
    override extraRepr(): string {
      return [`normType=${this.normType}`, `kernelSize=${sizeText(this.kernelSize)}`, ...optionsText(this.options)].join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const LPPool1d = lpPooling("LPPool1d", F.lpPool1d as never);
export const LPPool2d = lpPooling("LPPool2d", F.lpPool2d as never);
export const LPPool3d = lpPooling("LPPool3d", F.lpPool3d as never);

type MaxUnpoolOptions = { stride?: Size; padding?: Size };
type UnpoolFn = (x: Tensor, indices: Tensor, kernelSize: Size, options: MaxUnpoolOptions & { outputSize?: readonly number[] }) => Tensor;

/** A max-unpooling module: MaxUnpool2d(kernelSize, { stride, padding }). */
function unpooling(name: string, fn: UnpoolFn) {
  const layer = class extends Module {
    readonly options: MaxUnpoolOptions;
    constructor(readonly kernelSize: Size, options?: MaxUnpoolOptions) {
      super();
      this.options = layerOptions<MaxUnpoolOptions>(name, options, ["stride", "padding"]);
    }
    /** forward(input, indices, outputSize?), or forward(input, indices, { outputSize }). */
    override forward(x: Tensor, indices: Tensor, outputSize?: readonly number[] | { outputSize?: readonly number[] }): Tensor {
      const size = outputSize === undefined || Array.isArray(outputSize) ? outputSize : (outputSize as { outputSize?: readonly number[] }).outputSize;
      return fn(x, indices, this.kernelSize, { ...this.options, ...(size === undefined ? {} : { outputSize: size }) });
    }
    override extraRepr(): string {
      return [`kernelSize=${sizeText(this.kernelSize)}`, ...optionsText(this.options)].join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const MaxUnpool1d = unpooling("MaxUnpool1d", F.maxUnpool1d as never);
export const MaxUnpool2d = unpooling("MaxUnpool2d", F.maxUnpool2d as never);
export const MaxUnpool3d = unpooling("MaxUnpool3d", F.maxUnpool3d as never);

type BlockOptions = { dilation?: Size; padding?: Size; stride?: Size };
const blockKnown = ["dilation", "padding", "stride"] as const;

/** Sliding blocks to columns (im2col): F.unfold with the constructor's kernelSize and options. */
export class Unfold extends Module {
  readonly options: BlockOptions;
  constructor(readonly kernelSize: Size, options?: BlockOptions) {
    super();
    this.options = layerOptions<BlockOptions>("Unfold", options, blockKnown);
  }
  override forward(x: Tensor): Tensor {
    return F.unfold(x, this.kernelSize, this.options);
  }
  override extraRepr(): string {
    return [`kernelSize=${sizeText(this.kernelSize)}`, ...optionsText(this.options)].join(", ");
  }
}

/** Columns back to sliding blocks, summed (col2im): F.fold with the constructor's outputSize, kernelSize and options. */
export class Fold extends Module {
  readonly options: BlockOptions;
  constructor(readonly outputSize: Size, readonly kernelSize: Size, options?: BlockOptions) {
    super();
    this.options = layerOptions<BlockOptions>("Fold", options, blockKnown);
  }
  override forward(x: Tensor): Tensor {
    return F.fold(x, this.outputSize, this.kernelSize, this.options);
  }
  override extraRepr(): string {
    return [`outputSize=${sizeText(this.outputSize)}`, `kernelSize=${sizeText(this.kernelSize)}`, ...optionsText(this.options)].join(", ");
  }
}

type FractionalOptions = { outputSize?: Size; outputRatio?: number | readonly number[]; returnIndices?: boolean; randomSamples?: Tensor };
type FractionalFn = (x: Tensor, kernelSize: Size, options: { outputSize?: Size; outputRatio?: number | readonly number[]; returnIndices: boolean; randomSamples?: Tensor }) => Tensor | [Tensor, Tensor];

/**
 * A fractional max-pooling module: FractionalMaxPool2d(kernelSize, outputSize?, outputRatio?,
 * returnIndices?, randomSamples?) or with the rest by name. Given samples are a buffer
 * ("_random_samples" in the state dict, as PyTorch's); without, each call draws new ones.
 */
function fractionalPooling(name: string, dims: number, fn: FractionalFn) {
  const layer = class<R extends boolean = false> extends Module {
    readonly kernelSize: Size;
    readonly outputSize: Size | undefined;
    readonly outputRatio: number | readonly number[] | undefined;
    readonly returnIndices: boolean;
    declare _randomSamples: Tensor | null;
    constructor(kernelSize: Size, ...args: [outputSize?: Size | FractionalOptions & { returnIndices?: R }, outputRatio?: number | readonly number[] | FractionalOptions, returnIndices?: R | FractionalOptions, randomSamples?: Tensor | FractionalOptions, options?: FractionalOptions]) {
      super();
      const o = constructorOptions<FractionalOptions>(name, args, ["outputSize", "outputRatio", "returnIndices", "randomSamples"]);
      this.kernelSize = kernelSize;
      this.outputSize = o.outputSize ?? undefined;
      this.outputRatio = o.outputRatio ?? undefined;
      this.returnIndices = o.returnIndices ?? false;
      if (this.outputSize === undefined && this.outputRatio === undefined) throw new ArgumentError(`${name}: requires specifying either an outputSize or an outputRatio`);
      if (this.outputSize !== undefined && this.outputRatio !== undefined) throw new ArgumentError(`${name}: only one of outputSize and outputRatio may be specified`);
      const ratios = this.outputRatio === undefined ? [] : typeof this.outputRatio === "number" ? [this.outputRatio] : this.outputRatio;
      if (ratios.some((r) => !(r > 0 && r < 1))) throw new ArgumentError(`${name}: outputRatio must be between 0 and 1 (got ${JSON.stringify(this.outputRatio)})`);
      if (ratios.length > 1 && ratios.length !== dims) throw new ArgumentError(`${name}: outputRatio must be a number or ${dims} of them, got ${JSON.stringify(this.outputRatio)}`);
      this.registerBuffer("_randomSamples", o.randomSamples ?? null);
    }
    override forward(x: Tensor): R extends true ? [Tensor, Tensor] : Tensor {
      return fn(x, this.kernelSize, {
        ...(this.outputSize === undefined ? {} : { outputSize: this.outputSize }),
        ...(this.outputRatio === undefined ? {} : { outputRatio: this.outputRatio }),
        returnIndices: this.returnIndices,
        ...(this._randomSamples === null ? {} : { randomSamples: this._randomSamples }),
      }) as never;
    }
    override extraRepr(): string {
      const by = this.outputSize !== undefined ? `outputSize=${sizeText(this.outputSize)}` : `outputRatio=${JSON.stringify(this.outputRatio)}`;
      return [`kernelSize=${sizeText(this.kernelSize)}`, by, ...(this.returnIndices ? ["returnIndices=true"] : [])].join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const FractionalMaxPool2d = fractionalPooling("FractionalMaxPool2d", 2, F.fractionalMaxPool2d as never);
export const FractionalMaxPool3d = fractionalPooling("FractionalMaxPool3d", 3, F.fractionalMaxPool3d as never);
