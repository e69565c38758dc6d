// torch.linalg beyond the PyTorch fixtures (test/fixtures/linalg.json): vander's keyword N (the
// fixture builder cannot pass an upper-case keyword), the typed errors of what is not supported
// yet (PyTorch computes those, so they cannot be fixture cases), raised before any compile, and the
// ops that share a bare name with a torch.* op of another signature (linalg.norm and torch.norm).
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, expectTensor, missing, scoped } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

function expectError(fn: () => unknown, type: new (...a: never[]) => Error, message: RegExp): void {
  const before = torch.runtime.stats().compiles;
  expect(fn).toThrow(type);
  expect(fn).toThrow(message);
  expect(torch.runtime.stats().compiles).toBe(before);
}

describe("torch.linalg", () => {
  eagerSuite();

  test("vander takes N as an option: more or fewer columns than elements", () => {
    scoped(() => {
      const x = torch.tensor([1, 2, 3], { dtype: "int32" });
      expectTensor(torch.linalg.vander(x, { N: 4 }), { dtype: "int64", shape: [3, 4], values: [1, 1, 1, 1, 1, 2, 4, 8, 1, 3, 9, 27] });
      expectTensor(torch.linalg.vander(x, { N: 2 }), { dtype: "int64", shape: [3, 2], values: [1, 1, 1, 2, 1, 3] });
      const y = torch.tensor([[0.5, -2]], { dtype: "float64" });
      expectTensor(torch.linalg.vander(y, { N: 3 }), { dtype: "float64", shape: [1, 2, 3], values: [1, 0.5, 0.25, 1, -2, 4] });
      expectTensor(torch.linalg.vander(torch.tensor(2.5), { N: 3 }), { dtype: "float32", shape: [1, 3], values: [1, 2.5, 6.25] });
      expectError(() => torch.linalg.vander(x, { N: 1 }), torch.ArgumentError, /N must be at least 2, got 1/);
      expectError(() => (torch.linalg.vander as (...a: unknown[]) => unknown)(x, 4), torch.ArgumentError, /vander/);
    });
  });

  test("the matrix norms from singular values and negative matrix powers are not supported yet", () => {
    scoped(() => {
      const a = torch.tensor([[1.5, 2], [3, 4]]);
      for (const ord of [2, -2, "nuc"] as const) {
        expectError(() => torch.linalg.matrixNorm(a, ord), torch.NotSupportedError, /linalg\.matrixNorm: ord = .* is not supported yet: it needs the singular values/);
      }
      expectError(() => torch.linalg.matrixPower(a, -1), torch.NotSupportedError, /not supported yet: needs torch\.linalg\.inv/);
      const batch = torch.stack([a, a]);
      for (const ord of [2, -2, "nuc"] as const) {
        expectError(() => torch.linalg.norm(a, ord), torch.NotSupportedError, /linalg\.norm: ord = .* is not supported yet: it needs the singular values/);
        expectError(() => torch.linalg.norm(batch, ord, [0, 2]), torch.NotSupportedError, /linalg\.norm: ord = .* is not supported yet/);
      }
    });
  });

  test("linalg.norm, cross and diagonal are not torch.norm, cross and diagonal: binding errors name the namespace", () => {
    scoped(() => {
      const a = torch.tensor([[3, 0, 0], [0, 4, 0]], { dtype: "float64" });
      // torch.norm takes p, linalg.norm ord; torch.cross's dim is the first of size 3, linalg.cross's -1
      expectTensor(torch.linalg.norm(a, 1), { dtype: "float64", shape: [], values: [4] });
      expectTensor(torch.norm(a, 1), { dtype: "float64", shape: [], values: [7] });
      expectError(() => (torch.linalg.norm as (...a: unknown[]) => unknown)(a, { p: 1 }), torch.ArgumentError, /^linalg\.norm\(input, ord\?, dim\?, keepdim = false, \*, dtype\?\): got an unknown option "p"/);
      const x = torch.tensor([[1, 0, 0], [0, 1, 0], [0, 0, 1]], { dtype: "float64" });
      const y = torch.tensor([[0, 1, 0], [0, 0, 1], [1, 0, 0]], { dtype: "float64" });
      expectTensor(torch.linalg.cross(x, y), { dtype: "float64", shape: [3, 3], values: [0, 0, 1, 1, 0, 0, 0, 1, 0] });
      expectTensor(torch.cross(x, y), { dtype: "float64", shape: [3, 3], values: [0, 0, -1, -1, 0, 0, 0, -1, 0] });
      expectError(() => (torch.linalg.cross as (...a: unknown[]) => unknown)(x, y, 0), torch.ArgumentError, /^linalg\.cross\(input, other, \*, dim = -1\): takes at most 2 positional arguments/);
      expectError(() => (torch.linalg.diagonal as (...a: unknown[]) => unknown)(x, 1), torch.ArgumentError, /^linalg\.diagonal\(A, \*, offset = 0, dim1 = -2, dim2 = -1\)/);
      expectError(() => torch.linalg.norm(torch.tensor([1, 2]), 2), torch.DTypeError, /^linalg\.norm: expected a floating point input/);
    });
  });
});
