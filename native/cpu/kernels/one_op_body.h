// The body reduce, reduce_window and scatter run as typed loops: one commutative binary op of the
// region's two arguments, `return op(a, b)` (either order), and that op on computed values.
#pragma once

#include <optional>
#include <type_traits>

#include "kernels/isa_loops.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

// add, multiply, maximum, minimum, and, or or xor when `op`'s one region is that op alone; else empty.
std::optional<BinaryOp> oneOpBody(const Op& op);

// The element types with typed loops for these ops: integers and floats, not pred or the narrow types.
bool hasTypedLoop(ElementType t);

constexpr bool isBitwise(BinaryOp op) { return op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor; }

// The op on computed values (ComputeOf<S>): integers wrap, bool's add and maximum are or, its
// multiply and minimum are and.
template <BinaryOp kOp, class C>
TPJRT_LOOP_BODY C combine(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    if constexpr (kOp == BinaryOp::Add || kOp == BinaryOp::Maximum || kOp == BinaryOp::Or) return a || b;
    else if constexpr (kOp == BinaryOp::Xor) return a != b;
    else return a && b;
  } else if constexpr (kOp == BinaryOp::Add) {
    if constexpr (std::is_integral_v<C>) return C(Wide<C>(a) + Wide<C>(b));
    else return a + b;
  } else if constexpr (kOp == BinaryOp::Multiply) {
    if constexpr (std::is_integral_v<C>) return C(Wide<C>(a) * Wide<C>(b));
    else return a * b;
  } else if constexpr (kOp == BinaryOp::Maximum) {
    return maxValue(a, b);
  } else if constexpr (kOp == BinaryOp::Minimum) {
    return minValue(a, b);
  } else if constexpr (std::is_integral_v<C>) {
    if constexpr (kOp == BinaryOp::And) return C(a & b);
    else if constexpr (kOp == BinaryOp::Or) return C(a | b);
    else return C(a ^ b);
  } else {
    fail("bitwise op on a float type");
  }
}

// One step on computed values, rounded to the storage type S as the body's result is.
template <class S, BinaryOp kOp>
TPJRT_LOOP_BODY ComputeOf<S> combineRounded(ComputeOf<S> acc, ComputeOf<S> v) {
  return Num<S>::load(Num<S>::store(combine<kOp>(acc, v)));
}

// Calls fn(std::integral_constant<BinaryOp, op>) for one of oneOpBody's ops; with kBitwise false only
// the four arithmetic ones are instantiated (the caller has ruled the others out).
template <bool kBitwise = true, class Fn>
void withBinaryOp(BinaryOp op, Fn&& fn) {
  switch (op) {
    case BinaryOp::Add: return fn(std::integral_constant<BinaryOp, BinaryOp::Add>{});
    case BinaryOp::Multiply: return fn(std::integral_constant<BinaryOp, BinaryOp::Multiply>{});
    case BinaryOp::Maximum: return fn(std::integral_constant<BinaryOp, BinaryOp::Maximum>{});
    case BinaryOp::Minimum: return fn(std::integral_constant<BinaryOp, BinaryOp::Minimum>{});
    default: break;
  }
  if constexpr (kBitwise) {
    switch (op) {
      case BinaryOp::And: return fn(std::integral_constant<BinaryOp, BinaryOp::And>{});
      case BinaryOp::Or: return fn(std::integral_constant<BinaryOp, BinaryOp::Or>{});
      case BinaryOp::Xor: return fn(std::integral_constant<BinaryOp, BinaryOp::Xor>{});
      default: break;
    }
  }
  fail("not a one-op body", ErrorCode::Internal);
}

}  // namespace tpjrt::cpu
