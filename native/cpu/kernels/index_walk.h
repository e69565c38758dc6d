// Walking part of a row-major index space while two strided offsets follow it: strided copies
// (kernels/copy_box.cc), the runs of gather and scatter and their window starts (kernels/index_windows.*).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpjrt::cpu {

// Calls fn(item, n, s, t, index) for the flat indices [begin, end) of the row-major space `dims`
// (rank ≥ 1), a run of n consecutive items along the last dimension at a time: item is the run's
// first, s and t its source and destination offsets (base plus index · strides), index its
// multi-index.
template <class Fn>
void walkRuns(const std::vector<int64_t>& dims, const std::vector<int64_t>& src, const std::vector<int64_t>& dst,
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
  const size_t last = rank - 1;
  const int64_t inner = dims[last];
  for (int64_t item = begin; item < end;) {
    const int64_t n = std::min(end - item, inner - index[last]);
    fn(item, n, s, t, static_cast<const std::vector<int64_t>&>(index));
    item += n;
    if ((index[last] += n) < inner) break;  // only the walk's last run ends short of its row
    s -= (inner - n) * src[last];
    t -= (inner - n) * dst[last];
    index[last] = 0;
    for (size_t d = last; d-- > 0;) {
      s += src[d];
      t += dst[d];
      if (++index[d] < dims[d]) break;
      s -= src[d] * dims[d];
      t -= dst[d] * dims[d];
      index[d] = 0;
    }
  }
}

// Calls fn(item, s, t) for the flat indices [begin, end) of the row-major space `dims`, with the
// source and destination offsets (base plus index · strides) of each. The last dimension runs as a
// plain loop, so a walk of single elements costs little more than the loop itself.
template <class Fn>
void walk(const std::vector<int64_t>& dims, const std::vector<int64_t>& src, const std::vector<int64_t>& dst,
          int64_t srcBase, int64_t dstBase, int64_t begin, int64_t end, Fn&& fn) {
  if (dims.empty()) {
    for (int64_t item = begin; item < end; ++item) fn(item, srcBase, dstBase);
    return;
  }
  const int64_t innerSrc = src.back(), innerDst = dst.back();
  walkRuns(dims, src, dst, srcBase, dstBase, begin, end, [&](int64_t item, int64_t n, int64_t s, int64_t t, const auto&) {
    for (int64_t j = 0; j < n; ++j) fn(item + j, s + j * innerSrc, t + j * innerDst);
  });
}

}  // namespace tpjrt::cpu
