/**
 * @file TransformerDecoderLayer, TransformerDecoder and Transformer (encoder + decoder), with
 * PyTorch's submodules and state-dict keys (self_attn, multihead_attn, linear1, norm1..3;
 * encoder.layers.0…, decoder.norm) and its defaults. The blocks reuse MultiheadAttention and the
 * encoder layer's activation and attention options (./transformer.ts).
 */
import { full } from "../../ops/creation/filled.js";
import type { DType } from "../../dtype.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { xavierUniform_ } from "../init.js";
import { Module } from "../module.js";
import { Dropout, LayerNorm } from "./basic.js";
import { ModuleList } from "./containers.js";
import { Linear } from "./linear.js";
import { factory, type FactoryOptions, layerOptions } from "./options.js";
import {
  activationFn, blockAttention, MultiheadAttention, type TransformerActivation, TransformerEncoder, TransformerEncoderLayer,
  type TransformerEncoderLayerOptions,
} from "./transformer.js";

export type TransformerDecoderLayerOptions = TransformerEncoderLayerOptions;

/** The masks of a decoder's forward: tgt* for its self-attention, memory* for its attention over the encoder's output. */
export interface TransformerDecoderCallOptions {
  /** [T, T] (or [N·heads, T, T]): true where attention is not allowed, or a float added to the scores. */
  tgtMask?: Tensor;
  /** [T, S]: the same for the attention over memory. */
  memoryMask?: Tensor;
  /** [N, T]: true for target positions to ignore. */
  tgtKeyPaddingMask?: Tensor;
  /** [N, S]: true for memory positions to ignore. */
  memoryKeyPaddingMask?: Tensor;
  /** tgtMask is causal; without a tgtMask, a causal mask is used. */
  tgtIsCausal?: boolean;
  /** memoryMask is causal; without a memoryMask, a causal mask is used. */
  memoryIsCausal?: boolean;
}

const decoderCallKeys = ["tgtMask", "memoryMask", "tgtKeyPaddingMask", "memoryKeyPaddingMask", "tgtIsCausal", "memoryIsCausal"] as const;
const layerKeys = ["dimFeedforward", "dropout", "activation", "layerNormEps", "batchFirst", "normFirst", "bias", "device", "dtype"] as const;

/** Self-attention, attention over memory (the encoder's output), then a feed-forward block; each with a residual and a LayerNorm (post-norm unless normFirst). */
export class TransformerDecoderLayer extends Module {
  readonly dModel: number;
  readonly nhead: number;
  readonly config: TransformerDecoderLayerOptions;
  selfAttn: MultiheadAttention;
  multiheadAttn: MultiheadAttention;
  linear1: Linear;
  dropout: Dropout;
  linear2: Linear;
  norm1: LayerNorm;
  norm2: LayerNorm;
  norm3: LayerNorm;
  dropout1: Dropout;
  dropout2: Dropout;
  dropout3: Dropout;

  constructor(dModel: number, nhead: number, options?: TransformerDecoderLayerOptions) {
    super();
    const o = layerOptions<TransformerDecoderLayerOptions>("TransformerDecoderLayer", options, layerKeys);
    activationFn(o.activation, "TransformerDecoderLayer");
    this.dModel = dModel;
    this.nhead = nhead;
    this.config = { ...o };
    const p = o.dropout ?? 0.1;
    const bias = o.bias ?? true;
    const ff = o.dimFeedforward ?? 2048;
    const attention = { dropout: p, bias, batchFirst: o.batchFirst ?? false, ...factory(o) };
    this.selfAttn = new MultiheadAttention(dModel, nhead, attention);
    this.multiheadAttn = new MultiheadAttention(dModel, nhead, attention);
    this.linear1 = new Linear(dModel, ff, { bias, ...factory(o) });
    this.dropout = new Dropout(p);
    this.linear2 = new Linear(ff, dModel, { bias, ...factory(o) });
    const norm = { eps: o.layerNormEps ?? 1e-5, bias, ...factory(o) };
    this.norm1 = new LayerNorm(dModel, norm);
    this.norm2 = new LayerNorm(dModel, norm);
    this.norm3 = new LayerNorm(dModel, norm);
    this.dropout1 = new Dropout(p);
    this.dropout2 = new Dropout(p);
    this.dropout3 = new Dropout(p);
  }

