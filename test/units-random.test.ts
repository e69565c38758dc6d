// Real XLA as the oracle for the random units: each unit gets a fixed key tensor as its input, runs
// on our CPU plugin and on XLA's CPU client (bits, integers and uniforms must agree exactly; the
// Box–Muller normals to float rounding), and compiles ahead of time for TPU (test/helpers/units.ts).
import * as torch from "../src/index.js";
import { permutationBySort } from "../src/ops/random/factories.js";
import { sampleWithoutReplacement, sampleWithReplacement } from "../src/ops/random/sampling.js";
import { randint, standardNormal, uniform } from "../src/random/distributions.js";
import { bits32, bits64 } from "../src/random/threefry.js";
import { dispatch1 } from "../src/trace/eager.js";
import type { Tracer } from "../src/trace/tracer.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const key = () => [torch.tensor(Uint32Array.of(1797259609, 2579123966))];
/** One unit whose first input is the key. */
const unit = (name: string, body: (k: Tracer, xs: Tracer[]) => Tracer) => (k: torch.Tensor, ...xs: torch.Tensor[]) =>
  dispatch1(`test_${name}`, "", [k, ...xs], ([kk, ...rest]) => body(kk!, rest));

const cases: UnitCase[] = [
  ["bits32", key, unit("bits32", (k) => bits32(k, [3, 5]))],
  ["bits64", key, unit("bits64", (k) => bits64(k, [6]))],
  ["uniform float32", key, unit("u32", (k) => uniform(k, [2, 8], "float32"))],
  ["uniform float64", key, unit("u64", (k) => uniform(k, [7], "float64"))],
  ["uniform float16", key, unit("u16", (k) => uniform(k, [9], "float16"))],
  ["uniform bfloat16", key, unit("ubf16", (k) => uniform(k, [9], "bfloat16"))],
  ["uniform range", key, unit("urange", (k) => uniform(k, [9], "float32", -3, 0.5))],
  ["normal float32", key, unit("n32", (k) => standardNormal(k, [12], "float32"))],
  ["normal float64", key, unit("n64", (k) => standardNormal(k, [12], "float64"))],
  ["randint int32", key, unit("ri32", (k) => randint(k, [10], -7n, 1000003n, "int32"))],
  ["randint int64", key, unit("ri64", (k) => randint(k, [10], -(2n ** 40n), 2n ** 41n, "int64"))],
  ["randperm", key, unit("perm", (k) => permutationBySort(k, 17, "int64"))],
  [
    "multinomial replacement",
    () => [...key(), torch.tensor([[1, 0, 3, 6], [5, 5, 0, 0]], { dtype: "float32" })],
    unit("mr", (k, [w]) => sampleWithReplacement(k, w!, 8)),
  ],
  [
    "multinomial no replacement",
    () => [...key(), torch.tensor([[1, 0, 3, 6], [5, 5, 1, 0]], { dtype: "float32" })],
    unit("mnr", (k, [w]) => sampleWithoutReplacement(k, w!, 3)),
  ],
];

unitsOnRealXla("random", cases, { tol: 1e-6 });
