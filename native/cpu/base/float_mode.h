// torch.setFlushDenormal for the CPU plugin: whether its programs flush subnormal float results to
// zero and read subnormal operands as zero (x86's FTZ and DAZ bits), as XLA's CPU backend always does
// and PyTorch does after torch.set_flush_denormal(True). Off by default, as in PyTorch. On Intel cores
// every subnormal result or operand costs a microcode assist, so a computation that makes many runs
// far slower without it.
#pragma once

#include <cstdint>

namespace tpjrt::cpu {

// Sets the process-wide choice for programs run from now on; false (and nothing set) where this CPU
// has no such mode (not x86-64).
bool setFlushDenormal(bool on);
bool flushDenormal();

// The calling thread's floating-point control (MXCSR on x86-64, 0 elsewhere), and setting it: pool
// workers run each task with the control of the thread that handed it out.
uint32_t floatControl();
void setFloatControl(uint32_t control);

// This thread runs with the process-wide choice for the scope's lifetime, then as before (a program
// may run on the JavaScript thread, whose own arithmetic must keep IEEE subnormals).
class FloatModeScope {
 public:
  FloatModeScope();
  ~FloatModeScope();
  FloatModeScope(const FloatModeScope&) = delete;
  FloatModeScope& operator=(const FloatModeScope&) = delete;

 private:
  uint32_t saved_;
};

}  // namespace tpjrt::cpu
