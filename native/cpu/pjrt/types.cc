#include "pjrt/types.h"

namespace tpjrt::cpu {
namespace {

struct TypePair {
  PJRT_Buffer_Type pjrt;
  ElementType element;
};

constexpr TypePair kSupported[] = {
    {PJRT_Buffer_Type_PRED, ElementType::Pred}, {PJRT_Buffer_Type_S8, ElementType::S8},
    {PJRT_Buffer_Type_S16, ElementType::S16},   {PJRT_Buffer_Type_S32, ElementType::S32},
    {PJRT_Buffer_Type_S64, ElementType::S64},   {PJRT_Buffer_Type_U8, ElementType::U8},
    {PJRT_Buffer_Type_U16, ElementType::U16},   {PJRT_Buffer_Type_U32, ElementType::U32},
    {PJRT_Buffer_Type_U64, ElementType::U64},   {PJRT_Buffer_Type_F16, ElementType::F16},
    {PJRT_Buffer_Type_BF16, ElementType::BF16}, {PJRT_Buffer_Type_F32, ElementType::F32},
    {PJRT_Buffer_Type_F64, ElementType::F64},
};

// Indexed by PJRT_Buffer_Type value (section 2.1 of the fact sheet).
constexpr const char* kNames[] = {
    "INVALID", "PRED", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64", "F16", "F32", "F64", "BF16", "C64",
    "C128", "F8E5M2", "F8E4M3FN", "F8E4M3B11FNUZ", "F8E5M2FNUZ", "F8E4M3FNUZ", "S4", "U4", "TOKEN", "S2", "U2",
    "F8E4M3", "F8E3M4", "F8E8M0FNU", "F4E2M1FN", "S1", "U1"};

}  // namespace

std::optional<ElementType> elementTypeOf(PJRT_Buffer_Type type) {
  for (const auto& p : kSupported)
    if (p.pjrt == type) return p.element;
  return std::nullopt;
}

PJRT_Buffer_Type bufferTypeOf(ElementType type) {
  for (const auto& p : kSupported)
    if (p.element == type) return p.pjrt;
  return PJRT_Buffer_Type_INVALID;
}

std::string bufferTypeName(PJRT_Buffer_Type type) {
  int v = int(type);
  if (v >= 0 && v < int(sizeof(kNames) / sizeof(kNames[0]))) return kNames[v];
  return "type " + std::to_string(v);
}

}  // namespace tpjrt::cpu
