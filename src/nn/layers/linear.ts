/**
 * @file Linear, Bilinear and Identity. Their weights and biases start as PyTorch's do: Linear's
 * uniform in ±1/√inFeatures (kaiming-uniform with a = √5 for the weight), Bilinear's in ±1/√in1Features.
 */
import type { Tensor } from "../../tensor.js";
import { empty } from "../../ops/creation/filled.js";
import { bilinear, linear } from "../../ops/nn/linear.js";
import { ArgumentError } from "../../runtime/errors.js";
import { kaimingUniform_, uniform_ } from "../init.js";
import { Module, Parameter } from "../module.js";
import { factory, type FactoryOptions, layerOptions } from "./options.js";

/** Returns its input (a placeholder in a Sequential). */
export class Identity extends Module {
  override forward(x: Tensor): Tensor {
    return x;
  }
}

export interface LinearOptions extends FactoryOptions {
  bias?: boolean;
}

function checkFeatures(layer: string, name: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new ArgumentError(`${layer}: ${name} must be a non-negative integer, got ${String(n)}`);
}

/** y = x·Wᵀ + b, with weight [outFeatures, inFeatures] and bias [outFeatures]. */
export class Linear extends Module {
  readonly inFeatures: number;
  readonly outFeatures: number;
  weight: Parameter;
  bias: Parameter | null;

  constructor(inFeatures: number, outFeatures: number, options?: LinearOptions | boolean) {
    super();
    const o = layerOptions<LinearOptions>("Linear", typeof options === "boolean" ? { bias: options } : options, ["bias", "device", "dtype"]);
    checkFeatures("Linear", "inFeatures", inFeatures);
    checkFeatures("Linear", "outFeatures", outFeatures);
    this.inFeatures = inFeatures;
    this.outFeatures = outFeatures;
    this.weight = new Parameter(empty([outFeatures, inFeatures], factory(o)));
    this.bias = o.bias === false ? null : new Parameter(empty([outFeatures], factory(o)));
    this.resetParameters();
  }

  /** PyTorch's initialisation, drawn again. */
  resetParameters(): void {
    kaimingUniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias !== null) {
      const bound = this.inFeatures > 0 ? 1 / Math.sqrt(this.inFeatures) : 0;
      uniform_(this.bias, -bound, bound);
    }
  }

  override forward(x: Tensor): Tensor {
    return this.bias === null ? linear(x, this.weight) : linear(x, this.weight, this.bias);
  }

  override extraRepr(): string {
    return `inFeatures=${this.inFeatures}, outFeatures=${this.outFeatures}, bias=${this.bias !== null}`;
  }
}


/** y = x1ᵀ·W·x2 + b per output feature, with weight [outFeatures, in1Features, in2Features] and bias [outFeatures]. */
export class Bilinear extends Module {
  readonly in1Features: number;
  readonly in2Features: number;
  readonly outFeatures: number;
  weight: Parameter;
  bias: Parameter | null;

  constructor(in1Features: number, in2Features: number, outFeatures: number, options?: LinearOptions | boolean) {
    super();
    const o = layerOptions<LinearOptions>("Bilinear", typeof options === "boolean" ? { bias: options } : options, ["bias", "device", "dtype"]);
    checkFeatures("Bilinear", "in1Features", in1Features);
    checkFeatures("Bilinear", "in2Features", in2Features);
    checkFeatures("Bilinear", "outFeatures", outFeatures);
    this.in1Features = in1Features;
    this.in2Features = in2Features;
    this.outFeatures = outFeatures;
    this.weight = new Parameter(empty([outFeatures, in1Features, in2Features], factory(o)));
    this.bias = o.bias === false ? null : new Parameter(empty([outFeatures], factory(o)));
    this.resetParameters();
  }

  /** PyTorch's initialisation, drawn again: weight and bias uniform in ±1/√in1Features. */
  resetParameters(): void {
    const bound = this.in1Features > 0 ? 1 / Math.sqrt(this.in1Features) : 0;
    uniform_(this.weight, -bound, bound);
    if (this.bias !== null) uniform_(this.bias, -bound, bound);
  }

  override forward(input1: Tensor, input2: Tensor): Tensor {
    return this.bias === null ? bilinear(input1, input2, this.weight) : bilinear(input1, input2, this.weight, this.bias);
  }

  override extraRepr(): string {
    return `in1Features=${this.in1Features}, in2Features=${this.in2Features}, outFeatures=${this.outFeatures}, bias=${this.bias !== null}`;
  }
}
