// Helpers shared by the kernels: strided copies, index reading and attribute access.
#include "kernels.h"

namespace tpjrt::cpu {

int64_t readIndex(const Literal& l, int64_t i) {
  return dispatchType(l.type.element, [&](auto tag) -> int64_t {
    using S = decltype(tag);
    if constexpr (kIsInt<S>) {
      S v = elements<S>(l)[i];
      if constexpr (std::is_unsigned_v<S> && sizeof(S) == 8) {
        if (v > uint64_t(std::numeric_limits<int64_t>::max())) return std::numeric_limits<int64_t>::max();
      }
      return int64_t(v);
    } else if constexpr (kIsPred<S>) {
      return elements<S>(l)[i].v != 0;
    } else {
      fail("index operand must be an integer, got " + typeString(l.type));
    }
  });
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    s *= dims[i];
  }
  return strides;
}

namespace {

template <size_t W>
void copyBoxOfWidth(const uint8_t* src, int64_t srcOffset, const std::vector<int64_t>& srcStrides, uint8_t* dst,
                    int64_t dstOffset, const std::vector<int64_t>& dstStrides, const std::vector<int64_t>& dims) {
  const size_t rank = dims.size();
  if (rank == 0) {
    std::memcpy(dst + dstOffset * W, src + srcOffset * W, W);
    return;
  }
  for (int64_t d : dims)
    if (d <= 0) return;
  const int64_t inner = dims[rank - 1], si = srcStrides[rank - 1], di = dstStrides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t s = srcOffset, t = dstOffset;
  while (true) {
    if (si == 1 && di == 1) {
      std::memcpy(dst + t * W, src + s * W, size_t(inner) * W);
    } else {
      const uint8_t* sp = src + s * W;
      uint8_t* dp = dst + t * W;
      for (int64_t j = 0; j < inner; ++j) std::memcpy(dp + j * di * int64_t(W), sp + j * si * int64_t(W), W);
    }
    // Advance the index over all dimensions but the last, like an odometer.
    size_t d = rank - 1;
    while (d > 0) {
      --d;
      s += srcStrides[d];
      t += dstStrides[d];
      if (++index[d] < dims[d]) break;
      s -= srcStrides[d] * dims[d];
      t -= dstStrides[d] * dims[d];
      index[d] = 0;
      if (d == 0) return;
    }
    if (rank == 1) return;
  }
}

}  // namespace

void copyBox(const uint8_t* src, int64_t srcOffset, const std::vector<int64_t>& srcStrides, uint8_t* dst,
             int64_t dstOffset, const std::vector<int64_t>& dstStrides, const std::vector<int64_t>& dims,
             size_t width) {
  switch (width) {
    case 1: return copyBoxOfWidth<1>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
    case 2: return copyBoxOfWidth<2>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
    case 4: return copyBoxOfWidth<4>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
    case 8: return copyBoxOfWidth<8>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
  }
  fail("unsupported element width " + std::to_string(width), ErrorCode::Internal);
}

Literal transposeLiteral(const Literal& x, const std::vector<int64_t>& perm) {
  TensorType type{x.type.element, {}};
  auto xStrides = rowMajorStrides(x.type.dims);
  std::vector<int64_t> srcStrides;
  for (int64_t p : perm) {
    type.dims.push_back(x.type.dims[size_t(p)]);
    srcStrides.push_back(xStrides[size_t(p)]);
  }
  Literal out = makeLiteral(type);
  copyBox(x.bytes.data(), 0, srcStrides, out.bytes.data(), 0, rowMajorStrides(type.dims), type.dims,
          byteWidth(type.element));
  return out;
}

namespace {
const Attribute& attr(const Op& op, const std::string& name, Attribute::Kind kind, const char* what) {
  auto it = op.attrs.find(name);
  if (it == op.attrs.end() || !it->second) fail("missing attribute " + name);
  if (it->second->kind != kind) fail("attribute " + name + " must be " + what);
  return *it->second;
}
}  // namespace

const std::vector<int64_t>& i64ArrayAttr(const Op& op, const std::string& name) {
  return attr(op, name, Attribute::Kind::I64Array, "an array<i64>").ints;
}

int64_t intAttr(const Op& op, const std::string& name) { return attr(op, name, Attribute::Kind::Int, "an integer").i; }

}  // namespace tpjrt::cpu
