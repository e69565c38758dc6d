// Facts about the plugin's element types and shapes: byte width, MLIR spelling, element counts and
// row-major strides, and reading an integer element as an index.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

size_t byteWidth(ElementType t);
std::string_view mlirName(ElementType t);                       // "f32", "i1", "ui8", "bf16", …
std::optional<ElementType> parseMlirElementType(std::string_view s);  // inverse of mlirName
bool isFloat(ElementType t);        // f16, bf16, f32, f64 and the narrow floats
bool isSignedInt(ElementType t);    // i2, i4, i8 … i64
bool isUnsignedInt(ElementType t);  // ui2, ui4, ui8 … ui64
bool isInteger(ElementType t);      // signed or unsigned, not Pred
int64_t numElements(const TensorType& t);
std::string typeString(const TensorType& t);  // "tensor<2x3xf32>"
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& dims);

// Reads element `i` of an integer or pred literal as int64 (unsigned values above INT64_MAX saturate);
// a literal of one element (a splat attribute) gives that element for every `i`.
int64_t readIndex(const Literal& l, int64_t i = 0);

// Half-precision conversions (round to nearest even).
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float bf16ToFloat(uint16_t h);
uint16_t floatToBf16(float f);

}  // namespace tpjrt::cpu
