// convert (value conversion between any two element types, the narrow ones too) and bitcast_convert
// (bit reinterpretation).
#include <algorithm>

#include "ir/narrow_types.h"
#include "kernels/isa_loops.h"
#ifdef TPJRT_HAS_AVX2_LOOPS
#include <immintrin.h>
#endif

namespace tpjrt::cpu {

namespace {

template <class From, class To>
TPJRT_LOOP_BODY void convertRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const From* px = static_cast<const From*>(in[0]);
  To* o = static_cast<To*>(out);
  if (splat[0]) {
    std::fill_n(o, n, Num<To>::store(convertValue<To>(Num<From>::load(px[0]))));
    return;
  }
  for (int64_t i = 0; i < n; ++i) o[i] = Num<To>::store(convertValue<To>(Num<From>::load(px[i])));
}

#ifdef TPJRT_HAS_AVX2_LOOPS
// float <-> float16 with F16C, 8 (AVX2) or 16 (AVX-512) elements an instruction, with the bits of the
// portable conversion for every input (half_conversion_test.cc); a splat and the tail take the portable
// one. vcvtps2ph rounds to nearest even as its immediate says, whatever MXCSR holds. vcvtph2ps quiets
// a signalling NaN, which the portable widening keeps as it is, so that bit is cleared again.
#define TPJRT_F16C_AVX2 __attribute__((target(TPJRT_AVX2_ISA ",f16c")))
#define TPJRT_F16C_AVX512 __attribute__((target(TPJRT_AVX512_ISA ",f16c")))

constexpr int kRound = _MM_FROUND_TO_NEAREST_INT;
constexpr int32_t kQuietBit = 1 << 22;  // of a float

TPJRT_F16C_AVX2 void narrowF16cAvx2(const void* const* in, const bool* splat, void* out, int64_t n) {
  if (splat[0]) return convertRange<float, Half>(in, splat, out, n);
  const float* x = static_cast<const float*>(in[0]);
  Half* o = static_cast<Half*>(out);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i), _mm256_cvtps_ph(_mm256_loadu_ps(x + i), kRound));
  for (; i < n; ++i) o[i] = Num<Half>::store(x[i]);
}

TPJRT_F16C_AVX512 void narrowF16cAvx512(const void* const* in, const bool* splat, void* out, int64_t n) {
  if (splat[0]) return convertRange<float, Half>(in, splat, out, n);
  const float* x = static_cast<const float*>(in[0]);
  Half* o = static_cast<Half*>(out);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), _mm512_cvtps_ph(_mm512_loadu_ps(x + i), kRound));
  for (; i < n; ++i) o[i] = Num<Half>::store(x[i]);
}

// Signalling NaNs have magnitudes 0x7c01 … 0x7dff.
TPJRT_F16C_AVX2 void widenF16cAvx2(const void* const* in, const bool* splat, void* out, int64_t n) {
  if (splat[0]) return convertRange<Half, float>(in, splat, out, n);
  const Half* x = static_cast<const Half*>(in[0]);
  float* o = static_cast<float*>(out);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i));
    const __m128i magnitude = _mm_and_si128(h, _mm_set1_epi16(0x7fff));
    const __m128i signalling = _mm_and_si128(_mm_cmpgt_epi16(magnitude, _mm_set1_epi16(0x7c00)),
                                             _mm_cmplt_epi16(magnitude, _mm_set1_epi16(0x7e00)));
    const __m256i quieted = _mm256_and_si256(_mm256_cvtepi16_epi32(signalling), _mm256_set1_epi32(kQuietBit));
    const __m256 f = _mm256_castsi256_ps(_mm256_andnot_si256(quieted, _mm256_castps_si256(_mm256_cvtph_ps(h))));
    _mm256_storeu_ps(o + i, f);
  }
  for (; i < n; ++i) o[i] = Num<Half>::load(x[i]);
}

TPJRT_F16C_AVX512 void widenF16cAvx512(const void* const* in, const bool* splat, void* out, int64_t n) {
  if (splat[0]) return convertRange<Half, float>(in, splat, out, n);
  const Half* x = static_cast<const Half*>(in[0]);
  float* o = static_cast<float*>(out);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    const __m256i magnitude = _mm256_and_si256(h, _mm256_set1_epi16(0x7fff));
    const __mmask16 signalling = _mm256_cmpgt_epi16_mask(magnitude, _mm256_set1_epi16(0x7c00)) &
                                 _mm256_cmplt_epi16_mask(magnitude, _mm256_set1_epi16(0x7e00));
    const __m512i f = _mm512_castps_si512(_mm512_cvtph_ps(h));
    _mm512_storeu_si512(o + i, _mm512_mask_andnot_epi32(f, signalling, _mm512_set1_epi32(kQuietBit), f));
  }
  for (; i < n; ++i) o[i] = Num<Half>::load(x[i]);
}
#endif

