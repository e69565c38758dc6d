/**
 * @file torch.linalg: linear algebra under PyTorch's names in camelCase (`torch.linalg.vectorNorm`).
 * Those that are also torch.* functions with the same signature are the same functions; norm, cross
 * and diagonal are torch.linalg's own (their signatures differ from torch.norm's, cross's, diagonal's).
 */
export { matmul } from "../linalg/products.js";
export { vectorNorm, matrixNorm, norm } from "./norms.js";
export { vecdot, cross, multiDot, matrixPower } from "./products.js";
export { diagonal } from "./diagonal.js";
export { vander } from "./vander.js";
export { solveTriangular } from "./triangular.js";
export { cholesky, choleskyEx } from "./cholesky.js";
export { LinAlgError } from "./matrices.js";
export { luFactor, luFactorEx, lu, luSolve } from "./lu.js";
export { solve, solveEx, inv, invEx } from "./solve.js";
export { det, slogdet } from "./det.js";
export { tensorinv, tensorsolve } from "./tensor_solvers.js";
