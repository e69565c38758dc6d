/**
 * @file Recurrent layers with PyTorch's semantics: RNN (tanh or relu), LSTM (with projSize) and GRU,
 * multi-layer and bidirectional, and their single-step cells RNNCell, LSTMCell and GRUCell.
 *
 * Parameters have PyTorch's names, shapes, gate order (LSTM i, f, g, o; GRU r, z, n) and order, so
 * stateDict keys are PyTorch's (`weight_ih_l0`, `weight_hh_l0`, `bias_ih_l0`, `bias_hh_l0`,
 * `weight_hr_l0`, `…_reverse`), and every parameter starts uniform in ±1/√hiddenSize as PyTorch's do.
 *
 * The sequence runs in eager as a loop over time steps, each a handful of ops that autograd records:
 * the input projection of a whole layer is one linear over the sequence, then each step adds the
 * hidden projection and applies the gates. Intermediates are freed when the call returns (or when
 * backward has used them).
 */
import { tidy } from "../../memory.js";
import { empty, zeros } from "../../ops/creation/filled.js";
import { cat, stack } from "../../ops/shape/joining.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { uniform_ } from "../init.js";
import { Module, Parameter } from "../module.js";
import { factory, type FactoryOptions, layerOptions } from "./options.js";

type Mode = "RNN_TANH" | "RNN_RELU" | "LSTM" | "GRU";

/** Gates per mode: the height of weight_ih is gates · hiddenSize. */
const gateCount: Record<Mode, number> = { RNN_TANH: 1, RNN_RELU: 1, LSTM: 4, GRU: 3 };

const fmt = (shape: readonly number[]): string => `[${shape.join(", ")}]`;

function describe(v: unknown): string {
  if (v instanceof Tensor) return `a tensor ${fmt(v.shape)}`;
  if (Array.isArray(v)) return `an array of ${v.length}`;
  return v === null ? "null" : typeof v;
}

function checkSize(layer: string, name: string, n: unknown, min: number): asserts n is number {
  if (typeof n !== "number" || !Number.isInteger(n) || n < min) {
    throw new ArgumentError(`${layer}: ${name} must be an integer ≥ ${min}, got ${typeof n === "number" ? n : describe(n)}`);
  }
}

function checkBool(layer: string, name: string, v: unknown): void {
  if (v !== undefined && typeof v !== "boolean") throw new ArgumentError(`${layer}: ${name} must be true or false, got ${describe(v)}`);
}

function checkNonlinearity(layer: string, v: unknown): "tanh" | "relu" {
  if (v === undefined) return "tanh";
  if (v !== "tanh" && v !== "relu") throw new ArgumentError(`${layer}: unknown nonlinearity ${JSON.stringify(v)}; use "tanh" or "relu"`);
  return v;
}

/** The input's dtype must be floating and the parameters'. */
function checkDtype(layer: string, what: string, x: Tensor, param: Tensor): void {
  if (x.dtype !== param.dtype) {
    throw new DTypeError(`${layer}: ${what} is ${x.dtype} but the parameters are ${param.dtype}; convert it with .to("${param.dtype}") or the layer with .to("${x.dtype}")`);
  }
}

/** One step of a cell: the new hidden state (and cell state for LSTM) from the projected input `xi`. */
interface StepWeights {
  mode: Mode;
  weightHh: Tensor;
  /** Added inside the GRU's reset gate; for the other modes folded into `xi`. */
  biasHh: Tensor | null;
  weightHr: Tensor | null;
}

/**
 * `xi` is the input projection W_ih·x + b_ih (plus b_hh for RNN and LSTM), [batch, gates·hidden].
 * Returns the new h (and c for LSTM).
 */