  /** tgt [N, T, E] (batchFirst) or [T, N, E], memory [N, S, E] or [S, N, E] → the shape of tgt. */
  override forward(tgt: Tensor, memory: Tensor, options: TransformerDecoderCallOptions = {}): Tensor {
    const o = layerOptions<TransformerDecoderCallOptions>("TransformerDecoderLayer.forward", options, decoderCallKeys);
    const selfBlock = (x: Tensor): Tensor => this.dropout1.forward(this.selfAttn.forward(x, x, x, blockAttention(o.tgtMask, o.tgtKeyPaddingMask, o.tgtIsCausal))[0]);
    const crossBlock = (x: Tensor): Tensor =>
      this.dropout2.forward(this.multiheadAttn.forward(x, memory, memory, blockAttention(o.memoryMask, o.memoryKeyPaddingMask, o.memoryIsCausal))[0]);
    const act = activationFn(this.config.activation, "TransformerDecoderLayer");
    const feed = (x: Tensor): Tensor => this.dropout3.forward(this.linear2.forward(this.dropout.forward(act(this.linear1.forward(x)))));
    let x = tgt;
    if (this.config.normFirst) {
      x = x.add(selfBlock(this.norm1.forward(x)));
      x = x.add(crossBlock(this.norm2.forward(x)));
      return x.add(feed(this.norm3.forward(x)));
    }
    x = this.norm1.forward(x.add(selfBlock(x)));
    x = this.norm2.forward(x.add(crossBlock(x)));
    return this.norm3.forward(x.add(feed(x)));
  }
}

/** `numLayers` copies of `layer` (its configuration, weights and mode), as PyTorch's deep copies. */
function copies<M extends Module>(owner: string, layer: M, numLayers: number, make: () => M): ModuleList {
  if (!Number.isInteger(numLayers) || numLayers < 0) throw new ArgumentError(`${owner}: numLayers must be a non-negative integer, got ${String(numLayers)}`);
  return new ModuleList(Array.from({ length: numLayers }, () => {
    const copy = make();
    copy.loadStateDict(layer.stateDict());
    copy.train(layer.training);
    return copy;
  }));
}

/** `numLayers` copies of a decoder layer (same configuration and starting weights), applied in order, then `norm` if given. */
export class TransformerDecoder extends Module {
  layers: ModuleList;
  norm: LayerNorm | null;

  constructor(decoderLayer: TransformerDecoderLayer, numLayers: number, options: { norm?: LayerNorm | null } = {}) {
    super();
    const o = layerOptions<{ norm?: LayerNorm | null }>("TransformerDecoder", options, ["norm"]);
    if (!(decoderLayer instanceof TransformerDecoderLayer)) throw new ArgumentError("TransformerDecoder: decoderLayer must be a TransformerDecoderLayer");
    this.layers = copies("TransformerDecoder", decoderLayer, numLayers, () => new TransformerDecoderLayer(decoderLayer.dModel, decoderLayer.nhead, decoderLayer.config));
    this.norm = o.norm ?? null;
  }

  override forward(tgt: Tensor, memory: Tensor, options: TransformerDecoderCallOptions = {}): Tensor {
    const o = layerOptions<TransformerDecoderCallOptions>("TransformerDecoder.forward", options, decoderCallKeys);
    let h = tgt;
    for (const layer of this.layers.children()) h = (layer as TransformerDecoderLayer).forward(h, memory, o);
    return this.norm ? this.norm.forward(h) : h;
  }
}

export interface TransformerOptions extends FactoryOptions {
  dModel?: number;
  nhead?: number;
  numEncoderLayers?: number;
  numDecoderLayers?: number;
  dimFeedforward?: number;
  dropout?: number;
  activation?: TransformerActivation;
  /** Used instead of the TransformerEncoder built here; called as forward(src, { mask, srcKeyPaddingMask, isCausal }). */
  customEncoder?: Module;
  /** Used instead of the TransformerDecoder built here; called as forward(tgt, memory, { tgtMask, … }). */
  customDecoder?: Module;
  layerNormEps?: number;
  batchFirst?: boolean;
  normFirst?: boolean;
  bias?: boolean;
}

export interface TransformerCallOptions extends TransformerDecoderCallOptions {
  srcMask?: Tensor;
  srcKeyPaddingMask?: Tensor;
  srcIsCausal?: boolean;
}

const transformerKeys = ["dModel", "nhead", "numEncoderLayers", "numDecoderLayers", "dimFeedforward", "dropout", "activation", "customEncoder", "customDecoder", "layerNormEps", "batchFirst", "normFirst", "bias", "device", "dtype"] as const;

type EncoderLike = { forward(src: Tensor, options: { mask?: Tensor; srcKeyPaddingMask?: Tensor; isCausal?: boolean }): Tensor };
type DecoderLike = { forward(tgt: Tensor, memory: Tensor, options: TransformerDecoderCallOptions): Tensor };

/**
 * PyTorch's nn.Transformer: a TransformerEncoder (numEncoderLayers, final LayerNorm) and a
 * TransformerDecoder (numDecoderLayers, final LayerNorm); every parameter of two or more dimensions
 * starts xavier-uniform. `new nn.Transformer({ dModel: 512, nhead: 8, … })` or
 * `new nn.Transformer(512, 8, { … })`; the defaults are PyTorch's.
 */
export class Transformer extends Module {
  readonly dModel: number;
  readonly nhead: number;
  readonly batchFirst: boolean;
  encoder: Module;
  decoder: Module;

