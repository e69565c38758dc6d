// Helpers shared by the kernels: transposed copies and attribute access.
#include "kernels/kernels.h"
#include "kernels/views.h"

namespace tpjrt::cpu {

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
