// Reads a region's ops one by one against an expected shape, for the kernels that recognise the
// bodies torch-pjrt's lowering prints (kernels/sort_native.cc, kernels/reduce_arg.cc). Each call
// takes the next op and returns its result id when the op is the one asked for, with exactly those
// operands, else -1; the caller checks at the end that every op was taken and what the region returns.
#pragma once

#include <algorithm>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

struct BodyReader {
  const Region& r;
  size_t at = 0;

  // The next op when it is `name` with `operands` operands and one result.
  const Op* next(const char* name, size_t operands) {
    if (at >= r.ops.size()) return nullptr;
    const Op& op = r.ops[at++];
    return op.name == name && op.operands.size() == operands && op.results.size() == 1 ? &op : nullptr;
  }
  // compare(lhs, rhs) in `direction`, of the default comparison (no compare_type, or FLOAT, SIGNED or
  // UNSIGNED: not TOTALORDER).
  int compare(int lhs, int rhs, const char* direction) {
    const Op* op = next("stablehlo.compare", 2);
    if (!op || op->operands[0] != lhs || op->operands[1] != rhs) return -1;
    auto d = op->attrs.find("comparison_direction");
    if (d == op->attrs.end() || !d->second || d->second->kind != Attribute::Kind::Symbol || d->second->s != direction)
      return -1;
    auto t = op->attrs.find("compare_type");
    if (t != op->attrs.end() && (!t->second || (t->second->s != "FLOAT" && t->second->s != "SIGNED" && t->second->s != "UNSIGNED")))
      return -1;
    return op->results[0];
  }
  int binary(const char* name, int lhs, int rhs) {
    const Op* op = next(name, 2);
    return op && op->operands[0] == lhs && op->operands[1] == rhs ? op->results[0] : -1;
  }
  int unary(const char* name, int x) {
    const Op* op = next(name, 1);
    return op && op->operands[0] == x ? op->results[0] : -1;
  }
  int select(int p, int t, int f) {
    const Op* op = next("stablehlo.select", 3);
    return op && op->operands[0] == p && op->operands[1] == t && op->operands[2] == f ? op->results[0] : -1;
  }
  // Whether every op before the terminator was taken and the terminator returns `results`.
  bool returns(const std::vector<int>& results) const {
    return at + 1 == r.ops.size() && isTerminator(r.ops.back()) && r.ops.back().operands == results &&
           std::find(results.begin(), results.end(), -1) == results.end();
  }
};

}  // namespace tpjrt::cpu