function step(w: StepWeights, xi: Tensor, h: Tensor, c: Tensor | null): [Tensor, Tensor | null] {
  switch (w.mode) {
    case "RNN_TANH":
      return [xi.add(F.linear(h, w.weightHh)).tanh(), null];
    case "RNN_RELU":
      return [F.relu(xi.add(F.linear(h, w.weightHh))), null];
    case "LSTM": {
      const [i, f, g, o] = xi.add(F.linear(h, w.weightHh)).chunk(4, 1) as [Tensor, Tensor, Tensor, Tensor];
      const c2 = f.sigmoid().mul(c!).add(i.sigmoid().mul(g.tanh()));
      const h2 = o.sigmoid().mul(c2.tanh());
      return [w.weightHr ? F.linear(h2, w.weightHr) : h2, c2];
    }
    case "GRU": {
      const hh = w.biasHh ? F.linear(h, w.weightHh, w.biasHh) : F.linear(h, w.weightHh);
      const [xr, xz, xn] = xi.chunk(3, 1) as [Tensor, Tensor, Tensor];
      const [hr, hz, hn] = hh.chunk(3, 1) as [Tensor, Tensor, Tensor];
      const r = xr.add(hr).sigmoid();
      const z = xz.add(hz).sigmoid();
      const n = xn.add(r.mul(hn)).tanh();
      return [n.add(z.mul(h.sub(n))), null]; // (1 − z)·n + z·h
    }
  }
}

export interface RNNBaseOptions extends FactoryOptions {
  /** Stacked layers (default 1); each takes the previous one's output sequence. */
  numLayers?: number;
  /** Both bias vectors per layer and direction (default true). */
  bias?: boolean;
  /** Input and output are [batch, seq, feature] instead of [seq, batch, feature]; the states are not affected. */
  batchFirst?: boolean;
  /** Dropout on each layer's output but the last, in training mode (default 0). */
  dropout?: number;
  /** A second pass over the reversed sequence per layer; outputs are concatenated (default false). */
  bidirectional?: boolean;
}

export interface RNNOptions extends RNNBaseOptions {
  nonlinearity?: "tanh" | "relu";
}

export interface LSTMOptions extends RNNBaseOptions {
  /** When > 0, h is projected to projSize features by weight_hr (PyTorch's LSTM with projections). */
  projSize?: number;
}

export type GRUOptions = RNNBaseOptions;

const baseKeys = ["numLayers", "bias", "batchFirst", "dropout", "bidirectional", "device", "dtype"] as const;

/** The shared machinery of RNN, LSTM and GRU: parameters per layer and direction, the time loop. */
export abstract class RNNBase extends Module {
  readonly mode: Mode;
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly numLayers: number;
  readonly bias: boolean;
  readonly batchFirst: boolean;
  readonly dropout: number;
  readonly bidirectional: boolean;
  readonly projSize: number;

  protected constructor(layer: string, mode: Mode, inputSize: number, hiddenSize: number, o: Partial<LSTMOptions>) {
    super();
    checkSize(layer, "inputSize", inputSize, 0);
    checkSize(layer, "hiddenSize", hiddenSize, 1);
    const numLayers = o.numLayers ?? 1;
    checkSize(layer, "numLayers", numLayers, 1);
    const dropout = o.dropout ?? 0;
    if (typeof dropout !== "number" || !(dropout >= 0 && dropout <= 1)) {
      throw new ArgumentError(`${layer}: dropout must be a number in [0, 1] (the probability of zeroing an element), got ${typeof dropout === "number" ? dropout : describe(dropout)}`);
    }
    const projSize = o.projSize ?? 0;
    checkSize(layer, "projSize", projSize, 0);
    if (projSize >= hiddenSize) throw new ArgumentError(`${layer}: projSize (${projSize}) must be smaller than hiddenSize (${hiddenSize})`);
    for (const k of ["bias", "batchFirst", "bidirectional"] as const) checkBool(layer, k, o[k]);
    this.mode = mode;
    this.inputSize = inputSize;
    this.hiddenSize = hiddenSize;
    this.numLayers = numLayers;
    this.bias = o.bias ?? true;
    this.batchFirst = o.batchFirst ?? false;
    this.dropout = dropout;
    this.bidirectional = o.bidirectional ?? false;
    this.projSize = projSize;
    const gates = gateCount[mode] * hiddenSize;
    const out = projSize > 0 ? projSize : hiddenSize;
    const dirs = this.bidirectional ? 2 : 1;
    for (let l = 0; l < numLayers; l++) {
      for (let d = 0; d < dirs; d++) {
        const sfx = `_l${l}${d === 1 ? "_reverse" : ""}`;
        const make = (name: string, shape: number[]): void => this.registerParameter(name + sfx, new Parameter(empty(shape, factory(o))));
        make("weight_ih", [gates, l === 0 ? inputSize : out * dirs]);
        make("weight_hh", [gates, out]);
        if (this.bias) {
          make("bias_ih", [gates]);
          make("bias_hh", [gates]);
        }
        if (projSize > 0) make("weight_hr", [projSize, hiddenSize]);
      }
    }
    this.resetParameters();
  }

