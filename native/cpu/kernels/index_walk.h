// Walking part of a row-major index space while two strided offsets follow it: strided copies
// (kernels/copy_box.cc) and the runs of gather and scatter (kernels/index_windows.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpjrt::cpu {

// Calls fn(item, s, t) for the flat indices [begin, end) of the row-major space `dims`, with the
// source and destination offsets (base plus index · strides) of each.
template <class Fn>
void walk(const std::vector<int64_t>& dims, const std::vector<int64_t>& src, const std::vector<int64_t>& dst,
          int64_t srcBase, int64_t dstBase, int64_t begin, int64_t end, Fn&& fn) {
  const size_t rank = dims.size();
  std::vector<int64_t> index(rank);
  int64_t s = srcBase, t = dstBase, rest = begin;
  for (size_t d = rank; d-- > 0;) {
    index[d] = rest % dims[d];
    rest /= dims[d];
    s += index[d] * src[d];
    t += index[d] * dst[d];
  }
  for (int64_t item = begin; item < end; ++item) {
    fn(item, s, t);
    for (size_t d = rank; d-- > 0;) {
      s += src[d];
      t += dst[d];
      if (++index[d] < dims[d]) break;
      s -= src[d] * dims[d];
      t -= dst[d] * dims[d];
      index[d] = 0;
    }
  }
}

}  // namespace tpjrt::cpu
