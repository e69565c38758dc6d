// Checks one native build end to end: the addon loads, reports which build tool made it, and runs a
// 4-element add on the CPU plugin with the right values. Usage: node scripts/smoke.mjs <build tool>.
import * as torch from "../dist/index.js";

const expectedTool = process.argv[2];
const info = torch.runtime.buildInfo();
if (expectedTool && info.compiler !== expectedTool) {
  throw new Error(`smoke: expected an addon built by ${expectedTool}, got ${info.compiler}`);
}
const exe = await torch.runtime.compile(
  `func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
     %0 = stablehlo.add %a, %b : tensor<4xf32>
     return %0 : tensor<4xf32>
   }`,
);
const a = torch.tensor([1, 2, 3, 4], { dtype: "float32" });
const b = torch.tensor([0.5, 0.25, -3, 10]);
const [sum] = await exe.run([a, b]);
const got = Array.from(await sum.data());
const want = [1.5, 2.25, 0, 14];
if (got.join() !== want.join()) throw new Error(`smoke: add gave [${got}], expected [${want}]`);
for (const t of [a, b, sum]) t.dispose();
exe.dispose();
console.log(`smoke ok: ${info.compiler} addon, N-API ${info.napiVersion}, PJRT ${info.pjrtApiMajor}.${info.pjrtApiMinor}`);
