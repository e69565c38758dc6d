// Private to the CPU plugin: the kernels the interpreter calls, and the element-type machinery they
// share. A kernel reads its operands and returns a new literal of exactly the result type it is given
// (the interpreter passes a lane-shaped type when it evaluates a reduce body over many lanes at once).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "base/error.h"
#include "ir/element_type.h"
#include "ir/ir.h"

namespace tpjrt::cpu {

// Elements (or reduced elements) a piece of work must have before kernels split it over the pool.
inline constexpr int64_t kParallelElements = 1 << 16;

// Storage types for the element types that have no C++ type of their own.
struct Pred { uint8_t v; };
struct Half { uint16_t bits; };
struct BFloat { uint16_t bits; };

// Num<S>: how a stored element of type S is loaded into the type kernels compute in (C) and stored back.
// Half types compute in float and round back on store.
template <class S>
struct Num {
  using C = S;
  static C load(S s) { return s; }
  static S store(C c) { return c; }
};
template <>
struct Num<Pred> {
  using C = bool;
  static bool load(Pred s) { return s.v != 0; }
  static Pred store(bool c) { return Pred{uint8_t(c ? 1 : 0)}; }
};
// Always inlined, also into the AVX2 and AVX-512 versions of a loop (isa_loops.h), which GCC would
// otherwise leave calling them, unvectorised, once the loop body grows.
template <>
struct Num<Half> {
  using C = float;
  [[gnu::always_inline]] static float load(Half s) { return halfToFloat(s.bits); }
  [[gnu::always_inline]] static Half store(float c) { return Half{floatToHalf(c)}; }
};
template <>
struct Num<BFloat> {
  using C = float;
  [[gnu::always_inline]] static float load(BFloat s) { return bf16ToFloat(s.bits); }
  [[gnu::always_inline]] static BFloat store(float c) { return BFloat{floatToBf16(c)}; }
};

template <class S> using ComputeOf = typename Num<S>::C;

// A long array of indices or offsets (a sort's permutation, a scatter's targets): storage from the block
// cache (ir/ir.h), not zeroed first, so a kernel's scratch arrays take no fresh pages at every call.
using IndexArray = std::vector<int64_t, NoInitAllocator<int64_t>>;
template <class S> inline constexpr bool kIsPred = std::is_same_v<S, Pred>;
template <class S> inline constexpr bool kIsFloat = std::is_floating_point_v<ComputeOf<S>>;
template <class S> inline constexpr bool kIsInt = std::is_integral_v<S>;  // Pred is a struct, so not here

// Integer arithmetic wraps: it runs in an unsigned type at least as wide as int, then truncates.
template <class T> using Wide = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;

// Calls fn(U{}) with the unsigned integer type U of `width` bytes (1, 2, 4 or 8), for kernels that only
// move elements; false, without calling fn, for any other width.
template <class Fn>
bool withStorageWidth(size_t width, Fn&& fn) {
  switch (width) {
    case 1: fn(uint8_t{}); return true;
    case 2: fn(uint16_t{}); return true;
    case 4: fn(uint32_t{}); return true;
    case 8: fn(uint64_t{}); return true;
    default: return false;
  }
}

// Calls fn(S{}) with the storage type of `t`; the one place that switches on the element type.
template <class Fn>
decltype(auto) dispatchType(ElementType t, Fn&& fn) {
  switch (t) {
    case ElementType::Pred: return fn(Pred{});
    case ElementType::S8: return fn(int8_t{});
    case ElementType::S16: return fn(int16_t{});
    case ElementType::S32: return fn(int32_t{});
    case ElementType::S64: return fn(int64_t{});
    case ElementType::U8: return fn(uint8_t{});
    case ElementType::U16: return fn(uint16_t{});
    case ElementType::U32: return fn(uint32_t{});
    case ElementType::U64: return fn(uint64_t{});
    case ElementType::F16: return fn(Half{});
    case ElementType::BF16: return fn(BFloat{});
    case ElementType::F32: return fn(float{});
    case ElementType::F64: return fn(double{});
    default: break;  // the narrow types: only converted and moved (ir/narrow_types.h)
  }
  fail("element type " + std::string(mlirName(t)) + " is only converted and moved by the cpu plugin", ErrorCode::Unimplemented);
}

// A literal of `type`, zero-filled or not; running out of memory names the type.
inline Literal allocateLiteral(const TensorType& type, bool zero) {
  const size_t bytes = size_t(numElements(type)) * byteWidth(type.element);
  try {
    return Literal{type, zero ? Bytes(bytes, 0) : Bytes(bytes)};
  } catch (const CpuError& e) {
    if (e.code() != ErrorCode::ResourceExhausted) throw;
    throw CpuError(e.code(), std::string(e.what()) + " for " + typeString(type));
  }
}
// A literal of `type` with every element zero.
inline Literal makeLiteral(const TensorType& type) { return allocateLiteral(type, true); }
// A literal of `type` whose elements the caller writes, every one of them.
inline Literal uninitializedLiteral(const TensorType& type) { return allocateLiteral(type, false); }
template <class S> S* elements(Literal& l) { return reinterpret_cast<S*>(l.bytes.mutableData()); }
template <class S> const S* elements(const Literal& l) { return reinterpret_cast<const S*>(l.bytes.data()); }

// Converts a computed value to the compute type of D the way XLA does: float to integer truncates
// and saturates (NaN becomes 0); to pred is "!= 0"; integers wrap; f64 reaches half types through f32.
template <class D, class C>
ComputeOf<D> convertValue(C v) {
  using DC = ComputeOf<D>;
  if constexpr (kIsPred<D>) {
    return v != C(0);
  } else if constexpr (std::is_floating_point_v<DC> || !std::is_floating_point_v<C>) {
    return static_cast<DC>(v);
  } else {
    if (std::isnan(v)) return 0;
    double d = double(v);
    constexpr double above = 2.0 * double(DC(1) << (std::numeric_limits<DC>::digits - 1));
    if (d >= above) return std::numeric_limits<DC>::max();
    if (d <= double(std::numeric_limits<DC>::lowest())) return std::numeric_limits<DC>::lowest();
    return static_cast<DC>(d);
  }
}

// NaN-propagating maximum/minimum that order -0 below +0, as XLA CPU does. Floats are chosen without
// branches, so that loops over them vectorise: of two equal values the bitwise AND (maximum) or OR
// (minimum) is +0 (or -0) for a pair of zeros and the value itself otherwise; a NaN operand wins, the
// first if both are.
template <class C>
C sameOrSignedZero(C a, C b, bool forMax) {
  using Bits = std::conditional_t<sizeof(C) == 4, uint32_t, uint64_t>;
  const Bits x = std::bit_cast<Bits>(a), y = std::bit_cast<Bits>(b);
  return std::bit_cast<C>(forMax ? Bits(x & y) : Bits(x | y));
}
template <class C>
C maxValue(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    C m = a > b ? a : b;
    m = a == b ? sameOrSignedZero(a, b, true) : m;
    m = b != b ? b : m;
    return a != a ? a : m;
  }
  return a < b ? b : a;
}
template <class C>
C minValue(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    C m = b < a ? b : a;
    m = a == b ? sameOrSignedZero(a, b, false) : m;
    m = b != b ? b : m;
    return a != a ? a : m;
  }
  return b < a ? b : a;
}

