// What the running CPU can execute, asked once per process.
#pragma once

namespace tpjrt::cpu {

bool cpuHasAvx2Fma();
bool cpuHasAvx512f();
bool cpuHasF16c();  // float <-> float16 conversion instructions

// Whether element-wise loops resolved from now on use their vector versions (kernels/isa_loops.h;
// AVX-512 when the CPU has it, else AVX2): when the CPU has AVX2+FMA, unless a test asked for the
// baseline versions to compare them.
bool avx2LoopsEnabled();
void useBaselineLoops(bool baseline);
// Whether those vector versions are the AVX-512 ones: when the CPU has AVX-512F, unless a test asked
// for the AVX2 versions.
bool avx512LoopsEnabled();
void useAvx2Loops(bool avx2);

}  // namespace tpjrt::cpu