  /** PyTorch's initialisation, drawn again: every parameter uniform in ±1/√hiddenSize. */
  resetParameters(): void {
    const bound = 1 / Math.sqrt(this.hiddenSize);
    for (const p of this.parameters()) uniform_(p, -bound, bound);
  }

  /** A no-op, for code written for cuDNN (PyTorch's `flatten_parameters`). */
  flattenParameters(): void {}

  /** The parameters per layer and direction, in PyTorch's order (`all_weights`). */
  get allWeights(): Parameter[][] {
    const own = this as unknown as Record<string, Parameter | undefined>;
    const names = ["weight_ih", "weight_hh", ...(this.bias ? ["bias_ih", "bias_hh"] : []), ...(this.projSize > 0 ? ["weight_hr"] : [])];
    const out: Parameter[][] = [];
    for (let l = 0; l < this.numLayers; l++) {
      for (let d = 0; d < (this.bidirectional ? 2 : 1); d++) out.push(names.map((n) => own[`${n}_l${l}${d === 1 ? "_reverse" : ""}`]!));
    }
    return out;
  }

  private param(name: string, layer: number, reverse: boolean): Parameter | null {
    return (this as unknown as Record<string, Parameter | undefined>)[`${name}_l${layer}${reverse ? "_reverse" : ""}`] ?? null;
  }

