// First steps: list devices, compile a small StableHLO program for the default device, run it.
//   npm run build && node examples/first.mjs
import * as torch from "torch-pjrt";

const device = process.argv[2] ?? "cpu";

console.log("devices:");
for (const d of torch.runtime.devices()) console.log(`  ${d.device}  ${d.kind}  (${d.platform} ${d.platformVersion})`);

// y = x * w + b, elementwise, in StableHLO's generic form.
const program = `module @first {
  func.func public @main(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %0 = "stablehlo.multiply"(%x, %w) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "stablehlo.add"(%0, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}
`;

const exe = await torch.runtime.compile(program, { device });
const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "float32", device });
const w = torch.tensor([[0.5, 0.5, 0.5], [2, 2, 2]], { dtype: "float32", device });
const b = torch.tensor(new Float32Array([1, 1, 1, -1, -1, -1]), { shape: [2, 3], device });

const [y] = await exe.run([x, w, b]);
console.log(`result on ${y.device}: ${y}`);
console.log(y.tolist()); // [[1.5, 2, 2.5], [7, 9, 11]]

for (const t of [x, w, b, y]) t.dispose();
exe.dispose();
console.log("live tensors after dispose:", torch.memory().numTensors);
