// Float convolution as matrix products: for each output batch element and group, the input windows
// are unrolled into a [in feature × kernel offset, output position] matrix (im2col) that the kernel,
// seen as [out feature, in feature × kernel offset], multiplies through gemm/gemm.h.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/window_geometry.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

// The convolution kernel; with allowGemm false every element type takes the direct loop (for tests).
Literal convolution(const Op& op, const Operands& in, const TensorType& result, bool allowGemm);

// x: [in batch, feature, spatial…]; w: [out feature, in feature per group, kernel spatial…];
// sources[k][j]: the flat input position kernel offset k reads for output position j (-1: none);
// out: [outBatch, out feature, output spatial…], zero-filled. Returns false, touching nothing, when the
// element type is not a float type or both group counts exceed 1 (the direct loop handles those).
bool convolveByGemm(const Literal& x, const Literal& w, const ConvParams& p,
                    const std::vector<std::vector<int64_t>>& sources, int64_t outBatch, Literal& out);

}  // namespace tpjrt::cpu