  /**
   * Runs the layers over `input`; `states` are the initial [h_0] or [h_0, c_0] (or undefined for
   * zeros). Returns the output sequence and the final states in the same form.
   */
  protected runSequence(input: unknown, states: unknown[] | undefined): [Tensor, Tensor[]] {
    const layer = this.constructor.name;
    const lstm = this.mode === "LSTM";
    const dirs = this.bidirectional ? 2 : 1;
    const out = this.projSize > 0 ? this.projSize : this.hiddenSize;
    if (!(input instanceof Tensor)) throw new ArgumentError(`${layer}: input must be a Tensor, got ${describe(input)}`);
    const what = this.batchFirst ? "[batch, seq, inputSize]" : "[seq, batch, inputSize]";
    if (input.ndim !== 2 && input.ndim !== 3) {
      throw new ShapeError(`${layer}: expected a 3-d input ${what} or a 2-d unbatched input [seq, inputSize], got ${fmt(input.shape)}`);
    }
    const w0 = this.param("weight_ih", 0, false)!;
    checkDtype(layer, "input", input, w0);
    if (input.shape[input.ndim - 1] !== this.inputSize) {
      throw new ShapeError(`${layer}: input ${fmt(input.shape)} has ${input.shape[input.ndim - 1]} features in its last dim, but the layer was built with inputSize ${this.inputSize}; the input is ${input.ndim === 3 ? what : "[seq, inputSize]"}`);
    }
    const batched = input.ndim === 3;
    const timeDim = batched && this.batchFirst ? 1 : 0;
    const seq = input.shape[timeDim]!;
    const batch = batched ? input.shape[1 - timeDim]! : 1;
    if (seq === 0) throw new ShapeError(`${layer}: the input ${fmt(input.shape)} has an empty sequence; expected sequence length > 0`);
    const stateNames = lstm ? ["h_0", "c_0"] : ["h_0"];
    const stateSizes = lstm ? [out, this.hiddenSize] : [out];
    if (states !== undefined) {
      states.forEach((s, k) => {
        const want = batched ? [this.numLayers * dirs, batch, stateSizes[k]!] : [this.numLayers * dirs, stateSizes[k]!];
        const sizeName = k === 0 && this.projSize > 0 ? "projSize" : "hiddenSize";
        const form = batched ? `[numLayers·directions, batch, ${sizeName}]` : `[numLayers·directions, ${sizeName}] for an unbatched input`;
        if (!(s instanceof Tensor)) throw new ArgumentError(`${layer}: ${stateNames[k]} must be a Tensor ${form}, got ${describe(s)}`);
        if (s.shape.length !== want.length || s.shape.some((n, i) => n !== want[i])) {
          throw new ShapeError(`${layer}: expected ${stateNames[k]} of shape ${fmt(want)} ${form}, got ${fmt(s.shape)}`);
        }
        checkDtype(layer, stateNames[k]!, s, w0);
      });
    }
    return tidy(() => {
      let x = batched ? input : input.unsqueeze(1);
      const initial = states?.map((s) => (batched ? (s as Tensor) : (s as Tensor).unsqueeze(1)).unbind(0));
      const finals: Tensor[][] = stateNames.map(() => []);
      const zeroState = (size: number): Tensor => zeros([batch, size], { dtype: input.dtype, device: input.device });
      for (let l = 0; l < this.numLayers; l++) {
        const outs: Tensor[] = [];
        for (let d = 0; d < dirs; d++) {
          const idx = l * dirs + d;
          const h0 = initial ? initial[0]![idx]! : zeroState(out);
          const c0 = lstm ? (initial ? initial[1]![idx]! : zeroState(this.hiddenSize)) : null;
          const [y, h, c] = this.direction(x, timeDim, l, d === 1, h0, c0);
          outs.push(y);
          finals[0]!.push(h);
          if (lstm) finals[1]!.push(c!);
        }
        x = dirs === 1 ? outs[0]! : cat(outs, 2);
        if (this.dropout > 0 && this.training && l < this.numLayers - 1) x = F.dropout(x, this.dropout, true);
      }
      const output = batched ? x : x.squeeze(1);
      return [output, finals.map((f) => (batched ? stack(f, 0) : stack(f, 0).squeeze(1)))] as [Tensor, Tensor[]];
    });
  }

  /** One layer in one direction over the whole sequence: [outputs, h_n, c_n]. */
  private direction(x: Tensor, timeDim: number, l: number, reverse: boolean, h0: Tensor, c0: Tensor | null): [Tensor, Tensor, Tensor | null] {
    const weightIh = this.param("weight_ih", l, reverse)!;
    const biasIh = this.param("bias_ih", l, reverse);
    const biasHh = this.param("bias_hh", l, reverse);
    let xi = biasIh ? F.linear(x, weightIh, biasIh) : F.linear(x, weightIh);
    const gru = this.mode === "GRU";
    if (biasHh && !gru) xi = xi.add(biasHh);
    const w: StepWeights = { mode: this.mode, weightHh: this.param("weight_hh", l, reverse)!, biasHh: gru ? biasHh : null, weightHr: this.param("weight_hr", l, reverse) };
    const steps = xi.unbind(timeDim);
    const ys: Tensor[] = new Array<Tensor>(steps.length);
    let h = h0;
    let c = c0;
    for (let k = 0; k < steps.length; k++) {
      const t = reverse ? steps.length - 1 - k : k;
      [h, c] = step(w, steps[t]!, h, c);
      ys[t] = h;
    }
    return [stack(ys, timeDim), h, c];
  }

