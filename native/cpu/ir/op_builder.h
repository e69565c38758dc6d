// Building ops for the passes that rewrite one op into others (ir/lower_chlo.h, ir/lower_spec_ops.h):
// attribute values, and an OpBuilder that appends new ops in place of the op being rewritten, with
// fresh value ids for what they define.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/error.h"
#include "ir/ir.h"

namespace tpjrt::cpu {

AttributePtr share(Attribute a);
AttributePtr intsAttr(std::vector<int64_t> v);
AttributePtr intAttr(int64_t v);
AttributePtr symbolAttr(std::string v);
AttributePtr boolAttr(bool v);
// A splat dense attribute of `type` holding `bits` (little-endian, the element's width).
AttributePtr splatAttr(const TensorType& type, uint64_t bits);
// The bits of `v` as an element of the float type `t`.
uint64_t floatBits(ElementType t, double v);
// A region (a reduce's body) of two arguments of the 0-d type `scalar` that returns `combiner` of them.
Region binaryRegion(Module& module, const TensorType& scalar, const std::string& combiner, int line);

class OpBuilder {
 public:
  // Ops replacing `op` go to `out`.
  OpBuilder(Module& module, const Op& op, std::vector<Op>& out) : module_(module), op_(op), out_(out) {}

  // Throws CpuError naming the line and the op being rewritten.
  [[noreturn]] void error(const std::string& message, ErrorCode code = ErrorCode::InvalidArgument) const;
  void arity(size_t operands, size_t results) const;

  // Emits `name(operands) : types -> result`; returns its result's id (`id`, or a fresh one when -1).
  int emit(const std::string& name, const std::vector<int>& operands, const std::vector<TensorType>& types,
           const TensorType& result, std::map<std::string, AttributePtr> attrs = {}, int id = -1);
  int splat(const TensorType& type, uint64_t bits);

 protected:
  Module& module_;
  const Op& op_;
  std::vector<Op>& out_;
};

}  // namespace tpjrt::cpu
