/**
 * @file MultiheadAttention, TransformerEncoderLayer and TransformerEncoder, with PyTorch's parameter
 * layout and state-dict keys (in_proj_weight [3E, E], out_proj, self_attn, linear1, norm1, …) and its
 * initialisation (xavier-uniform in-projection, zero biases).
 */
import { empty, ones, zeros } from "../../ops/creation/filled.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { constant_, xavierUniform_ } from "../init.js";
import { Module, Parameter } from "../module.js";
import { Dropout, LayerNorm } from "./basic.js";
import { ModuleList } from "./containers.js";
import { Linear } from "./linear.js";
import { factory, type FactoryOptions, layerOptions } from "./options.js";

export interface MultiheadAttentionOptions extends FactoryOptions {
  dropout?: number;
  bias?: boolean;
  /** Inputs are [batch, seq, embed] instead of [seq, batch, embed]. */
  batchFirst?: boolean;
}

export interface AttentionCallOptions {
  /** [L, S] (or [N·heads, L, S]): true where attention is not allowed, or a float added to the scores. */
  attnMask?: Tensor;
  /** [N, S]: true for keys to ignore (padding). */
  keyPaddingMask?: Tensor;
  /** Return the attention weights (default true, as in PyTorch). */
  needWeights?: boolean;
  /** Average the weights over heads (default true). */
  averageAttnWeights?: boolean;
  /** A causal mask when attnMask is not given. */
  isCausal?: boolean;
}

/** Multi-head attention: `[output, weights | null]`, as PyTorch's nn.MultiheadAttention returns. */
export class MultiheadAttention extends Module {
  readonly embedDim: number;
  readonly numHeads: number;
  readonly dropout: number;
  readonly batchFirst: boolean;
  // snake_case so that the state-dict keys are PyTorch's (in_proj_weight)
  in_proj_weight: Parameter;
  in_proj_bias: Parameter | null;
  outProj: Linear;

  constructor(embedDim: number, numHeads: number, options?: MultiheadAttentionOptions) {
    super();
    const o = layerOptions<MultiheadAttentionOptions>("MultiheadAttention", options, ["dropout", "bias", "batchFirst", "device", "dtype"]);
    if (!Number.isInteger(numHeads) || numHeads < 1 || embedDim % numHeads !== 0) {
      throw new ArgumentError(`MultiheadAttention: embedDim (${embedDim}) must be divisible by numHeads (${String(numHeads)})`);
    }
    this.embedDim = embedDim;
    this.numHeads = numHeads;
    this.dropout = o.dropout ?? 0;
    this.batchFirst = o.batchFirst ?? false;
    this.in_proj_weight = new Parameter(empty([3 * embedDim, embedDim], factory(o)));
    this.in_proj_bias = o.bias === false ? null : new Parameter(zeros([3 * embedDim], factory(o)));
    this.outProj = new Linear(embedDim, embedDim, { bias: o.bias ?? true, ...factory(o) });
    xavierUniform_(this.in_proj_weight);
    if (this.outProj.bias) constant_(this.outProj.bias, 0);
  }