  override extraRepr(): string {
    const parts = [`${this.inputSize}, ${this.hiddenSize}`];
    if (this.projSize > 0) parts.push(`projSize=${this.projSize}`);
    if (this.numLayers !== 1) parts.push(`numLayers=${this.numLayers}`);
    if (!this.bias) parts.push("bias=false");
    if (this.batchFirst) parts.push("batchFirst=true");
    if (this.dropout !== 0) parts.push(`dropout=${this.dropout}`);
    if (this.bidirectional) parts.push("bidirectional=true");
    if (this.mode === "RNN_RELU") parts.push("nonlinearity=relu");
    return parts.join(", ");
  }
}

/** `(numLayers | options)` as the third argument, options as the fourth after a number. */
function rnnArgs<T extends RNNBaseOptions>(layer: string, numLayersOrOptions: number | T | undefined, options: T | undefined): T | undefined {
  if (typeof numLayersOrOptions === "number") {
    if (options === undefined) return { numLayers: numLayersOrOptions } as T;
    if (options === null || typeof options !== "object" || Array.isArray(options)) return options; // layerOptions says what options must be
    if ("numLayers" in options) throw new ArgumentError(`${layer}: numLayers is given twice, as the third argument and in the options`);
    return { ...options, numLayers: numLayersOrOptions };
  }
  if (options !== undefined) throw new ArgumentError(`${layer}: options come third, or fourth after numLayers; got ${describe(numLayersOrOptions)} and then options`);
  return numLayersOrOptions;
}

/**
 * Elman RNN: h_t = tanh(W_ih x_t + b_ih + W_hh h_{t−1} + b_hh) (or relu). `forward(input, h0?)` →
 * `[output, h_n]`; input [seq, batch, inputSize] ([batch, seq, inputSize] with batchFirst) or
 * unbatched [seq, inputSize]; h0 and h_n [numLayers·directions, batch, hiddenSize].
 */
export class RNN extends RNNBase {
  readonly nonlinearity: "tanh" | "relu";
  constructor(inputSize: number, hiddenSize: number, numLayersOrOptions?: number | RNNOptions, options?: RNNOptions) {
    const o = layerOptions<RNNOptions>("RNN", rnnArgs("RNN", numLayersOrOptions, options), [...baseKeys, "nonlinearity"]);
    const nonlinearity = checkNonlinearity("RNN", o.nonlinearity);
    super("RNN", nonlinearity === "relu" ? "RNN_RELU" : "RNN_TANH", inputSize, hiddenSize, o);
    this.nonlinearity = nonlinearity;
  }

  override forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor] {
    const [output, [h]] = this.runSequence(input, hx == null ? undefined : [hx]);
    return [output, h!];
  }
}

/**
 * LSTM: gates i, f, g, o from W_ih x_t + b_ih + W_hh h_{t−1} + b_hh; c_t = σ(f)·c_{t−1} + σ(i)·tanh(g),
 * h_t = σ(o)·tanh(c_t) (projected by weight_hr when projSize > 0). `forward(input, [h0, c0]?)` →
 * `[output, [h_n, c_n]]`, PyTorch's shapes.
 */
export class LSTM extends RNNBase {
  constructor(inputSize: number, hiddenSize: number, numLayersOrOptions?: number | LSTMOptions, options?: LSTMOptions) {
    super("LSTM", "LSTM", inputSize, hiddenSize, layerOptions<LSTMOptions>("LSTM", rnnArgs("LSTM", numLayersOrOptions, options), [...baseKeys, "projSize"]));
  }

  override forward(input: Tensor, hx?: readonly [Tensor, Tensor] | null): [Tensor, [Tensor, Tensor]] {
    if (hx != null && (!Array.isArray(hx) || hx.length !== 2)) throw new ArgumentError(`LSTM: hx must be a pair [h_0, c_0] of tensors, got ${describe(hx)}`);
    const [output, [h, c]] = this.runSequence(input, hx == null ? undefined : [...hx]);
    return [output, [h!, c!]];
  }
}

/**
 * GRU: gates r, z from W_ih x_t + b_ih + W_hh h_{t−1} + b_hh, n = tanh(W_in x_t + b_in + r·(W_hn h_{t−1} + b_hn)),
 * h_t = (1 − z)·n + z·h_{t−1}. `forward(input, h0?)` → `[output, h_n]`, PyTorch's shapes.
 */
