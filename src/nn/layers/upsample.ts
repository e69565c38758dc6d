/**
 * @file Upsample(size?, scaleFactor?, mode = "nearest", alignCorners?, recomputeScaleFactor?) and its
 * fixed-mode forms UpsamplingNearest2d and UpsamplingBilinear2d (alignCorners = true): F.interpolate
 * as a module, as PyTorch's.
 */
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { Module } from "../module.js";
import { constructorOptions } from "./constructor_options.js";

type Sizes = number | number[];
type Mode = "nearest" | "linear" | "bilinear" | "bicubic" | "trilinear" | "area" | "nearest-exact";

export interface UpsampleOptions {
  size?: Sizes;
  scaleFactor?: Sizes;
  mode?: Mode;
  alignCorners?: boolean;
  recomputeScaleFactor?: boolean;
}

type SizeOptions = Pick<UpsampleOptions, "size" | "scaleFactor">;

/** Resizes [N, C, …spatial] to `size` or by `scaleFactor` with F.interpolate's `mode`. */
export class Upsample extends Module {
  readonly size: Sizes | undefined;
  readonly scaleFactor: Sizes | undefined;
  readonly mode: Mode;
  readonly alignCorners: boolean | undefined;
  readonly recomputeScaleFactor: boolean | undefined;
  /** (size?, scaleFactor?, mode = "nearest", alignCorners?, recomputeScaleFactor?), or any of them by name. */
  constructor(
    ...args: [size?: Sizes | UpsampleOptions, scaleFactor?: Sizes | UpsampleOptions, mode?: Mode | UpsampleOptions,
      alignCorners?: boolean | UpsampleOptions, recomputeScaleFactor?: boolean | UpsampleOptions, options?: UpsampleOptions]
  ) {
    super();
    const o = constructorOptions<UpsampleOptions>(new.target.name, args, ["size", "scaleFactor", "mode", "alignCorners", "recomputeScaleFactor"]);
    this.size = o.size ?? undefined;
    this.scaleFactor = o.scaleFactor ?? undefined;
    this.mode = o.mode ?? "nearest";
    this.alignCorners = o.alignCorners ?? undefined;
    this.recomputeScaleFactor = o.recomputeScaleFactor ?? undefined;
  }
  override forward(x: Tensor): Tensor {
    return F.interpolate(x, {
      size: this.size, scaleFactor: this.scaleFactor, mode: this.mode, alignCorners: this.alignCorners, recomputeScaleFactor: this.recomputeScaleFactor,
    });
  }
  override extraRepr(): string {
    const by = this.scaleFactor !== undefined ? `scaleFactor=${JSON.stringify(this.scaleFactor)}` : `size=${JSON.stringify(this.size)}`;
    return `${by}, mode=${this.mode}`;
  }
}

/** Upsample with mode "nearest" (PyTorch's deprecated 2-d form). */
export class UpsamplingNearest2d extends Upsample {
  /** (size?, scaleFactor?), or either by name. */
  constructor(...args: [size?: Sizes | SizeOptions, scaleFactor?: Sizes | SizeOptions, options?: SizeOptions]) {
    const o = constructorOptions<SizeOptions>("UpsamplingNearest2d", args, ["size", "scaleFactor"]);
    super({ ...o, mode: "nearest" });
  }
}

/** Upsample with mode "bilinear" and alignCorners = true (PyTorch's deprecated 2-d form). */
export class UpsamplingBilinear2d extends Upsample {
  /** (size?, scaleFactor?), or either by name. */
  constructor(...args: [size?: Sizes | SizeOptions, scaleFactor?: Sizes | SizeOptions, options?: SizeOptions]) {
    const o = constructorOptions<SizeOptions>("UpsamplingBilinear2d", args, ["size", "scaleFactor"]);
    super({ ...o, mode: "bilinear", alignCorners: true });
  }
}