// Copies the box `dims` element by element: source element at srcOffset + Σ index·srcStrides, to
// destination at dstOffset + Σ index·dstStrides (all in elements of `width` bytes; strides may be 0
// or negative).
void copyBox(const uint8_t* src, int64_t srcOffset, const std::vector<int64_t>& srcStrides, uint8_t* dst,
             int64_t dstOffset, const std::vector<int64_t>& dstStrides, const std::vector<int64_t>& dims,
             size_t width);

// A box of `dims` read through `src` strides and written through `dst` strides, without its size-1
// dimensions and with neighbours that are contiguous on both sides merged into one (kernels/copy_box.cc).
struct StridedBox {
  std::vector<int64_t> dims, src, dst;
};
StridedBox simplifyBox(const std::vector<int64_t>& dims, const std::vector<int64_t>& src, const std::vector<int64_t>& dst);

// For broadcast_in_dim: the operand's element stride along each result dimension (0 where it is
// broadcast); fails when `map` does not describe a valid broadcast.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& operandDims, const std::vector<int64_t>& map,
                                      const std::vector<int64_t>& resultDims);

// The type products of mixed element types are computed in (dot_general, convolution): the more precise of
// the two, ordering i1 < integers by width (signed above unsigned) < f16 < bf16 < f32 < f64.
ElementType mostPrecise(ElementType a, ElementType b);