export class GRU extends RNNBase {
  constructor(inputSize: number, hiddenSize: number, numLayersOrOptions?: number | GRUOptions, options?: GRUOptions) {
    super("GRU", "GRU", inputSize, hiddenSize, layerOptions<GRUOptions>("GRU", rnnArgs("GRU", numLayersOrOptions, options), [...baseKeys]));
  }

  override forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor] {
    const [output, [h]] = this.runSequence(input, hx == null ? undefined : [hx]);
    return [output, h!];
  }
}

export interface RNNCellOptions extends FactoryOptions {
  bias?: boolean;
  nonlinearity?: "tanh" | "relu";
}

export interface CellOptions extends FactoryOptions {
  bias?: boolean;
}

/** The shared part of the cells: weight_ih, weight_hh, bias_ih, bias_hh and the checks of one step. */
export abstract class RNNCellBase extends Module {
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly bias: boolean;
  weight_ih: Parameter;
  weight_hh: Parameter;
  bias_ih: Parameter | null;
  bias_hh: Parameter | null;
  protected readonly mode: Mode;

  protected constructor(layer: string, mode: Mode, inputSize: number, hiddenSize: number, o: Partial<CellOptions>) {
    super();
    checkSize(layer, "inputSize", inputSize, 0);
    checkSize(layer, "hiddenSize", hiddenSize, 1);
    checkBool(layer, "bias", o.bias);
    this.inputSize = inputSize;
    this.hiddenSize = hiddenSize;
    this.bias = o.bias ?? true;
    this.mode = mode;
    const gates = gateCount[mode] * hiddenSize;
    this.weight_ih = new Parameter(empty([gates, inputSize], factory(o)));
    this.weight_hh = new Parameter(empty([gates, hiddenSize], factory(o)));
    this.bias_ih = this.bias ? new Parameter(empty([gates], factory(o))) : null;
    this.bias_hh = this.bias ? new Parameter(empty([gates], factory(o))) : null;
    this.resetParameters();
  }

  /** PyTorch's initialisation, drawn again: every parameter uniform in ±1/√hiddenSize. */
  resetParameters(): void {
    const bound = 1 / Math.sqrt(this.hiddenSize);
    for (const p of this.parameters()) uniform_(p, -bound, bound);
  }

  /** One step from `input` [batch, inputSize] or [inputSize] and the states (undefined: zeros). */
  protected runStep(input: unknown, states: unknown[] | undefined): Tensor[] {
    const layer = this.constructor.name;
    const lstm = this.mode === "LSTM";
    if (!(input instanceof Tensor)) throw new ArgumentError(`${layer}: input must be a Tensor, got ${describe(input)}`);
    if (input.ndim !== 1 && input.ndim !== 2) throw new ShapeError(`${layer}: expected input [batch, inputSize] or unbatched [inputSize], got ${fmt(input.shape)}`);
    checkDtype(layer, "input", input, this.weight_ih);
    if (input.shape[input.ndim - 1] !== this.inputSize) {
      throw new ShapeError(`${layer}: input ${fmt(input.shape)} has ${input.shape[input.ndim - 1]} features in its last dim, but the cell was built with inputSize ${this.inputSize}`);
    }
    const batched = input.ndim === 2;
    const names = lstm ? ["h", "c"] : ["hx"];
    if (states !== undefined) {
      const want = batched ? [input.shape[0]!, this.hiddenSize] : [this.hiddenSize];
      states.forEach((s, k) => {
        const form = batched ? "[batch, hiddenSize]" : "[hiddenSize] for an unbatched input";
        if (!(s instanceof Tensor)) throw new ArgumentError(`${layer}: ${names[k]} must be a Tensor ${form}, got ${describe(s)}`);
        if (s.shape.length !== want.length || s.shape.some((n, i) => n !== want[i])) {
          throw new ShapeError(`${layer}: expected ${names[k]} of shape ${fmt(want)} ${form}, got ${fmt(s.shape)}`);
        }
        checkDtype(layer, names[k]!, s, this.weight_ih);
      });
    }
    return tidy(() => {
      const x = batched ? input : input.unsqueeze(0);
      const batch = x.shape[0]!;
      const given = states?.map((s) => (batched ? (s as Tensor) : (s as Tensor).unsqueeze(0)));
      const h0 = given ? given[0]! : zeros([batch, this.hiddenSize], { dtype: input.dtype, device: input.device });
      const c0 = lstm ? (given ? given[1]! : zeros([batch, this.hiddenSize], { dtype: input.dtype, device: input.device })) : null;
      let xi = this.bias_ih ? F.linear(x, this.weight_ih, this.bias_ih) : F.linear(x, this.weight_ih);
      if (this.bias_hh && this.mode !== "GRU") xi = xi.add(this.bias_hh);
      const w: StepWeights = { mode: this.mode, weightHh: this.weight_hh, biasHh: this.mode === "GRU" ? this.bias_hh : null, weightHr: null };
      const [h, c] = step(w, xi, h0, c0);
      const result = lstm ? [h, c!] : [h];
      return batched ? result : result.map((t) => t.squeeze(0));
    });
  }

