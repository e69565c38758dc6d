/**
 * @file Index items for `t.index(...)` / `t.setIndex(...)`: Python's slice and what else PyTorch's
 * `t[...]` takes.
 */
import type { Tensor } from "../tensor.js";

/** A Python slice `start:stop:step`; omitted parts are null. */
export class Slice {
  constructor(
    readonly start: number | null = null,
    readonly stop: number | null = null,
    readonly step: number | null = null,
  ) {}
}

/** An int, a slice (torch.slice(…) or a string "1:4", "::2", ":"), null (a new axis), "..." or an index tensor (int or bool). */
export type IndexItem = number | Slice | string | null | Tensor;
