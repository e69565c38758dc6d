/**
 * @file torch.nn: `functional` now; modules come later.
 */
export * as functional from "./functional.js";
