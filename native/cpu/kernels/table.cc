// The op name → kernel table for single-result ops.
#include <unordered_map>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

template <UnaryOp kOp>
ElementLoop unaryLoopOf(const Op&, const std::vector<ElementType>& in, ElementType result) {
  return unaryLoop(kOp, in.at(0), result);
}

template <BinaryOp kOp>
ElementLoop binaryLoopOf(const Op&, const std::vector<ElementType>& in, ElementType result) {
  return binaryLoop(kOp, in.at(0), in.at(1), result);
}

ElementLoop convertLoopOf(const Op&, const std::vector<ElementType>& in, ElementType result) {
  return convertLoop(in.at(0), result);
}

constexpr size_t kAny = ~size_t(0);

const std::unordered_map<std::string, KernelInfo>& table() {
  static const std::unordered_map<std::string, KernelInfo> kTable = {
      {"stablehlo.negate", {nullptr, unaryLoopOf<UnaryOp::Negate>, 1, 1}},
      {"stablehlo.abs", {nullptr, unaryLoopOf<UnaryOp::Abs>, 1, 1}},
      {"stablehlo.sign", {nullptr, unaryLoopOf<UnaryOp::Sign>, 1, 1}},
      {"stablehlo.not", {nullptr, unaryLoopOf<UnaryOp::Not>, 1, 1}},
      {"stablehlo.exponential", {nullptr, unaryLoopOf<UnaryOp::Exp>, 1, 1}},
      {"stablehlo.exponential_minus_one", {nullptr, unaryLoopOf<UnaryOp::Expm1>, 1, 1}},
      {"stablehlo.log", {nullptr, unaryLoopOf<UnaryOp::Log>, 1, 1}},
      {"stablehlo.log_plus_one", {nullptr, unaryLoopOf<UnaryOp::Log1p>, 1, 1}},
      {"stablehlo.logistic", {nullptr, unaryLoopOf<UnaryOp::Logistic>, 1, 1}},
      {"stablehlo.tanh", {nullptr, unaryLoopOf<UnaryOp::Tanh>, 1, 1}},
      {"chlo.erf", {nullptr, unaryLoopOf<UnaryOp::Erf>, 1, 1}},
      {"stablehlo.sqrt", {nullptr, unaryLoopOf<UnaryOp::Sqrt>, 1, 1}},
      {"stablehlo.rsqrt", {nullptr, unaryLoopOf<UnaryOp::Rsqrt>, 1, 1}},
      {"stablehlo.cbrt", {nullptr, unaryLoopOf<UnaryOp::Cbrt>, 1, 1}},
      {"stablehlo.sine", {nullptr, unaryLoopOf<UnaryOp::Sin>, 1, 1}},
      {"stablehlo.cosine", {nullptr, unaryLoopOf<UnaryOp::Cos>, 1, 1}},
      {"stablehlo.tan", {nullptr, unaryLoopOf<UnaryOp::Tan>, 1, 1}},
      {"stablehlo.floor", {nullptr, unaryLoopOf<UnaryOp::Floor>, 1, 1}},
      {"stablehlo.ceil", {nullptr, unaryLoopOf<UnaryOp::Ceil>, 1, 1}},
      {"stablehlo.round_nearest_even", {nullptr, unaryLoopOf<UnaryOp::RoundEven>, 1, 1}},
      {"stablehlo.round_nearest_afz", {nullptr, unaryLoopOf<UnaryOp::RoundAwayFromZero>, 1, 1}},
      {"stablehlo.is_finite", {nullptr, unaryLoopOf<UnaryOp::IsFinite>, 1, 1}},
      {"stablehlo.popcnt", {nullptr, unaryLoopOf<UnaryOp::Popcnt>, 1, 1}},
      {"stablehlo.count_leading_zeros", {nullptr, unaryLoopOf<UnaryOp::CountLeadingZeros>, 1, 1}},
      {"chlo.acos", {nullptr, unaryLoopOf<UnaryOp::Acos>, 1, 1}},
      {"chlo.acosh", {nullptr, unaryLoopOf<UnaryOp::Acosh>, 1, 1}},
      {"chlo.asin", {nullptr, unaryLoopOf<UnaryOp::Asin>, 1, 1}},
      {"chlo.asinh", {nullptr, unaryLoopOf<UnaryOp::Asinh>, 1, 1}},
      {"chlo.atan", {nullptr, unaryLoopOf<UnaryOp::Atan>, 1, 1}},
      {"chlo.atanh", {nullptr, unaryLoopOf<UnaryOp::Atanh>, 1, 1}},
      {"chlo.cosh", {nullptr, unaryLoopOf<UnaryOp::Cosh>, 1, 1}},
      {"chlo.sinh", {nullptr, unaryLoopOf<UnaryOp::Sinh>, 1, 1}},
      {"chlo.tan", {nullptr, unaryLoopOf<UnaryOp::Tan>, 1, 1}},
      {"chlo.erfc", {nullptr, unaryLoopOf<UnaryOp::Erfc>, 1, 1}},
      {"chlo.erf_inv", {nullptr, unaryLoopOf<UnaryOp::ErfInv>, 1, 1}},
      {"chlo.lgamma", {nullptr, unaryLoopOf<UnaryOp::Lgamma>, 1, 1}},
      {"chlo.digamma", {nullptr, unaryLoopOf<UnaryOp::Digamma>, 1, 1}},
      {"chlo.bessel_i1e", {nullptr, unaryLoopOf<UnaryOp::BesselI1e>, 1, 1}},
      {"chlo.next_after", {nullptr, binaryLoopOf<BinaryOp::NextAfter>, 2, 2}},
      {"chlo.polygamma", {nullptr, binaryLoopOf<BinaryOp::Polygamma>, 2, 2}},
      {"chlo.zeta", {nullptr, binaryLoopOf<BinaryOp::Zeta>, 2, 2}},
      {"chlo.mulhi", {nullptr, binaryLoopOf<BinaryOp::Mulhi>, 2, 2}},
      {"stablehlo.add", {nullptr, binaryLoopOf<BinaryOp::Add>, 2, 2}},
      {"stablehlo.subtract", {nullptr, binaryLoopOf<BinaryOp::Subtract>, 2, 2}},
      {"stablehlo.multiply", {nullptr, binaryLoopOf<BinaryOp::Multiply>, 2, 2}},
      {"stablehlo.divide", {nullptr, binaryLoopOf<BinaryOp::Divide>, 2, 2}},
      {"stablehlo.remainder", {nullptr, binaryLoopOf<BinaryOp::Remainder>, 2, 2}},
      {"stablehlo.power", {nullptr, binaryLoopOf<BinaryOp::Power>, 2, 2}},
      {"stablehlo.maximum", {nullptr, binaryLoopOf<BinaryOp::Maximum>, 2, 2}},
      {"stablehlo.minimum", {nullptr, binaryLoopOf<BinaryOp::Minimum>, 2, 2}},
      {"stablehlo.atan2", {nullptr, binaryLoopOf<BinaryOp::Atan2>, 2, 2}},
      {"stablehlo.and", {nullptr, binaryLoopOf<BinaryOp::And>, 2, 2}},
      {"stablehlo.or", {nullptr, binaryLoopOf<BinaryOp::Or>, 2, 2}},
      {"stablehlo.xor", {nullptr, binaryLoopOf<BinaryOp::Xor>, 2, 2}},
      {"stablehlo.shift_left", {nullptr, binaryLoopOf<BinaryOp::ShiftLeft>, 2, 2}},
      {"stablehlo.shift_right_arithmetic", {nullptr, binaryLoopOf<BinaryOp::ShiftRightArithmetic>, 2, 2}},
      {"stablehlo.shift_right_logical", {nullptr, binaryLoopOf<BinaryOp::ShiftRightLogical>, 2, 2}},
      {"stablehlo.compare", {nullptr, compareLoop, 2, 2}},
      {"stablehlo.select", {nullptr, selectLoop, 3, 3}},
      {"stablehlo.clamp", {nullptr, clampLoop, 3, 3}},
      {"stablehlo.convert", {nullptr, convertLoopOf, 1, 1}},
      {"stablehlo.bitcast_convert", {bitcastConvertKernel, nullptr, 1, 1}},
      {"stablehlo.iota", {iotaKernel, nullptr, 0, 0}},
      {"stablehlo.broadcast_in_dim", {broadcastInDimKernel, nullptr, 1, 1}},
      {"stablehlo.reshape", {viewOpKernel, nullptr, 1, 1}},
      {"stablehlo.transpose", {viewOpKernel, nullptr, 1, 1}},
      {"stablehlo.slice", {viewOpKernel, nullptr, 1, 1}},
      {"stablehlo.dynamic_slice", {dynamicSliceKernel, nullptr, 1, kAny}},
      {"stablehlo.dynamic_update_slice", {dynamicUpdateSliceKernel, nullptr, 2, kAny}},
      {"stablehlo.concatenate", {concatenateKernel, nullptr, 1, kAny}},
      {"stablehlo.pad", {padKernel, nullptr, 2, 2}},
      {"stablehlo.reverse", {reverseKernel, nullptr, 1, 1}},
      {"stablehlo.dot_general", {dotGeneralKernel, nullptr, 2, 2}},
      {"stablehlo.gather", {gatherKernel, nullptr, 2, 2}},
      {"stablehlo.convolution", {convolutionKernel, nullptr, 2, 2}},
      {"stablehlo.reduce_precision", {reducePrecisionKernel, nullptr, 1, 1}},
      {"stablehlo.triangular_solve", {triangularSolveKernel, nullptr, 2, 2}},
      {"stablehlo.cholesky", {choleskyKernel, nullptr, 1, 1}},
  };
  return kTable;
}

}  // namespace

const KernelInfo* findKernel(const std::string& name) {
  auto it = table().find(name);
  return it == table().end() ? nullptr : &it->second;
}

}  // namespace tpjrt::cpu
