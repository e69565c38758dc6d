/**
 * @file torch.setFlushDenormal, as PyTorch's torch.set_flush_denormal: whether float computations on
 * the CPU plugin flush subnormal results to zero and read subnormal operands as zero (x86's FTZ and
 * DAZ modes). Off by default, as in PyTorch, so results keep IEEE subnormals; XLA's CPU backend and
 * TPUs always flush. Intel cores pay a microcode assist for every subnormal result or operand;
 * matrix products scale theirs away (docs/cpu-backend.md, "Subnormals"), element-wise ops do not.
 */
import { ArgumentError } from "./runtime/errors.js";
import { applyFlushDenormal } from "./runtime/clients.js";
import { synchronize } from "./runtime/synchronize.js";

/**
 * Flushes subnormal floats to zero (true) or keeps them (false, the default) in programs run from
 * now on by the CPU plugin; work enqueued before the call finishes first, in the old mode. Returns
 * whether this machine can (false on a CPU without such a mode, where nothing changes), as PyTorch
 * does. Accelerator plugins follow their compiler's rules (TPUs flush) whatever this says.
 */
export function setFlushDenormal(mode: boolean): boolean {
  if (typeof mode !== "boolean") throw new ArgumentError(`setFlushDenormal: mode must be true or false, got ${typeof mode === "string" ? JSON.stringify(mode) : String(mode)}`);
  synchronize();
  return applyFlushDenormal(mode);
}
