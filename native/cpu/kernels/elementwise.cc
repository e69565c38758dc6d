// Runs an element-wise loop over whole operands, in pieces on the thread pool when the result is big.
#include <algorithm>

#include "base/thread_pool.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

template <class T>
void copyRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const T* x = static_cast<const T*>(in[0]);
  T* o = static_cast<T*>(out);
  if (splat[0]) std::fill_n(o, n, x[0]);
  else std::copy_n(x, n, o);
}

}  // namespace

ElementLoop copyLoop(size_t width) {
  ElementLoop loop = nullptr;
  if (!withStorageWidth(width, [&](auto tag) { loop = copyRange<decltype(tag)>; })) fail("unsupported element width", ErrorCode::Internal);
  return loop;
}

void fillWith(Literal& out, const Bytes& value) {
  const size_t width = value.size();
  if (width == 0 || out.bytes.size() % width != 0) fail("fill value does not match the element width", ErrorCode::Internal);
  const ElementLoop fill = copyLoop(width);
  const void* from = value.data();
  const bool repeated = true;
  uint8_t* to = out.bytes.mutableData();
  parallelRange(int64_t(out.bytes.size() / width), kParallelElements, [&](int64_t begin, int64_t end) {
    fill(&from, &repeated, to + size_t(begin) * width, end - begin);
  });
}

Literal splatLiteral(const Literal& scalar, int64_t count) {
  Literal out = uninitializedLiteral({scalar.type.element, {count}});
  fillWith(out, scalar.bytes);
  return out;
}

Literal runElementwise(ElementLoop loop, std::span<const Literal* const> in, const TensorType& result) {
  if (in.size() > kMaxElementwiseOperands) fail("too many operands", ErrorCode::Internal);
  Literal out = uninitializedLiteral(result);
  const int64_t n = numElements(result);
  const uint8_t* base[kMaxElementwiseOperands] = {};
  bool splat[kMaxElementwiseOperands] = {};
  size_t width[kMaxElementwiseOperands] = {};
  for (size_t i = 0; i < in.size(); ++i) {
    base[i] = in[i]->bytes.data();
    splat[i] = numElements(in[i]->type) == 1 && n != 1;
    width[i] = splat[i] ? 0 : byteWidth(in[i]->type.element);
  }
  uint8_t* o = out.bytes.mutableData();
  const size_t outWidth = byteWidth(result.element);
  auto piece = [&](int64_t begin, int64_t end) {
    const void* at[kMaxElementwiseOperands] = {};
    for (size_t i = 0; i < in.size(); ++i) at[i] = base[i] + size_t(begin) * width[i];
    loop(at, splat, o + size_t(begin) * outWidth, end - begin);
  };
  if (n >= 2 * kParallelElements) parallelRange(n, kParallelElements, piece);
  else if (n > 0) piece(0, n);  // one piece (parallelRange's rule), without making a std::function
  return out;
}

}  // namespace tpjrt::cpu