  override extraRepr(): string {
    return `${this.inputSize}, ${this.hiddenSize}${this.bias ? "" : ", bias=false"}${this.mode === "RNN_RELU" ? ", nonlinearity=relu" : ""}`;
  }
}

/** Cells take `(inputSize, hiddenSize, bias)` or `(inputSize, hiddenSize, options)`. */
const cellArgs = <T extends CellOptions>(options: T | boolean | undefined): T | undefined => (typeof options === "boolean" ? ({ bias: options } as T) : options);

/** One Elman RNN step: h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu). `forward(input, hx?)` → h'. */
export class RNNCell extends RNNCellBase {
  readonly nonlinearity: "tanh" | "relu";
  constructor(inputSize: number, hiddenSize: number, options?: RNNCellOptions | boolean) {
    const o = layerOptions<RNNCellOptions>("RNNCell", cellArgs(options), ["bias", "nonlinearity", "device", "dtype"]);
    const nonlinearity = checkNonlinearity("RNNCell", o.nonlinearity);
    super("RNNCell", nonlinearity === "relu" ? "RNN_RELU" : "RNN_TANH", inputSize, hiddenSize, o);
    this.nonlinearity = nonlinearity;
  }

  override forward(input: Tensor, hx?: Tensor | null): Tensor {
    return this.runStep(input, hx == null ? undefined : [hx])[0]!;
  }
}

/** One LSTM step: `forward(input, [h, c]?)` → `[h', c']`. */
export class LSTMCell extends RNNCellBase {
  constructor(inputSize: number, hiddenSize: number, options?: CellOptions | boolean) {
    super("LSTMCell", "LSTM", inputSize, hiddenSize, layerOptions<CellOptions>("LSTMCell", cellArgs(options), ["bias", "device", "dtype"]));
  }

  override forward(input: Tensor, hx?: readonly [Tensor, Tensor] | null): [Tensor, Tensor] {
    if (hx != null && (!Array.isArray(hx) || hx.length !== 2)) throw new ArgumentError(`LSTMCell: hx must be a pair [h, c] of tensors, got ${describe(hx)}`);
    const [h, c] = this.runStep(input, hx == null ? undefined : [...hx]);
    return [h!, c!];
  }
}

/** One GRU step: `forward(input, hx?)` → h'. */
export class GRUCell extends RNNCellBase {
  constructor(inputSize: number, hiddenSize: number, options?: CellOptions | boolean) {
    super("GRUCell", "GRU", inputSize, hiddenSize, layerOptions<CellOptions>("GRUCell", cellArgs(options), ["bias", "device", "dtype"]));
  }

  override forward(input: Tensor, hx?: Tensor | null): Tensor {
    return this.runStep(input, hx == null ? undefined : [hx])[0]!;
  }
}
