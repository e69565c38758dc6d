// Type rules for reduce_window, select_and_scatter, convolution, while and case (StableHLO spec
// constraints); the rows that name them are in ir/verify_ops.cc's table.
#include "base/error.h"
#include "ir/element_type.h"
#include "ir/verifier_internal.h"
#include "ir/window_geometry.h"

namespace tpjrt::cpu {

namespace {

// Runs a geometry reader, turning its error into one that names the op and line.
template <class Fn>
auto checked(const OpCheck& c, Fn&& fn) {
  try {
    return fn();
  } catch (const CpuError& e) {
    c.fail(e.what());
  }
}

void regionArgs(const OpCheck& c, const Region& r, const std::vector<TensorType>& expected, const char* what) {
  if (r.argTypes != expected) c.fail(std::string(what) + " arguments (" + typeList(r.argTypes) + ") should be (" + typeList(expected) + ")");
}

}  // namespace

void verifyReduceWindow(const OpCheck& c) {
  const size_t total = c.op.operandTypes.size(), n = total / 2;
  if (total == 0 || total % 2 != 0) c.fail("expects inputs and as many init values, got " + std::to_string(total) + " operands");
  if (c.op.resultTypes.size() != n) c.fail("expects " + std::to_string(n) + " results, got " + std::to_string(c.op.resultTypes.size()));
  const TensorType& first = c.in(0);
  const Window w = checked(c, [&] { return readWindow(c.op, first.dims.size()); });
  const auto outDims = windowOutputDims(first.dims, w);
  std::vector<TensorType> inits;
  for (size_t i = 0; i < n; ++i) {
    if (c.in(i).dims != first.dims) c.fail("input types " + typeString(first) + " and " + typeString(c.in(i)) + " differ in shape");
    if (c.in(n + i) != TensorType{c.in(i).element, {}})
      c.fail("init value " + typeString(c.in(n + i)) + " must be a 0-d tensor of the element type of " + typeString(c.in(i)));
    TensorType expected{c.in(i).element, outDims};
    if (c.out(i) != expected) c.fail("result type " + typeString(c.out(i)) + " should be " + typeString(expected));
    inits.push_back(c.in(n + i));
  }
  const Region& body = c.op.regions.at(0);
  std::vector<TensorType> args = inits;
  args.insert(args.end(), inits.begin(), inits.end());
  regionArgs(c, body, args, "body");
  verifyRegion(c.module, body, "stablehlo.return", inits, "the stablehlo.reduce_window body", c.op.line);
  verifyReduceBody(body);
}

void verifySelectAndScatter(const OpCheck& c) {
  c.arity(3, 1);
  const TensorType& x = c.in(0);
  const Window w = checked(c, [&] { return readWindow(c.op, x.dims.size()); });
  if (c.op.attrs.count("base_dilations") || c.op.attrs.count("window_dilations"))
    c.fail("select_and_scatter takes no dilations");
  TensorType source{x.element, windowOutputDims(x.dims, w)};
  if (c.in(1) != source) c.fail("source type " + typeString(c.in(1)) + " should be " + typeString(source));
  TensorType scalar{x.element, {}};
  if (c.in(2) != scalar) c.fail("init value " + typeString(c.in(2)) + " should be " + typeString(scalar));
  if (c.out() != x) c.fail("result type " + typeString(c.out()) + " should be " + typeString(x));
  const Region& select = c.op.regions.at(0);
  const Region& scatter = c.op.regions.at(1);
  regionArgs(c, select, {scalar, scalar}, "select");
  regionArgs(c, scatter, {scalar, scalar}, "scatter");
  verifyRegion(c.module, select, "stablehlo.return", {TensorType{ElementType::Pred, {}}}, "the select region", c.op.line);
  verifyRegion(c.module, scatter, "stablehlo.return", {scalar}, "the scatter region", c.op.line);
  verifyReduceBody(select);
  verifyReduceBody(scatter);
}

void verifyConvolution(const OpCheck& c) {
  c.arity(2, 1);
  const TensorType& lhs = c.in(0);
  const TensorType& rhs = c.in(1);
  if (lhs.dims.size() != rhs.dims.size() || lhs.dims.size() < 2)
    c.fail("lhs " + typeString(lhs) + " and rhs " + typeString(rhs) + " need one rank of at least 2");
  const ConvParams p = checked(c, [&] { return readConvParams(c.op, lhs.dims.size()); });
  // The result's element type may differ from the operands' (i8 x i8 -> i32, bf16 x bf16 -> f32), as XLA allows.
  const TensorType expected{c.out().element, checked(c, [&] { return convOutputType(lhs, rhs, p); }).dims};
  if (c.out() != expected) c.fail("result type " + typeString(c.out()) + " should be " + typeString(expected));
}

void verifyWhile(const OpCheck& c) {
  const auto& types = c.op.operandTypes;
  if (c.op.resultTypes != types) c.fail("result types (" + typeList(c.op.resultTypes) + ") should be (" + typeList(types) + ")");
  const Region& cond = c.op.regions.at(0);
  const Region& body = c.op.regions.at(1);
  regionArgs(c, cond, types, "cond");
  regionArgs(c, body, types, "body");
  verifyRegion(c.module, cond, "stablehlo.return", {TensorType{ElementType::Pred, {}}}, "the while cond", c.op.line);
  verifyRegion(c.module, body, "stablehlo.return", types, "the while body", c.op.line);
}

void verifyCase(const OpCheck& c) {
  if (c.op.operandTypes.size() != 1 || c.in(0) != TensorType{ElementType::S32, {}})
    c.fail("expects one index operand of type tensor<i32>");
  for (const Region& branch : c.op.regions) {
    regionArgs(c, branch, {}, "branch");
    verifyRegion(c.module, branch, "stablehlo.return", c.op.resultTypes, "a stablehlo.case branch", c.op.line);
  }
}

}  // namespace tpjrt::cpu
