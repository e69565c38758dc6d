// A strict TypeScript user of the published package. scripts/check-package.mjs copies this file into
// scratch apps that installed the packed tarball and type-checks it there with TypeScript 5.9 strict
// under NodeNext (as .mts and as .cts), Bundler and CommonJS resolution. Every line must compile.
// (It is .mts, not .ts, so the repo's own tsconfig, which reads test/**/*.ts, leaves it alone.)
import * as torch from "torch-pjrt";
import { ShapeError, Tensor, type DType } from "torch-pjrt";

export function useTheApi(): number {
  const x: Tensor = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "float32" });
  const y: Tensor = torch.zeros([2, 3], { dtype: "float32" });

  // Methods, positional and with an options object.
  const total: Tensor = x.sum();
  const rows: Tensor = x.sum(1);
  const kept: Tensor = x.sum({ dim: 1, keepdim: true });
  const doubled: Tensor = x.mul(2);
  const wide: Tensor = x.to("float64");
  const gram: Tensor = x.matmul(x.transpose(0, 1));
  const joined: Tensor = torch.cat([x, y], 1);
  const probs: Tensor = torch.nn.functional.softmax(x, -1);

  const dtype: DType = wide.dtype;
  const shape: readonly number[] = joined.shape;
  const values: number[] = Array.from(rows.dataSync(), Number);

  // Typed errors.
  try {
    x.matmul(y);
  } catch (error) {
    if (error instanceof torch.ShapeError) console.error(error.message);
    if (error instanceof ShapeError) console.error(error.name);
  }

  for (const t of [total, kept, doubled, gram, probs]) t.dispose();
  return values.length + shape.length + dtype.length;
}
