// The module fixtures of scripts/fixtures/nn_more.py and nn_pooling.py (test/fixtures/nn/*.json): a
// module built from its spec with PyTorch's weights (through loadStateDict) must give PyTorch's
// output, buffers after the forward, parameter gradients and input gradients.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as torch from "../../src/index.js";
import { fixturesDir, makeInput, type TensorSpec } from "./fixtures.js";
import { expectClose, pytorchName, stateOf } from "./nn.js";

type Tagged = { $t: TensorSpec };
type OptionValue = number | string | boolean | number[] | Tagged;
/** How to build and call the module: its constructor's arguments, or a layer repeated numLayers times (with a norm). */
interface Spec {
  module: string;
  args?: unknown[];
  options?: Record<string, OptionValue>;
  layer?: Spec;
  numLayers?: number;
  norm?: Spec;
  call?: Record<string, OptionValue>;
  eval?: boolean;
}
interface Case {
  name: string;
  spec: Spec;
  state: Record<string, TensorSpec>;
  inputs: TensorSpec[];
  grads: boolean[];
  output: TensorSpec;
  cotangent: TensorSpec;
  paramGrads: Record<string, TensorSpec>;
  inputGrads: (TensorSpec | null)[];
  buffersAfter?: Record<string, TensorSpec>;
}

/** A fixture file of test/fixtures/nn/: its module cases, and whatever else the script wrote. */
export function readModuleFixtures<Extra extends object = object>(file: string): { layers: Case[] } & Extra {
  return JSON.parse(readFileSync(join(fixturesDir, "nn", file), "utf8")) as { layers: Case[] } & Extra;
}

const isTagged = (v: unknown): v is Tagged => typeof v === "object" && v !== null && "$t" in v;
const decode = (o: Record<string, OptionValue>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, isTagged(v) ? makeInput(torch, v.$t, "cpu") : v]));

type Ctor = new (...a: unknown[]) => torch.nn.Module;
function build(spec: Spec): torch.nn.Module {
  const ctor = (torch.nn as unknown as Record<string, Ctor>)[spec.module]!;
  if (spec.layer) {
    const layer = build(spec.layer);
    try {
      return new ctor(layer, spec.numLayers, spec.norm ? { norm: build(spec.norm) } : {});
    } finally {
      layer.dispose();
    }
  }
  return new ctor(...(spec.args ?? []), ...(spec.options ? [decode(spec.options)] : []));
}

/** One test per case of `layers`, under `title`. */
export function moduleFixtureSuite(title: string, layers: readonly Case[]): void {
  describe(title, () => {
    for (const c of layers) {
      it(`${c.spec.module}: ${c.name}`, async () => {
        const m = build(c.spec);
        if (c.spec.eval) m.eval();
        try {
          expect(Object.keys(m.stateDict())).toEqual(Object.keys(c.state));
          // transformers stack many float32 sums: a little looser than a single layer
          const tol = /Transformer/.test(c.spec.module) ? 1e-4 : 2e-5;
          await torch.tidy(async () => {
            m.loadStateDict(stateOf(c.state));
            const inputs = c.inputs.map((s, i) => {
              const t = makeInput(torch, s, "cpu");
              return c.grads[i] ? t.requiresGrad_() : t;
            });
            const args: unknown[] = c.spec.call ? [...inputs, decode(c.spec.call)] : inputs;
            const out = m.call(...args) as torch.Tensor;
            await expectClose(out, c.output, "output", tol);
            const state = m.stateDict();
            for (const [name, want] of Object.entries(c.buffersAfter ?? {})) await expectClose(state[name]!, want, `${name} after the forward`, tol);
            out.backward(makeInput(torch, c.cotangent, "cpu"));
            for (const [name, p] of m.namedParameters()) {
              const want = c.paramGrads[pytorchName(name)];
              if (want === undefined) expect(p.grad, `${name} has no gradient in PyTorch`).toBeNull();
              else await expectClose(p.grad, want, `gradient of ${name}`, tol);
            }
            for (let i = 0; i < inputs.length; i++) {
              const want = c.inputGrads[i];
              if (want) await expectClose(inputs[i]!.grad, want, `gradient of input ${i}`, tol);
            }
            m.zeroGrad();
          });
        } finally {
          m.dispose();
        }
      });
    }
  });
}