// The operand (dense or a view) permuted so that its dimension perm[i] becomes dimension i, dense.
Literal transposeLiteral(const Literal& x, const std::vector<int64_t>& perm);

// --- kernels ---------------------------------------------------------------------------------------

using Operands = std::vector<const Literal*>;
// Every single-result kernel that is not element-wise has this shape; `result` is the type to produce.
using Kernel = Literal (*)(const Op& op, const Operands& in, const TensorType& result);

// An element-wise op resolved for its element types: computes n results into `out` from one pointer per
// operand. An operand marked in `splat` points at its one element, which stands for every position.
using ElementLoop = void (*)(const void* const* in, const bool* splat, void* out, int64_t n);
// Resolves an element-wise op for its operand and result element types; fails for types it does not define.
using ElementLoopMaker = ElementLoop (*)(const Op& op, const std::vector<ElementType>& in, ElementType result);
inline constexpr size_t kMaxElementwiseOperands = 3;

struct KernelInfo {
  Kernel run = nullptr;              // ops that are not element-wise
  ElementLoopMaker loop = nullptr;   // element-wise ops (operands of one element broadcast)
  size_t minOperands = 0, maxOperands = 0;
  bool elementwise() const { return loop != nullptr; }
};
// The kernel for a single-result op name such as "stablehlo.add", or nullptr when there is none.
const KernelInfo* findKernel(const std::string& name);

// Runs an element-wise loop over whole operands into a new literal of type `result`, split over the
// current thread pool when big.
Literal runElementwise(ElementLoop loop, std::span<const Literal* const> in, const TensorType& result);

enum class UnaryOp {
  Negate, Abs, Sign, Not, Exp, Expm1, Log, Log1p, Logistic, Tanh, Erf, Sqrt, Rsqrt, Cbrt, Sin, Cos, Tan,
  Floor, Ceil, RoundEven, RoundAwayFromZero, IsFinite, Popcnt, CountLeadingZeros,
  // CHLO's math functions (kernels/special_math.h for the special ones)
  Acos, Acosh, Asin, Asinh, Atan, Atanh, Cosh, Sinh, Erfc, ErfInv, Lgamma, Digamma, BesselI1e
};
ElementLoop unaryLoop(UnaryOp op, ElementType x, ElementType result);

enum class BinaryOp {
  Add, Subtract, Multiply, Divide, Remainder, Power, Maximum, Minimum, Atan2, And, Or, Xor,
  ShiftLeft, ShiftRightArithmetic, ShiftRightLogical,
  NextAfter, Polygamma, Zeta, Mulhi  // CHLO's
};
ElementLoop binaryLoop(BinaryOp op, ElementType a, ElementType b, ElementType result);

ElementLoop compareLoop(const Op& op, const std::vector<ElementType>& in, ElementType result);
ElementLoop selectLoop(const Op& op, const std::vector<ElementType>& in, ElementType result);
ElementLoop clampLoop(const Op& op, const std::vector<ElementType>& in, ElementType result);
ElementLoop convertLoop(ElementType from, ElementType to);
// Copies elements of `width` bytes (a reshape, in row-major order).
ElementLoop copyLoop(size_t width);
// Sets every element of `out` (dense) to the one element whose bytes are `value`.
void fillWith(Literal& out, const Bytes& value);
// `count` copies of the one element of `scalar`, as a 1-d literal.
Literal splatLiteral(const Literal& scalar, int64_t count);
// `x` converted to element type `to` (the same literal when it already has it).
Literal convertLiteral(Literal x, ElementType to);
Literal bitcastConvertKernel(const Op& op, const Operands& in, const TensorType& result);

