/**
 * @file Writes StableHLO modules to env TORCH_PJRT_DUMP_DIR (when set) for debugging compiles.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes `module` to $TORCH_PJRT_DUMP_DIR/<tag>-<hash>.mlir; returns the path, or undefined when unset. */
export function dumpModule(module: string, tag: string): string | undefined {
  const dir = process.env.TORCH_PJRT_DUMP_DIR;
  if (!dir) return undefined;
  const hash = createHash("sha256").update(module).digest("hex").slice(0, 16);
  const path = join(dir, `${tag}-${hash}.mlir`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, module);
    return path;
  } catch {
    return undefined; // dumping is a debugging aid; never hide the real error behind a write failure
  }
}
