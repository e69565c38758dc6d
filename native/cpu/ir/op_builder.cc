// See ir/op_builder.h.
#include "ir/op_builder.h"

#include <cstring>

#include "base/error.h"
#include "ir/element_type.h"
#include "ir/narrow_types.h"

namespace tpjrt::cpu {

AttributePtr share(Attribute a) { return std::make_shared<const Attribute>(std::move(a)); }

AttributePtr intsAttr(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::I64Array;
  a.ints = std::move(v);
  return share(std::move(a));
}

AttributePtr intAttr(int64_t v) {
  Attribute a;
  a.kind = Attribute::Kind::Int;
  a.i = v;
  a.type.element = ElementType::S64;
  return share(std::move(a));
}

AttributePtr symbolAttr(std::string v) {
  Attribute a;
  a.kind = Attribute::Kind::Symbol;
  a.s = std::move(v);
  return share(std::move(a));
}

AttributePtr boolAttr(bool v) {
  Attribute a;
  a.kind = Attribute::Kind::Bool;
  a.b = v;
  return share(std::move(a));
}

AttributePtr splatAttr(const TensorType& type, uint64_t bits) {
  Attribute a;
  a.kind = Attribute::Kind::Dense;
  a.type = type;
  a.dense.type = type;
  a.dense.bytes = Bytes(byteWidth(type.element));
  std::memcpy(a.dense.bytes.mutableData(), &bits, byteWidth(type.element));
  return share(std::move(a));
}

uint64_t floatBits(ElementType t, double v) {
  switch (t) {
    case ElementType::F64: {
      uint64_t b;
      std::memcpy(&b, &v, 8);
      return b;
    }
    case ElementType::F32: {
      const float f = float(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
    case ElementType::F16: return floatToHalf(float(v));
    case ElementType::BF16: return floatToBf16(float(v));
    default:
      if (isNarrow(t)) return narrowFloatBits(t, v);
      fail("not a float type: " + std::string(mlirName(t)), ErrorCode::Internal);
  }
}

Region binaryRegion(Module& module, const TensorType& scalar, const std::string& combiner, int line) {
  Region body;
  body.argTypes = {scalar, scalar};
  body.args = {module.numValues, module.numValues + 1};
  module.numValues += 2;
  Op fold;
  fold.name = combiner;
  fold.line = line;
  fold.operands = body.args;
  fold.operandTypes = body.argTypes;
  fold.resultTypes = {scalar};
  fold.results = {module.numValues++};
  Op ret;
  ret.name = "stablehlo.return";
  ret.line = line;
  ret.operands = fold.results;
  ret.operandTypes = fold.resultTypes;
  body.ops.push_back(std::move(fold));
  body.ops.push_back(std::move(ret));
  return body;
}

void OpBuilder::error(const std::string& message, ErrorCode code) const {
  fail("line " + std::to_string(op_.line) + ": " + op_.name + ": " + message, code);
}

void OpBuilder::arity(size_t operands, size_t results) const {
  if (op_.operandTypes.size() != operands || op_.resultTypes.size() != results)
    error("expects " + std::to_string(operands) + " operands and " + std::to_string(results) + " results");
}

int OpBuilder::emit(const std::string& name, const std::vector<int>& operands, const std::vector<TensorType>& types,
                    const TensorType& result, std::map<std::string, AttributePtr> attrs, int id) {
  Op op;
  op.name = name;
  op.line = op_.line;
  op.operands = operands;
  op.operandTypes = types;
  op.resultTypes = {result};
  op.results = {id >= 0 ? id : module_.numValues++};
  op.attrs = std::move(attrs);
  out_.push_back(std::move(op));
  return out_.back().results[0];
}

int OpBuilder::splat(const TensorType& type, uint64_t bits) {
  return emit("stablehlo.constant", {}, {}, type, {{"value", splatAttr(type, bits)}});
}

}  // namespace tpjrt::cpu
