// What the running CPU can execute, asked once per process.
#pragma once

namespace tpjrt::cpu {

bool cpuHasAvx2Fma();
bool cpuHasAvx512f();

// Whether element-wise loops resolved from now on use their vector versions (kernels/isa_loops.h;
// AVX-512 when the CPU has it, else AVX2): when the CPU has AVX2+FMA, unless a test asked for the
// baseline versions to compare them.
bool avx2LoopsEnabled();
void useBaselineLoops(bool baseline);

}  // namespace tpjrt::cpu
