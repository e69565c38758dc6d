// TEMP wt-window: stands in for the nn namespace until the lead merges src/nn/functional.ts.
export * as functional from "./nn_window_index.js";
