#include "pjrt/host_copy.h"

#include <cstring>

namespace tpjrt::cpu {

std::vector<int64_t> denseByteStrides(const std::vector<int64_t>& dims, size_t elementSize) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = int64_t(elementSize);
  for (size_t k = dims.size(); k-- > 0;) {
    strides[k] = stride;
    stride *= dims[k];
  }
  return strides;
}

void gatherStrided(const uint8_t* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& byteStrides,
                   size_t elementSize, uint8_t* dst) {
  size_t rank = dims.size();
  for (int64_t d : dims)
    if (d == 0) return;
  if (rank == 0) {
    std::memcpy(dst, src, elementSize);
    return;
  }
  if (byteStrides == denseByteStrides(dims, elementSize)) {
    size_t total = elementSize;
    for (int64_t d : dims) total *= size_t(d);
    std::memcpy(dst, src, total);
    return;
  }
  int64_t rowLength = dims[rank - 1];
  int64_t innerStride = byteStrides[rank - 1];
  bool contiguousRows = innerStride == int64_t(elementSize);
  std::vector<int64_t> index(rank - 1, 0);
  for (;;) {
    const uint8_t* row = src;
    for (size_t k = 0; k + 1 < rank; ++k) row += index[k] * byteStrides[k];
    if (contiguousRows) {
      std::memcpy(dst, row, size_t(rowLength) * elementSize);
      dst += size_t(rowLength) * elementSize;
    } else {
      for (int64_t i = 0; i < rowLength; ++i, dst += elementSize) std::memcpy(dst, row + i * innerStride, elementSize);
    }
    size_t k = rank - 1;
    while (k > 0) {
      if (++index[k - 1] < dims[k - 1]) break;
      index[k - 1] = 0;
      --k;
    }
    if (k == 0) return;
  }
}

}  // namespace tpjrt::cpu
