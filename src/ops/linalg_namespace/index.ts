/**
 * @file torch.linalg: linear algebra under PyTorch's names in camelCase (`torch.linalg.vectorNorm`).
 * Those that are also torch.* functions with the same signature are the same functions.
 */
export { matmul } from "../linalg/products.js";
export { vectorNorm, matrixNorm } from "./norms.js";
export { vecdot, multiDot, matrixPower } from "./products.js";
export { vander } from "./vander.js";
