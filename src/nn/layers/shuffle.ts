/**
 * @file PixelShuffle(upscaleFactor), PixelUnshuffle(downscaleFactor) and ChannelShuffle(groups).
 */
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { Module } from "../module.js";

/** [*, C·r², H, W] → [*, C, H·r, W·r]. */
export class PixelShuffle extends Module {
  constructor(readonly upscaleFactor: number) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return F.pixelShuffle(x, this.upscaleFactor);
  }
  override extraRepr(): string {
    return `upscaleFactor=${this.upscaleFactor}`;
  }
}

/** [*, C, H·r, W·r] → [*, C·r², H, W]. */
export class PixelUnshuffle extends Module {
  constructor(readonly downscaleFactor: number) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return F.pixelUnshuffle(x, this.downscaleFactor);
  }
  override extraRepr(): string {
    return `downscaleFactor=${this.downscaleFactor}`;
  }
}

/** Shuffles the channels of [N, C, *] across `groups` groups. */
export class ChannelShuffle extends Module {
  constructor(readonly groups: number) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return F.channelShuffle(x, this.groups);
  }
  override extraRepr(): string {
    return `groups=${this.groups}`;
  }
}
