// Helpers shared by the kernels: transposed copies, the compute type of mixed types, attribute access.
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

// i1, then integers by width (signed above unsigned), then floats by range and then significand.
int precisionRank(ElementType t) {
  switch (t) {
    case ElementType::Pred: return 0;
    case ElementType::U8: return 16;
    case ElementType::S8: return 17;
    case ElementType::U16: return 32;
    case ElementType::S16: return 33;
    case ElementType::U32: return 64;
    case ElementType::S32: return 65;
    case ElementType::U64: return 128;
    case ElementType::S64: return 129;
    case ElementType::F16: return 1001;
    case ElementType::BF16: return 1002;
    case ElementType::F32: return 1003;
    case ElementType::F64: return 1004;
    default: return 0;  // narrow types are widened before any product (ir/widen_narrow_types.h)
  }
}

const Attribute& attr(const Op& op, const std::string& name, Attribute::Kind kind, const char* what) {
  auto it = op.attrs.find(name);
  if (it == op.attrs.end() || !it->second) fail("missing attribute " + name);
  if (it->second->kind != kind) fail("attribute " + name + " must be " + what);
  return *it->second;
}
}  // namespace

ElementType mostPrecise(ElementType a, ElementType b) { return precisionRank(b) > precisionRank(a) ? b : a; }

void requireRank(const std::vector<int64_t>& list, size_t rank, const char* what) {
  if (list.size() != rank) fail(std::string(what) + " must have one entry per dimension");
}

const std::vector<int64_t>& i64ArrayAttr(const Op& op, const std::string& name) {
  return attr(op, name, Attribute::Kind::I64Array, "an array<i64>").ints;
}

int64_t intAttr(const Op& op, const std::string& name) { return attr(op, name, Attribute::Kind::Int, "an integer").i; }

}  // namespace tpjrt::cpu
