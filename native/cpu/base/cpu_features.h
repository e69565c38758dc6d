// What the running CPU can execute, asked once per process.
#pragma once

namespace tpjrt::cpu {

bool cpuHasAvx2Fma();
bool cpuHasAvx512f();

// Whether element-wise loops resolved from now on use their AVX2 versions (kernels/isa_loops.h):
// when the CPU has AVX2+FMA, unless a test asked for the baseline versions to compare the two.
bool avx2LoopsEnabled();
void useBaselineLoops(bool baseline);

}  // namespace tpjrt::cpu
