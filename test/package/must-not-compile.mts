// Calls the published types must reject. Each statement carries `@ts-expect-error`, and an unused
// directive is itself an error (TS2578), so a clean type-check proves that every one of them fails.
// scripts/check-package.mjs type-checks it next to consumer.mts in each resolution mode.
import * as torch from "torch-pjrt";

export function misuseTheApi(): void {
  const x = torch.zeros([2, 3]);

  // @ts-expect-error: a misspelled option (`dims` for `dim`)
  x.sum({ dims: 1 });

  // @ts-expect-error: "float33" is not a dtype
  torch.zeros([2], { dtype: "float33" });

  // @ts-expect-error: "float33" is not a dtype (a bare string is a device name, so the options form)
  x.to({ dtype: "float33" });

  // @ts-expect-error: transpose needs both dims
  x.transpose(0);
}
