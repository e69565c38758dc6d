/**
 * @file The generated files match the signature table: src/ops/op_types.generated.ts (the op and
 * Tensor method declarations) and docs/api.md. `npm run generate` rewrites them.
 */
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { opTable } from "../src/ops/signature/op.js";
import { apiDocsSource } from "../scripts/generate/api_docs.js";
import { opTypesSource } from "../scripts/generate/op_types.js";

describe("generated from the signature table (npm run generate rewrites them)", () => {
  it("src/ops/op_types.generated.ts", async () => {
    await expect(opTypesSource(opTable())).toMatchFileSnapshot("../src/ops/op_types.generated.ts");
  });

  it("docs/api.md", async () => {
    await expect(apiDocsSource(opTable(), { torch, "torch.nn.functional": torch.nn.functional, "torch.special": torch.special, "torch.linalg": torch.linalg })).toMatchFileSnapshot("../docs/api.md");
  });
});
