// Copies between caller host arrays with arbitrary byte strides and the plugin's dense row-major
// storage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpjrt::cpu {

// Row-major byte strides of a dense array.
std::vector<int64_t> denseByteStrides(const std::vector<int64_t>& dims, size_t elementSize);

// Reads the array at `src` whose element (i0, i1, …) lies at src + Σ ik·byteStrides[k] (strides may be
// zero or negative) into dense row-major `dst`.
void gatherStrided(const uint8_t* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& byteStrides,
                   size_t elementSize, uint8_t* dst);

}  // namespace tpjrt::cpu
