// torch.linalg beyond the PyTorch fixtures (test/fixtures/linalg.json): vander's keyword N (the
// fixture builder cannot pass an upper-case keyword), and the typed errors of what is not supported
// yet (PyTorch computes those, so they cannot be fixture cases), raised before any compile.
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
    });
  });
});
