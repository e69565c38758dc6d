// W4 and W7 training steps eager and under torch.compile (forward, backward and update as one
// executable), in one process, rounds alternating; also the compiled step's first call (trace +
// compile + run). Not part of the suite yet (issue 17 adds compiled workloads to run.mjs).
//   node benchmarks/compiled-steps.mjs [rounds=3]
import * as torch from "../dist/index.js";
import { median, timeIt } from "./suite/data.mjs";
import { mlpTraining, transformerTraining } from "./suite/workloads.mjs";

const rounds = Number(process.argv[2] ?? 3);
const stepsPerSecond = (step) => {
  const t = timeIt(() => {
    step().dispose();
    torch.runtime.synchronize();
  }, { minMs: 1500 });
  return 1000 / t.ms;
};

for (const [name, setup] of [["W4", mlpTraining], ["W7", transformerTraining]]) {
  const eager = setup(torch);
  const compiledSide = setup(torch);
  const compiled = torch.compile(compiledSide.step);
  const t0 = performance.now();
  const first = compiled();
  const firstLoss = first.item();
  first.dispose();
  const firstMs = performance.now() - t0;
  const eagerLoss = eager.step();
  const check = Math.abs(eagerLoss.item() - firstLoss);
  eagerLoss.dispose();
  const e = [];
  const c = [];
  for (let r = 0; r < rounds; r++) {
    e.push(stepsPerSecond(() => eager.step()));
    c.push(stepsPerSecond(() => compiled()));
  }
  const stats = compiled.stats();
  console.log(
    `${name}: eager ${median(e).toFixed(1)} steps/s [${e.map((v) => v.toFixed(1)).join(", ")}], compiled ${median(c).toFixed(1)} [${c.map((v) => v.toFixed(1)).join(", ")}]` +
      ` → ${(median(c) / median(e)).toFixed(2)}×; first compiled call ${firstMs.toFixed(0)} ms; |first loss − eager| ${check.toExponential(1)}; compiles ${stats.compiles}, hits ${stats.hits}`,
  );
  eager.dispose();
  compiledSide.dispose();
}
