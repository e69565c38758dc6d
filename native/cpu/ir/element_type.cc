#include "ir/element_type.h"

#include <cstring>
#include <limits>

#include "base/error.h"

namespace tpjrt::cpu {

namespace {

struct TypeFacts {
  ElementType type;
  std::string_view name;
  size_t width;
};

constexpr TypeFacts kTypes[] = {
    {ElementType::Pred, "i1", 1},   {ElementType::S8, "i8", 1},     {ElementType::S16, "i16", 2},
    {ElementType::S32, "i32", 4},   {ElementType::S64, "i64", 8},   {ElementType::U8, "ui8", 1},
    {ElementType::U16, "ui16", 2},  {ElementType::U32, "ui32", 4},  {ElementType::U64, "ui64", 8},
    {ElementType::F16, "f16", 2},   {ElementType::BF16, "bf16", 2}, {ElementType::F32, "f32", 4},
    {ElementType::F64, "f64", 8},     {ElementType::S2, "i2", 1},     {ElementType::S4, "i4", 1},
    {ElementType::U2, "ui2", 1},      {ElementType::U4, "ui4", 1},    {ElementType::F8E5M2, "f8E5M2", 1},
    {ElementType::F8E4M3FN, "f8E4M3FN", 1},           {ElementType::F8E4M3FNUZ, "f8E4M3FNUZ", 1},
    {ElementType::F8E5M2FNUZ, "f8E5M2FNUZ", 1},       {ElementType::F8E4M3B11FNUZ, "f8E4M3B11FNUZ", 1},
    {ElementType::F8E4M3, "f8E4M3", 1},               {ElementType::F8E3M4, "f8E3M4", 1},
    {ElementType::F8E8M0FNU, "f8E8M0FNU", 1},         {ElementType::F4E2M1FN, "f4E2M1FN", 1},
};

const TypeFacts& facts(ElementType t) {
  auto i = static_cast<size_t>(t);
  if (i >= std::size(kTypes)) fail("unknown element type " + std::to_string(i), ErrorCode::Internal);
  return kTypes[i];
}

}  // namespace

size_t byteWidth(ElementType t) { return facts(t).width; }

std::string_view mlirName(ElementType t) { return facts(t).name; }

std::optional<ElementType> parseMlirElementType(std::string_view s) {
  for (const auto& f : kTypes)
    if (f.name == s) return f.type;
  return std::nullopt;
}

bool isFloat(ElementType t) {
  return t == ElementType::F16 || t == ElementType::BF16 || t == ElementType::F32 || t == ElementType::F64 ||
         t >= ElementType::F8E5M2;
}

bool isSignedInt(ElementType t) {
  return (t >= ElementType::S8 && t <= ElementType::S64) || t == ElementType::S2 || t == ElementType::S4;
}

bool isUnsignedInt(ElementType t) {
  return (t >= ElementType::U8 && t <= ElementType::U64) || t == ElementType::U2 || t == ElementType::U4;
}

bool isInteger(ElementType t) { return isSignedInt(t) || isUnsignedInt(t); }

int64_t numElements(const TensorType& t) {
  int64_t n = 1;
  for (int64_t d : t.dims) n *= d;
  return n;
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

int64_t readIndex(const Literal& l, int64_t i) {
  const size_t width = byteWidth(l.type.element);
  if (l.bytes.size() == width) i = 0;  // a splat attribute holds one element
  const uint8_t* at = l.bytes.data() + size_t(i) * width;
  auto load = [at](auto v) {
    std::memcpy(&v, at, sizeof v);
    return v;
  };
  switch (l.type.element) {
    case ElementType::Pred: return load(uint8_t{}) != 0;
    case ElementType::S2:
    case ElementType::S4:
    case ElementType::S8: return load(int8_t{});
    case ElementType::U2:
    case ElementType::U4: return load(uint8_t{});
    case ElementType::S16: return load(int16_t{});
    case ElementType::S32: return load(int32_t{});
    case ElementType::S64: return load(int64_t{});
    case ElementType::U8: return load(uint8_t{});
    case ElementType::U16: return load(uint16_t{});
    case ElementType::U32: return load(uint32_t{});
    case ElementType::U64: {
      const uint64_t v = load(uint64_t{});
      return v > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max() : int64_t(v);
    }
    default: break;
  }
  fail("index operand must be an integer, got " + typeString(l.type));
}

std::string typeString(const TensorType& t) {
  std::string s = "tensor<";
  for (int64_t d : t.dims) s += std::to_string(d) + "x";
  s += mlirName(t.element);
  return s + ">";
}

}  // namespace tpjrt::cpu
