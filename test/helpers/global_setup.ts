// Runs once per `vitest run`, before the test processes start (they inherit its environment):
// torch.compile's persistent cache goes to a folder of this run, removed at its end, never to the
// user's cache folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): (() => void) | undefined {
  if (process.env.TORCH_PJRT_CACHE_DIR !== undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "torch-pjrt-test-cache-"));
  process.env.TORCH_PJRT_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
