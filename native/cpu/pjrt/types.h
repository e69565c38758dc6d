// Maps between PJRT_Buffer_Type and the plugin's ElementType.
#pragma once

#include <optional>
#include <string>

#include "ir/ir.h"
#include "pjrt_c_api.h"

namespace tpjrt::cpu {

std::optional<ElementType> elementTypeOf(PJRT_Buffer_Type type);
PJRT_Buffer_Type bufferTypeOf(ElementType type);
// "F32", "C64", … or "type 42" for values no header names.
std::string bufferTypeName(PJRT_Buffer_Type type);

}  // namespace tpjrt::cpu