  override forward(query: Tensor, key: Tensor, value: Tensor, options: AttentionCallOptions = {}): [Tensor, Tensor | null] {
    const o = layerOptions<AttentionCallOptions>("MultiheadAttention.forward", options, ["attnMask", "keyPaddingMask", "needWeights", "averageAttnWeights", "isCausal"]);
    const [q0, k0, v0] = this.batchFirst ? [query, key, value] : [query.transpose(0, 1), key.transpose(0, 1), value.transpose(0, 1)];
    if (q0.ndim !== 3 || k0.ndim !== 3 || v0.ndim !== 3 || q0.shape[2] !== this.embedDim) {
      throw new ShapeError(`MultiheadAttention: expected 3-d query, key and value with embedDim ${this.embedDim}, got [${query.shape.join(", ")}], [${key.shape.join(", ")}], [${value.shape.join(", ")}]`);
    }
    const [n, l] = q0.shape as [number, number, number];
    const s = k0.shape[1]!;
    const e = this.embedDim;
    const h = this.numHeads;
    const d = e / h;
    const project = (x: Tensor, part: number): Tensor => {
      const w = this.in_proj_weight.narrow(0, part * e, e);
      const b = this.in_proj_bias?.narrow(0, part * e, e);
      return F.linear(x, w, b === undefined ? {} : { bias: b });
    };
    const heads = (x: Tensor, len: number): Tensor => x.reshape([n, len, h, d]).transpose(1, 2); // [N, H, len, D]
    const q = heads(project(q0, 0), l);
    const k = heads(project(k0, 1), s);
    const v = heads(project(v0, 2), s);
    let scores = q.matmul(k.transpose(-2, -1)).mul(1 / Math.sqrt(d)); // [N, H, L, S]
    const mask = o.attnMask ?? (o.isCausal ? torchCausal(l, s, q) : undefined);
    if (mask !== undefined) {
      const shaped = mask.ndim === 3 ? mask.reshape([n, h, l, s]) : mask;
      scores = shaped.dtype === "bool" ? scores.maskedFill(shaped, -Infinity) : scores.add(shaped);
    }
    if (o.keyPaddingMask !== undefined) {
      const pad = o.keyPaddingMask.reshape([n, 1, 1, s]);
      scores = pad.dtype === "bool" ? scores.maskedFill(pad, -Infinity) : scores.add(pad);
    }
    let weights = F.softmax(scores, -1);
    const attended = (this.dropout > 0 && this.training ? F.dropout(weights, this.dropout, true) : weights).matmul(v); // [N, H, L, D]
    const merged = attended.transpose(1, 2).reshape([n, l, e]);
    const out = this.outProj.forward(merged);
    if (!(o.needWeights ?? true)) return [this.batchFirst ? out : out.transpose(0, 1), null];
    if (o.averageAttnWeights ?? true) weights = weights.mean(1);
    return [this.batchFirst ? out : out.transpose(0, 1), weights];
  }
}

/** A bool mask that hides the future: true above the diagonal. */
function torchCausal(l: number, s: number, like: Tensor): Tensor {
  return ones([l, s], { dtype: "bool", device: like.device }).triu(1);
}

/** A transformer block's feed-forward activation: PyTorch's "relu" or "gelu", or any function of a tensor. */
export type TransformerActivation = "relu" | "gelu" | ((x: Tensor) => Tensor);

/** The function an activation option names (relu by default). */
export function activationFn(activation: TransformerActivation | undefined, layer: string): (x: Tensor) => Tensor {
  if (activation === undefined || activation === "relu") return (x) => F.relu(x);
  if (activation === "gelu") return (x) => F.gelu(x);
  if (typeof activation === "function") return activation;
  throw new ArgumentError(`${layer}: activation should be "relu", "gelu" or a function, got ${String(activation)}`);
}

/** MultiheadAttention's call options inside a transformer block: a mask, key padding, a causal mask when no mask is given; no weights. */
export function blockAttention(mask: Tensor | undefined, keyPaddingMask: Tensor | undefined, isCausal: boolean | undefined): AttentionCallOptions {
  return {
    needWeights: false,
    ...(mask ? { attnMask: mask } : {}), ...(keyPaddingMask ? { keyPaddingMask } : {}),
    ...(isCausal && !mask ? { isCausal: true } : {}),
  };
}

export interface TransformerEncoderLayerOptions extends FactoryOptions {
  dimFeedforward?: number;
  dropout?: number;
  activation?: TransformerActivation;
  layerNormEps?: number;
  batchFirst?: boolean;
  normFirst?: boolean;
  bias?: boolean;
}

/** Self-attention then a feed-forward block, each with a residual and a LayerNorm (post-norm unless normFirst). */
export class TransformerEncoderLayer extends Module {
  readonly dModel: number;
  readonly nhead: number;
  readonly config: TransformerEncoderLayerOptions;
  selfAttn: MultiheadAttention;
  linear1: Linear;
  dropout: Dropout;
  linear2: Linear;
  norm1: LayerNorm;
  norm2: LayerNorm;
  dropout1: Dropout;
  dropout2: Dropout;

