// Runs a few ops on the CPU device through the installed package and checks the values; prints
// where the addon and the CPU plugin were loaded from, as JSON. scripts/check-package.mjs runs it in
// a CommonJS app (`node program.cjs`, require) and, through program.mjs, in an ESM app (import).
"use strict";
const assert = require("node:assert/strict");

/** @param {typeof import("torch-pjrt")} torch */
function check(torch) {
  const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "float32" });
  assert.equal(x.device, "cpu:0");
  assert.equal(x.sum().item(), 21);
  assert.deepEqual(x.sum({ dim: 1 }).tolist(), [6, 15]);
  assert.deepEqual(x.mul(2).tolist(), [
    [2, 4, 6],
    [8, 10, 12],
  ]);
  assert.deepEqual(x.matmul(x.transpose(0, 1)).tolist(), [
    [14, 32],
    [32, 77],
  ]);
  assert.deepEqual(torch.cat([x, x], 1).shape, [2, 6]);
  const probs = torch.nn.functional.softmax(torch.tensor([0, Math.log(3)]), -1).tolist();
  assert.ok(Math.abs(probs[0] - 0.25) < 1e-6 && Math.abs(probs[1] - 0.75) < 1e-6, `softmax gave ${probs}`);
  assert.equal(x.to("float64").dtype, "float64");
  assert.equal(torch.zeros([2, 3], { dtype: "float32" }).sum().item(), 0);
  assert.throws(() => x.matmul(x), torch.ShapeError);
  const cpu = torch.runtime.plugins({ load: false }).find((p) => p.name === "cpu");
  return { addon: torch.runtime.buildInfo().addonPath, cpuPlugin: cpu && cpu.path, via: cpu && cpu.via };
}

module.exports = check;

if (require.main === module) console.log(JSON.stringify(check(require("torch-pjrt"))));