// The loop that converts From to To on this CPU.
template <class From, class To>
ElementLoop convertLoopFor() {
#ifdef TPJRT_HAS_AVX2_LOOPS
  using Portable = IsaVersions<&convertRange<From, To>>;
  if constexpr (std::is_same_v<From, float> && std::is_same_v<To, Half>)
    if (cpuHasF16c()) return pickIsa<ElementLoop>(&Portable::baseline, &narrowF16cAvx2, &narrowF16cAvx512);
  if constexpr (std::is_same_v<From, Half> && std::is_same_v<To, float>)
    if (cpuHasF16c()) return pickIsa<ElementLoop>(&Portable::baseline, &widenF16cAvx2, &widenF16cAvx512);
#endif
  return isaLoop<&convertRange<From, To>>();
}

// The narrow types (ir/narrow_types.h), one byte each: read as double (floats) or int64 (integers), and
// written from any value with the narrow type's rounding, saturation or wrap.
template <ElementType N>
struct Narrow {
  static constexpr bool kFloat = N >= ElementType::F8E5M2;
  static auto load(uint8_t b) {
    if constexpr (kFloat) return narrowFloatValue(N, b);
    else if constexpr (N == ElementType::S2 || N == ElementType::S4) return int64_t(int8_t(b));
    else return int64_t(b);
  }
  template <class C>
  static uint8_t store(C v) {
    if constexpr (kFloat) return narrowFloatBits(N, double(v));
    else if constexpr (std::is_floating_point_v<C>) return uint8_t(saturateNarrowInt(N, v));
    else return uint8_t(wrapNarrowInt(N, int64_t(v)));
  }
};

template <class Fn>
ElementLoop dispatchNarrow(ElementType t, Fn&& fn) {
  switch (t) {
    case ElementType::S2: return fn(Narrow<ElementType::S2>{});
    case ElementType::S4: return fn(Narrow<ElementType::S4>{});
    case ElementType::U2: return fn(Narrow<ElementType::U2>{});
    case ElementType::U4: return fn(Narrow<ElementType::U4>{});
    case ElementType::F8E5M2: return fn(Narrow<ElementType::F8E5M2>{});
    case ElementType::F8E4M3FN: return fn(Narrow<ElementType::F8E4M3FN>{});
    case ElementType::F8E4M3FNUZ: return fn(Narrow<ElementType::F8E4M3FNUZ>{});
    case ElementType::F8E5M2FNUZ: return fn(Narrow<ElementType::F8E5M2FNUZ>{});
    case ElementType::F8E4M3B11FNUZ: return fn(Narrow<ElementType::F8E4M3B11FNUZ>{});
    case ElementType::F8E4M3: return fn(Narrow<ElementType::F8E4M3>{});
    case ElementType::F8E3M4: return fn(Narrow<ElementType::F8E3M4>{});
    case ElementType::F8E8M0FNU: return fn(Narrow<ElementType::F8E8M0FNU>{});
    case ElementType::F4E2M1FN: return fn(Narrow<ElementType::F4E2M1FN>{});
    default: fail(std::string(mlirName(t)) + " is not a narrow type", ErrorCode::Internal);
  }
}

template <class From, class To>
void narrowRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const auto* x = static_cast<const uint8_t*>(in[0]);
  auto* o = static_cast<uint8_t*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = To::store(From::load(x[splat[0] ? 0 : i]));
}

template <class From, class To>
void fromNarrowRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const auto* x = static_cast<const uint8_t*>(in[0]);
  To* o = static_cast<To*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = Num<To>::store(convertValue<To>(From::load(x[splat[0] ? 0 : i])));
}

template <class From, class To>
void toNarrowRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const From* x = static_cast<const From*>(in[0]);
  auto* o = static_cast<uint8_t*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = To::store(Num<From>::load(x[splat[0] ? 0 : i]));
}

}  // namespace

ElementLoop convertLoop(ElementType from, ElementType to) {
  if (isNarrow(from) && isNarrow(to))
    return dispatchNarrow(from, [&](auto a) { return dispatchNarrow(to, [&](auto b) -> ElementLoop { return &narrowRange<decltype(a), decltype(b)>; }); });
  if (isNarrow(from))
    return dispatchNarrow(from, [&](auto a) { return dispatchType(to, [&](auto b) -> ElementLoop { return &fromNarrowRange<decltype(a), decltype(b)>; }); });
  if (isNarrow(to))
    return dispatchNarrow(to, [&](auto b) { return dispatchType(from, [&](auto a) -> ElementLoop { return &toNarrowRange<decltype(a), decltype(b)>; }); });
  return dispatchType(from, [&](auto fromTag) -> ElementLoop {
    return dispatchType(to, [&](auto toTag) -> ElementLoop { return convertLoopFor<decltype(fromTag), decltype(toTag)>(); });
  });
}

Literal convertLiteral(Literal x, ElementType to) {
  if (x.type.element == to) return x;
  const Literal* operand[] = {&x};
  return runElementwise(convertLoop(x.type.element, to), operand, TensorType{to, x.type.dims});
}

// Row-major bytes are the same before and after: a wider operand element becomes a trailing dimension
// of narrower result elements (and back), in memory order.
Literal bitcastConvertKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  if (size_t(numElements(result)) * byteWidth(result.element) != x.bytes.size())
    fail("cannot reinterpret " + typeString(x.type) + " as " + typeString(result));
  return Literal{result, x.bytes};  // the same bytes, shared
}

}  // namespace tpjrt::cpu
