#include "kernels/convolution_gemm.h"

#include <algorithm>
#include <type_traits>

#include "base/thread_pool.h"
#include "gemm/gemm.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

// The unrolled windows of one batch element are built in pieces of output positions no bigger than this.
constexpr int64_t kMaxUnrolledBytes = int64_t(16) << 20;

template <class S>
void convolveTyped(const Literal& x, const Literal& w, const ConvParams& p,
                   const std::vector<std::vector<int64_t>>& sources, int64_t outBatch, Literal& out) {
  using T = std::conditional_t<std::is_same_v<S, double>, double, float>;
  const int64_t features = x.type.dims[1], kernelIn = w.type.dims[1], kernelOut = w.type.dims[0];
  int64_t inPlane = 1, outPlane = 1;
  for (size_t d = 2; d < x.type.dims.size(); ++d) inPlane *= x.type.dims[d];
  for (size_t d = 2; d < out.type.dims.size(); ++d) outPlane *= out.type.dims[d];
  const int64_t offsets = int64_t(sources.size());
  const int64_t groups = p.featureGroups * p.batchGroups, perGroup = kernelOut / groups;
  const int64_t depth = kernelIn * offsets;  // the contraction: in feature × kernel offset
  if (outBatch == 0 || kernelOut == 0 || outPlane == 0) return;

  const S* xs = elements<S>(x);
  std::vector<T> wideWeights;
  const T* weights;
  if constexpr (std::is_same_v<S, T>) {
    weights = elements<S>(w);
  } else {
    const S* ws = elements<S>(w);
    wideWeights.resize(size_t(numElements(w.type)));
    for (size_t i = 0; i < wideWeights.size(); ++i) wideWeights[i] = Num<S>::load(ws[i]);
    weights = wideWeights.data();
  }
  StridedMatrices<T> a{weights, depth, 1, {}};
  for (int64_t g = 0; g < groups; ++g) a.batchOffsets.push_back(g * perGroup * depth);

  const int64_t rowBytes = std::max<int64_t>(1, groups * depth * int64_t(sizeof(T)));
  const int64_t piece = std::clamp<int64_t>(kMaxUnrolledBytes / rowBytes, 1, outPlane);
  const bool direct = std::is_same_v<S, T> && piece == outPlane;  // gemm can write straight into `out`
  std::vector<T> unrolled(size_t(groups * depth * piece));
  std::vector<T> products(direct ? 0 : size_t(kernelOut * piece));
  S* os = elements<S>(out);

  for (int64_t n = 0; n < outBatch; ++n) {
    for (int64_t first = 0; first < outPlane; first += piece) {
      const int64_t count = std::min(piece, outPlane - first);
      parallelRange(groups * depth, std::max<int64_t>(1, kParallelElements / count), [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const int64_t g = r / depth, ci = (r % depth) / offsets, k = r % offsets;
          const int64_t inBatch = p.batchGroups > 1 ? g * outBatch + n : n;
          const int64_t channel = (p.featureGroups > 1 ? g * kernelIn : 0) + ci;
          const S* plane = xs + (inBatch * features + channel) * inPlane;
          const int64_t* src = sources[size_t(k)].data() + first;
          T* dst = unrolled.data() + r * count;
          for (int64_t j = 0; j < count; ++j) dst[j] = src[j] < 0 ? T(0) : T(Num<S>::load(plane[src[j]]));
        }
      });
      StridedMatrices<T> b{unrolled.data(), count, 1, {}};
      for (int64_t g = 0; g < groups; ++g) b.batchOffsets.push_back(g * depth * count);
      S* dst = os + n * kernelOut * outPlane;
      if constexpr (std::is_same_v<S, T>) {
        if (direct) {
          gemm<T>(perGroup, count, depth, a, b, dst, currentThreadPool());
          continue;
        }
      }
      gemm<T>(perGroup, count, depth, a, b, products.data(), currentThreadPool());
      for (int64_t o = 0; o < kernelOut; ++o)
        for (int64_t j = 0; j < count; ++j)
          dst[o * outPlane + first + j] = Num<S>::store(products[size_t(o * count + j)]);
    }
  }
}

}  // namespace

bool convolveByGemm(const Literal& x, const Literal& w, const ConvParams& p,
                    const std::vector<std::vector<int64_t>>& sources, int64_t outBatch, Literal& out) {
  const ElementType t = out.type.element;
  if (x.type.element != t || w.type.element != t) return false;
  if (p.featureGroups > 1 && p.batchGroups > 1) return false;
  switch (t) {
    case ElementType::F32: convolveTyped<float>(x, w, p, sources, outBatch, out); return true;
    case ElementType::F64: convolveTyped<double>(x, w, p, sources, outBatch, out); return true;
    case ElementType::F16: convolveTyped<Half>(x, w, p, sources, outBatch, out); return true;
    case ElementType::BF16: convolveTyped<BFloat>(x, w, p, sources, outBatch, out); return true;
    default: return false;
  }
}

}  // namespace tpjrt::cpu
