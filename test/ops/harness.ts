// Runs op-table cases through the public torch API (torch.runtime.compile + exe.run).

import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import type { OpCase } from "./cases.js";
import { type DType, fromTyped, toTyped } from "./dtypes.js";
import type { TensorVal } from "./ref.js";

// The public API, typed loosely here so this file also compiles while src/ is being written.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Torch = any;
export type TensorLike = any;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where the runtime looks for the addon (mirrors src/runtime/paths.ts: TORCH_PJRT_BUILD_DIR or build/Release). */
function addonCandidates(): string[] {
  const dir = process.env.TORCH_PJRT_BUILD_DIR;
  if (dir) return [resolve(dir, "Release/torch_pjrt.node"), resolve(dir, "torch_pjrt.node")];
  return [resolve(root, "build/Release/torch_pjrt.node"), resolve(root, `prebuilds/${process.platform}-${process.arch}/torch_pjrt.node`)];
}

let loaded: { ok: true; torch: Torch } | { ok: false; reason: string } | undefined;

/**
 * Loads src/index.js. Skips (with the reason) only while the pieces are genuinely absent: no
 * src/index.ts, or no built addon. If they exist, a failure to load is a real error and throws.
 */
export async function loadTorch(): Promise<{ ok: true; torch: Torch } | { ok: false; reason: string }> {
  if (loaded) return loaded;
  if (!existsSync(resolve(root, "src/index.ts"))) {
    loaded = { ok: false, reason: "src/index.ts does not exist yet (the TS public API has not landed)" };
    return loaded;
  }
  if (!addonCandidates().some((p) => existsSync(p))) {
    loaded = {
      ok: false,
      reason: `native addon not built: none of ${addonCandidates().join(", ")} exists (run npx cmake-js compile --out build, or set TORCH_PJRT_BUILD_DIR)`,
    };
    return loaded;
  }
  const spec = "../../src/index.js";
  const torch = await import(/* @vite-ignore */ spec);
  loaded = { ok: true, torch };
  return loaded;
}

/** Device strings to run on: every device torch.runtime.devices() lists whose tensors can be made. */
export function deviceNames(torch: Torch): string[] {
  const devs = torch.runtime.devices() as unknown[];
  const names = devs.map((d: any) => (typeof d === "string" ? d : (d.device ?? d.name ?? String(d))) as string);
  return [...new Set(names)];
}

export function makeTensor(torch: Torch, t: TensorVal, device: string): TensorLike {
  return torch.tensor(toTyped(t.dtype, t.values), { dtype: t.dtype, shape: t.shape, device });
}

export async function readTensor(t: TensorLike): Promise<TensorVal> {
  const data = await t.data();
  const dtype = t.dtype as DType;
  return { dtype, shape: [...t.shape], values: fromTyped(dtype, data) };
}

/** Compiles and runs one case on `device`; returns its outputs; frees every tensor and the executable. */
export async function runCase(torch: Torch, c: OpCase, device: string): Promise<TensorVal[]> {
  const inputs = c.inputs.map((t) => makeTensor(torch, t, device));
  let exe: any;
  let outs: TensorLike[] = [];
  try {
    exe = await torch.runtime.compile(c.mlir, { device });
    outs = await exe.run(inputs);
    const vals: TensorVal[] = [];
    for (const o of outs) vals.push(await readTensor(o));
    return vals;
  } finally {
    for (const o of outs) o.dispose();
    for (const i of inputs) i.dispose();
    exe?.dispose();
  }
}
