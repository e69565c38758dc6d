// The StableHLO verifier's shared pieces: ir/verifier.cc walks modules, functions and regions;
// ir/verify_ops.cc holds one type rule per op the interpreter runs (that table is the list of supported
// ops). Only verifyModule (ir/stablehlo.h) is public.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

// One op under check; every failure names its line and op.
class OpCheck {
 public:
  OpCheck(const Op& op, const Module& module) : op(op), module(module) {}

  [[noreturn]] void fail(const std::string& message) const;
  void arity(size_t operands, size_t results) const;
  const TensorType& in(size_t i) const { return op.operandTypes.at(i); }
  const TensorType& out(size_t i = 0) const { return op.resultTypes.at(i); }
  const Attribute* optional(const char* key) const;
  const std::vector<int64_t>& intList(const char* key) const;  // a required I64Array
  int64_t intAttr(const char* key) const;                       // a required Int
  std::string symbol(const char* key) const;                    // a required Symbol

  const Op& op;
  const Module& module;
};

using OpRule = void (*)(const OpCheck&);

// The rule for `name`, or nullptr when the plugin does not run that op.
OpRule findOpRule(const std::string& name);

// Checks `region`'s ops and that it ends with `terminator` returning `returnTypes`.
void verifyRegion(const Module& module, const Region& region, const std::string& terminator,
                  const std::vector<TensorType>& returnTypes, const std::string& owner, int ownerLine);

// Checks a reduce body: only ops the interpreter runs element-wise there, and no values from outside.
void verifyReduceBody(const Region& body, const std::string& owner = "stablehlo.reduce");

// gather, scatter and sort (ir/verify_gather_scatter.cc).
void verifyGather(const OpCheck& c);
void verifyScatter(const OpCheck& c);
void verifySort(const OpCheck& c);

// Rules in ir/verify_window_conv.cc.
void verifyReduceWindow(const OpCheck& c);
void verifySelectAndScatter(const OpCheck& c);
void verifyConvolution(const OpCheck& c);
void verifyWhile(const OpCheck& c);
void verifyCase(const OpCheck& c);

std::string typeList(const std::vector<TensorType>& types);  // "tensor<2xf32>, tensor<i1>"

}  // namespace tpjrt::cpu