Literal iotaKernel(const Op& op, const Operands& in, const TensorType& result);
Literal broadcastInDimKernel(const Op& op, const Operands& in, const TensorType& result);
Literal viewOpKernel(const Op& op, const Operands& in, const TensorType& result);  // reshape, transpose, slice
Literal dynamicSliceKernel(const Op& op, const Operands& in, const TensorType& result);
Literal dynamicUpdateSliceKernel(const Op& op, const Operands& in, const TensorType& result);
Literal concatenateKernel(const Op& op, const Operands& in, const TensorType& result);
Literal padKernel(const Op& op, const Operands& in, const TensorType& result);
Literal reverseKernel(const Op& op, const Operands& in, const TensorType& result);
Literal dotGeneralKernel(const Op& op, const Operands& in, const TensorType& result);
// dot_general(in) + `row` broadcast along the result's last dimension (f32 and f64 results), rounded as
// the separate add would be; the GEMM adds it while each tile is in cache.
Literal dotGeneralAddRow(const Op& op, const Operands& in, const Literal& row, const TensorType& result);

// reduce: `in` holds the N inputs then the N init values. `body` evaluates the reducer region once
// for a whole vector of lanes: its 2N arguments and N results are 1-d literals of equal length.
using Value = std::shared_ptr<const Literal>;
using ReduceBody = std::function<std::vector<Value>(const std::vector<Value>& args)>;
std::vector<Literal> reduceKernel(const Op& op, const Operands& in, const ReduceBody& body);

Literal gatherKernel(const Op& op, const Operands& in, const TensorType& result);
// scatter of N `inputs` (the results are written into their storage, copied first where it is shared)
// by `indices` and N `updates`; `body` is the update computation in lane mode (N current values, then
// N updates).
std::vector<Literal> scatterKernel(const Op& op, std::vector<Literal> inputs, const Literal& indices,
                                   const Operands& updates, const ReduceBody& body);
// sort: `less` is the comparator in lane mode (lhs and rhs of operand 0, then of operand 1, …). With
// `prefix` > 0 only positions [0, prefix) of each sorted slice need to hold the sorted order (when the
// comparator is one kernels/sort_native.cc recognises, the rest are left unwritten).
std::vector<Literal> sortKernel(const Op& op, const Operands& in, const ReduceBody& less, int64_t prefix = 0);
// reduce_window: like reduce, `body` runs over lanes (one per output element). select_and_scatter:
// `select` maps (selected, candidate) lanes to i1 lanes, `scatter` maps (accumulated, source) lanes.
std::vector<Literal> reduceWindowKernel(const Op& op, const Operands& in, const ReduceBody& body);
Literal selectAndScatterKernel(const Op& op, const Operands& in, const ReduceBody& select, const ReduceBody& scatter);
Literal convolutionKernel(const Op& op, const Operands& in, const TensorType& result);
Literal reducePrecisionKernel(const Op& op, const Operands& in, const TensorType& result);
Literal triangularSolveKernel(const Op& op, const Operands& in, const TensorType& result);
Literal choleskyKernel(const Op& op, const Operands& in, const TensorType& result);

// Attribute access for kernels; a missing or mistyped attribute is an error naming it.
const std::vector<int64_t>& i64ArrayAttr(const Op& op, const std::string& name);
// Fails unless `list` (an attribute named `what`) has `rank` entries.
void requireRank(const std::vector<int64_t>& list, size_t rank, const char* what);
int64_t intAttr(const Op& op, const std::string& name);

}  // namespace tpjrt::cpu