  constructor(dModel?: number | TransformerOptions, nhead?: number, options?: TransformerOptions) {
    super();
    const given = typeof dModel === "object" ? dModel : options;
    if (typeof dModel === "object" && (nhead !== undefined || options !== undefined)) throw new ArgumentError("Transformer: pass either (options) or (dModel, nhead, options)");
    const o = layerOptions<TransformerOptions>("Transformer", given, transformerKeys);
    const d = typeof dModel === "number" ? dModel : o.dModel ?? 512;
    const h = nhead ?? o.nhead ?? 8;
    if (typeof dModel === "number" && o.dModel !== undefined && o.dModel !== dModel) throw new ArgumentError(`Transformer: dModel given twice (${dModel} and ${o.dModel})`);
    if (nhead !== undefined && o.nhead !== undefined && o.nhead !== nhead) throw new ArgumentError(`Transformer: nhead given twice (${nhead} and ${o.nhead})`);
    this.dModel = d;
    this.nhead = h;
    this.batchFirst = o.batchFirst ?? false;
    const layer: TransformerEncoderLayerOptions = {
      dimFeedforward: o.dimFeedforward ?? 2048, dropout: o.dropout ?? 0.1, activation: o.activation ?? "relu", layerNormEps: o.layerNormEps ?? 1e-5,
      batchFirst: this.batchFirst, normFirst: o.normFirst ?? false, bias: o.bias ?? true, ...factory(o),
    };
    const norm = () => new LayerNorm(d, { eps: o.layerNormEps ?? 1e-5, bias: o.bias ?? true, ...factory(o) });
    if (o.customEncoder !== undefined) this.encoder = o.customEncoder;
    else {
      const one = new TransformerEncoderLayer(d, h, layer);
      this.encoder = new TransformerEncoder(one, o.numEncoderLayers ?? 6, { norm: norm() });
      one.dispose();
    }
    if (o.customDecoder !== undefined) this.decoder = o.customDecoder;
    else {
      const one = new TransformerDecoderLayer(d, h, layer);
      this.decoder = new TransformerDecoder(one, o.numDecoderLayers ?? 6, { norm: norm() });
      one.dispose();
    }
    for (const p of this.parameters()) if (p.ndim > 1) xavierUniform_(p);
  }

  /**
   * src [N, S, E] (batchFirst) or [S, N, E], tgt [N, T, E] or [T, N, E] → the decoder's output,
   * the shape of tgt. srcMask / srcKeyPaddingMask / srcIsCausal go to the encoder, the rest to the decoder.
   */
  override forward(src: Tensor, tgt: Tensor, options: TransformerCallOptions = {}): Tensor {
    const o = layerOptions<TransformerCallOptions>("Transformer.forward", options, ["srcMask", "srcKeyPaddingMask", "srcIsCausal", ...decoderCallKeys]);
    if (src.ndim !== 3 || tgt.ndim !== 3) throw new ShapeError(`Transformer: src and tgt must be 3-d, got [${src.shape.join(", ")}] and [${tgt.shape.join(", ")}]`);
    const batch = this.batchFirst ? 0 : 1;
    if (src.shape[batch] !== tgt.shape[batch]) throw new ShapeError(`Transformer: the batch number of src and tgt must be equal, got ${src.shape[batch]} and ${tgt.shape[batch]}`);
    if (src.shape[2] !== this.dModel || tgt.shape[2] !== this.dModel) {
      throw new ShapeError(`Transformer: the feature number of src and tgt must be equal to dModel (${this.dModel}), got ${src.shape[2]} and ${tgt.shape[2]}`);
    }
    const memory = (this.encoder as unknown as EncoderLike).forward(src, {
      ...(o.srcMask ? { mask: o.srcMask } : {}), ...(o.srcKeyPaddingMask ? { srcKeyPaddingMask: o.srcKeyPaddingMask } : {}), ...(o.srcIsCausal ? { isCausal: true } : {}),
    });
    const decoderOptions = Object.fromEntries(decoderCallKeys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as TransformerDecoderCallOptions;
    return (this.decoder as unknown as DecoderLike).forward(tgt, memory, decoderOptions);
  }

  /** [sz, sz] float mask: −∞ above the diagonal (the future), 0 on and below it. */
  static generateSquareSubsequentMask(sz: number, options: { device?: string; dtype?: DType } = {}): Tensor {
    const o = layerOptions<{ device?: string; dtype?: DType }>("Transformer.generateSquareSubsequentMask", options, ["device", "dtype"]);
    if (!Number.isInteger(sz) || sz < 0) throw new ArgumentError(`Transformer.generateSquareSubsequentMask: sz must be a non-negative integer, got ${String(sz)}`);
    const filled = full([sz, sz], -Infinity, factory(o));
    try {
      return filled.triu(1);
    } finally {
      filled.dispose();
    }
  }
}