  constructor(dModel: number, nhead: number, options?: TransformerEncoderLayerOptions) {
    super();
    const o = layerOptions<TransformerEncoderLayerOptions>("TransformerEncoderLayer", options, ["dimFeedforward", "dropout", "activation", "layerNormEps", "batchFirst", "normFirst", "bias", "device", "dtype"]);
    activationFn(o.activation, "TransformerEncoderLayer");
    this.dModel = dModel;
    this.nhead = nhead;
    this.config = { ...o };
    const p = o.dropout ?? 0.1;
    const bias = o.bias ?? true;
    const ff = o.dimFeedforward ?? 2048;
    this.selfAttn = new MultiheadAttention(dModel, nhead, { dropout: p, bias, batchFirst: o.batchFirst ?? false, ...factory(o) });
    this.linear1 = new Linear(dModel, ff, { bias, ...factory(o) });
    this.dropout = new Dropout(p);
    this.linear2 = new Linear(ff, dModel, { bias, ...factory(o) });
    this.norm1 = new LayerNorm(dModel, { eps: o.layerNormEps ?? 1e-5, bias, ...factory(o) });
    this.norm2 = new LayerNorm(dModel, { eps: o.layerNormEps ?? 1e-5, bias, ...factory(o) });
    this.dropout1 = new Dropout(p);
    this.dropout2 = new Dropout(p);
  }

  override forward(src: Tensor, options: { srcMask?: Tensor; srcKeyPaddingMask?: Tensor; isCausal?: boolean } = {}): Tensor {
    const o = layerOptions("TransformerEncoderLayer.forward", options, ["srcMask", "srcKeyPaddingMask", "isCausal"]);
    const attend = (x: Tensor): Tensor => this.dropout1.forward(this.selfAttn.forward(x, x, x, blockAttention(o.srcMask, o.srcKeyPaddingMask, o.isCausal))[0]);
    const act = activationFn(this.config.activation, "TransformerEncoderLayer");
    const feed = (x: Tensor): Tensor => this.dropout2.forward(this.linear2.forward(this.dropout.forward(act(this.linear1.forward(x)))));
    if (this.config.normFirst) {
      const h = src.add(attend(this.norm1.forward(src)));
      return h.add(feed(this.norm2.forward(h)));
    }
    const h = this.norm1.forward(src.add(attend(src)));
    return this.norm2.forward(h.add(feed(h)));
  }
}

/** `numLayers` copies of an encoder layer (same configuration and starting weights), applied in order. */
export class TransformerEncoder extends Module {
  layers: ModuleList;
  norm: LayerNorm | null;

  constructor(encoderLayer: TransformerEncoderLayer, numLayers: number, options: { norm?: LayerNorm } = {}) {
    super();
    const copies = Array.from({ length: numLayers }, () => {
      const copy = new TransformerEncoderLayer(encoderLayer.dModel, encoderLayer.nhead, encoderLayer.config);
      copy.loadStateDict(encoderLayer.stateDict());
      return copy;
    });
    this.layers = new ModuleList(copies);
    this.norm = options.norm ?? null;
  }

  override forward(src: Tensor, options: { mask?: Tensor; srcKeyPaddingMask?: Tensor; isCausal?: boolean } = {}): Tensor {
    const o = layerOptions("TransformerEncoder.forward", options, ["mask", "srcKeyPaddingMask", "isCausal"]);
    let h = src;
    for (const layer of this.layers.children()) {
      h = (layer as TransformerEncoderLayer).forward(h, {
        ...(o.mask ? { srcMask: o.mask } : {}), ...(o.srcKeyPaddingMask ? { srcKeyPaddingMask: o.srcKeyPaddingMask } : {}), ...(o.isCausal ? { isCausal: true } : {}),
      });
    }
    return this.norm ? this.norm.forward(h) : h;
  }
}
