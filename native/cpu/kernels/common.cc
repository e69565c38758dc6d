// Helpers shared by the kernels: index reading, strides, transposed copies and attribute access.
#include "kernels/kernels.h"
#include "kernels/views.h"

namespace tpjrt::cpu {

int64_t readIndex(const Literal& l, int64_t i) {
  if (l.bytes.size() == byteWidth(l.type.element)) i = 0;  // a splat attribute holds one element
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

Literal transposeLiteral(const Literal& x, const std::vector<int64_t>& perm) {
  TensorType type{x.type.element, {}};
  const ViewLayout from = layoutOf(x);
  std::vector<int64_t> srcStrides;
  for (int64_t p : perm) {
    type.dims.push_back(x.type.dims[size_t(p)]);
    srcStrides.push_back(from.strides[size_t(p)]);
  }
  Literal out = uninitializedLiteral(type);
  copyBox(x.bytes.data(), from.offset, srcStrides, out.bytes.mutableData(), 0, rowMajorStrides(type.dims), type.dims,
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

void requireRank(const std::vector<int64_t>& list, size_t rank, const char* what) {
  if (list.size() != rank) fail(std::string(what) + " must have one entry per dimension");
}

const std::vector<int64_t>& i64ArrayAttr(const Op& op, const std::string& name) {
  return attr(op, name, Attribute::Kind::I64Array, "an array<i64>").ints;
}

int64_t intAttr(const Op& op, const std::string& name) { return attr(op, name, Attribute::Kind::Int, "an integer").i; }

}  // namespace tpjrt::cpu
