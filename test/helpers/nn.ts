// What the torch.nn suites share: PyTorch state dicts as tensors, comparison against a fixture
// tensor, PyTorch's spelling of a property path, the no-leak check, and the small character model
// of the 20-step training fixture (test/fixtures/nn/modules.json).
import { afterEach, beforeEach, expect } from "vitest";
import * as torch from "../../src/index.js";
import { compareTensor, makeInput, type TensorSpec } from "./fixtures.js";

export const stateOf = (specs: Record<string, TensorSpec>): Record<string, torch.Tensor> =>
  Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, makeInput(torch, s, "cpu")]));

/** A property path as PyTorch spells it (stateDict's rule): outProj → out_proj. */
export const pytorchName = (path: string): string => path.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

export async function expectClose(actual: unknown, want: TensorSpec, what: string, tol = 2e-5): Promise<void> {
  const m = await compareTensor(torch, actual, want, tol, tol, what);
  if (m) throw new Error(m);
}

/** Every test of the file must leave as many live tensors as it found. */
export function expectNoLeaks(): void {
  let before = 0;
  beforeEach(() => {
    before = torch.memory().numTensors;
  });
  afterEach(() => {
    expect(torch.memory().numTensors, "tensors left alive").toBe(before);
  });
}

/** Embedding → Linear → GELU → LayerNorm → Linear: the model of the 20-step training fixture. */
export class CharModel extends torch.nn.Module {
  embed: torch.nn.Embedding;
  hidden: torch.nn.Linear;
  act = new torch.nn.GELU();
  norm: torch.nn.LayerNorm;
  out: torch.nn.Linear;
  constructor(vocab: number, dim: number, hidden: number) {
    super();
    this.embed = new torch.nn.Embedding(vocab, dim);
    this.hidden = new torch.nn.Linear(dim, hidden);
    this.norm = new torch.nn.LayerNorm(hidden);
    this.out = new torch.nn.Linear(hidden, vocab);
  }
  override forward(x: torch.Tensor): torch.Tensor {
    return this.out.call(this.norm.call(this.act.call(this.hidden.call(this.embed.call(x))))) as torch.Tensor;
  }
}
