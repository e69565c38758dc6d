// The op name → kernel table for single-result ops.
#include <unordered_map>

#include "kernels.h"

namespace tpjrt::cpu {

namespace {

template <UnaryOp kOp>
Literal unaryKernel(const Op&, const Operands& in, const TensorType& result) {
  return unary(kOp, *in[0], result);
}

template <BinaryOp kOp>
Literal binaryKernel(const Op&, const Operands& in, const TensorType& result) {
  return binary(kOp, *in[0], *in[1], result);
}

constexpr size_t kAny = ~size_t(0);

const std::unordered_map<std::string, KernelInfo>& table() {
  static const std::unordered_map<std::string, KernelInfo> kTable = {
      {"stablehlo.negate", {unaryKernel<UnaryOp::Negate>, true, 1, 1}},
      {"stablehlo.abs", {unaryKernel<UnaryOp::Abs>, true, 1, 1}},
      {"stablehlo.sign", {unaryKernel<UnaryOp::Sign>, true, 1, 1}},
      {"stablehlo.not", {unaryKernel<UnaryOp::Not>, true, 1, 1}},
      {"stablehlo.exponential", {unaryKernel<UnaryOp::Exp>, true, 1, 1}},
      {"stablehlo.exponential_minus_one", {unaryKernel<UnaryOp::Expm1>, true, 1, 1}},
      {"stablehlo.log", {unaryKernel<UnaryOp::Log>, true, 1, 1}},
      {"stablehlo.log_plus_one", {unaryKernel<UnaryOp::Log1p>, true, 1, 1}},
      {"stablehlo.logistic", {unaryKernel<UnaryOp::Logistic>, true, 1, 1}},
      {"stablehlo.tanh", {unaryKernel<UnaryOp::Tanh>, true, 1, 1}},
      {"stablehlo.sqrt", {unaryKernel<UnaryOp::Sqrt>, true, 1, 1}},
      {"stablehlo.rsqrt", {unaryKernel<UnaryOp::Rsqrt>, true, 1, 1}},
      {"stablehlo.cbrt", {unaryKernel<UnaryOp::Cbrt>, true, 1, 1}},
      {"stablehlo.sine", {unaryKernel<UnaryOp::Sin>, true, 1, 1}},
      {"stablehlo.cosine", {unaryKernel<UnaryOp::Cos>, true, 1, 1}},
      {"stablehlo.tan", {unaryKernel<UnaryOp::Tan>, true, 1, 1}},
      {"stablehlo.floor", {unaryKernel<UnaryOp::Floor>, true, 1, 1}},
      {"stablehlo.ceil", {unaryKernel<UnaryOp::Ceil>, true, 1, 1}},
      {"stablehlo.round_nearest_even", {unaryKernel<UnaryOp::RoundEven>, true, 1, 1}},
      {"stablehlo.round_nearest_afz", {unaryKernel<UnaryOp::RoundAwayFromZero>, true, 1, 1}},
      {"stablehlo.is_finite", {unaryKernel<UnaryOp::IsFinite>, true, 1, 1}},
      {"stablehlo.popcnt", {unaryKernel<UnaryOp::Popcnt>, true, 1, 1}},
      {"stablehlo.count_leading_zeros", {unaryKernel<UnaryOp::CountLeadingZeros>, true, 1, 1}},
      {"stablehlo.add", {binaryKernel<BinaryOp::Add>, true, 2, 2}},
      {"stablehlo.subtract", {binaryKernel<BinaryOp::Subtract>, true, 2, 2}},
      {"stablehlo.multiply", {binaryKernel<BinaryOp::Multiply>, true, 2, 2}},
      {"stablehlo.divide", {binaryKernel<BinaryOp::Divide>, true, 2, 2}},
      {"stablehlo.remainder", {binaryKernel<BinaryOp::Remainder>, true, 2, 2}},
      {"stablehlo.power", {binaryKernel<BinaryOp::Power>, true, 2, 2}},
      {"stablehlo.maximum", {binaryKernel<BinaryOp::Maximum>, true, 2, 2}},
      {"stablehlo.minimum", {binaryKernel<BinaryOp::Minimum>, true, 2, 2}},
      {"stablehlo.atan2", {binaryKernel<BinaryOp::Atan2>, true, 2, 2}},
      {"stablehlo.and", {binaryKernel<BinaryOp::And>, true, 2, 2}},
      {"stablehlo.or", {binaryKernel<BinaryOp::Or>, true, 2, 2}},
      {"stablehlo.xor", {binaryKernel<BinaryOp::Xor>, true, 2, 2}},
      {"stablehlo.shift_left", {binaryKernel<BinaryOp::ShiftLeft>, true, 2, 2}},
      {"stablehlo.shift_right_arithmetic", {binaryKernel<BinaryOp::ShiftRightArithmetic>, true, 2, 2}},
      {"stablehlo.shift_right_logical", {binaryKernel<BinaryOp::ShiftRightLogical>, true, 2, 2}},
      {"stablehlo.compare", {compareKernel, true, 2, 2}},
      {"stablehlo.select", {selectKernel, true, 3, 3}},
      {"stablehlo.clamp", {clampKernel, true, 3, 3}},
      {"stablehlo.convert", {convertKernel, true, 1, 1}},
      {"stablehlo.bitcast_convert", {bitcastConvertKernel, false, 1, 1}},
      {"stablehlo.iota", {iotaKernel, false, 0, 0}},
      {"stablehlo.broadcast_in_dim", {broadcastInDimKernel, false, 1, 1}},
      {"stablehlo.reshape", {reshapeKernel, false, 1, 1}},
      {"stablehlo.transpose", {transposeKernel, false, 1, 1}},
      {"stablehlo.slice", {sliceKernel, false, 1, 1}},
      {"stablehlo.dynamic_slice", {dynamicSliceKernel, false, 1, kAny}},
      {"stablehlo.dynamic_update_slice", {dynamicUpdateSliceKernel, false, 2, kAny}},
      {"stablehlo.concatenate", {concatenateKernel, false, 1, kAny}},
      {"stablehlo.pad", {padKernel, false, 2, 2}},
      {"stablehlo.reverse", {reverseKernel, false, 1, 1}},
      {"stablehlo.dot_general", {dotGeneralKernel, false, 2, 2}},
      {"stablehlo.gather", {gatherKernel, false, 2, 2}},
      {"stablehlo.convolution", {convolutionKernel, false, 2, 2}},
  };
  return kTable;
}

}  // namespace

const KernelInfo* findKernel(const std::string& name) {
  auto it = table().find(name);
  return it == table().end() ? nullptr : &it->second;
}

}  // namespace tpjrt::cpu
