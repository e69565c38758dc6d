// The float16 and bfloat16 conversions (ir/element_type.h), checked for every input: every float for
// float -> f16 and float -> bf16, every 16-bit pattern for f16 -> float and bf16 -> float. Each runs as
// an element loop in its baseline version and the version this CPU picks (kernels/isa_loops.h), and
// as the convert op's loop (kernels/convert.cc, F16C where the CPU has it) in every version this CPU
// can run, against references built here from the formats' values in double.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "base/cpu_features.h"
#include "check.h"
#include "ir/element_type.h"
#include "kernels/isa_loops.h"
#ifdef TPJRT_HAS_AVX2_LOOPS
#include <immintrin.h>
#endif

using namespace tpjrt::cpu;

namespace {

struct Format {
  const char* name;
  int exponentBits;
  int mantissaBits;
};
constexpr Format kHalf{"f16", 5, 10};
constexpr Format kBf16{"bf16", 8, 7};

constexpr uint32_t kFloatInfinity = 0x7f800000;

uint32_t allOnesExponent(Format f) { return ((1u << f.exponentBits) - 1) << f.mantissaBits; }

// The value of the pattern p without its sign bit; an all-ones exponent reads as one more binade.
double decode(Format f, uint32_t p) {
  const int bias = (1 << (f.exponentBits - 1)) - 1;
  const uint32_t e = p >> f.mantissaBits, m = p & ((1u << f.mantissaBits) - 1);
  if (e == 0) return std::ldexp(double(m), 1 - bias - f.mantissaBits);
  return std::ldexp(double(m | (1u << f.mantissaBits)), int(e) - bias - f.mantissaBits);
}

// A NaN keeps its sign and the top bits of its payload, and becomes quiet when narrowed.
uint32_t narrowedNan(Format f, uint32_t x) {
  return (x >> 31 << (f.exponentBits + f.mantissaBits)) | allOnesExponent(f) | (1u << (f.mantissaBits - 1)) |
         ((x >> (23 - f.mantissaBits)) & ((1u << f.mantissaBits) - 1));
}

// Round to nearest, ties to even, as runs over the non-negative float bit patterns up to infinity:
// the boundary between patterns k and k + 1 is the midpoint of their values (a float in both formats),
// and a float on it goes to the even one. Past the largest finite pattern lies infinity.
struct Run {
  uint32_t last;  // the run's last float pattern
  uint16_t value;
};
std::vector<Run> roundingRuns(Format f) {
  std::vector<Run> runs;
  const uint32_t infinity = allOnesExponent(f);
  uint32_t first = 0;
  for (uint32_t k = 0; k < infinity; ++k) {
    const double mid = (decode(f, k) + decode(f, k + 1)) / 2;
    CHECK(double(float(mid)) == mid);
    const uint32_t boundary = std::bit_cast<uint32_t>(float(mid));
    const bool even = (k & 1) == 0;
    runs.push_back({even ? boundary : boundary - 1, uint16_t(k)});
    first = even ? boundary + 1 : boundary;
  }
  CHECK(first <= kFloatInfinity);
  runs.push_back({kFloatInfinity, uint16_t(infinity)});
  return runs;
}

template <uint16_t (*Narrow)(float)>
TPJRT_LOOP_BODY void narrowPatterns(uint32_t first, uint16_t* out, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) out[i] = Narrow(std::bit_cast<float>(first + i));
}

template <float (*Widen)(uint16_t)>
TPJRT_LOOP_BODY void widenPatterns(uint32_t* out) {
  for (uint32_t i = 0; i < 65536; ++i) out[i] = std::bit_cast<uint32_t>(Widen(uint16_t(i)));
}

// Names the first mismatch among the n outputs from float pattern `first`; false when none.
bool reportMismatch(const char* what, uint32_t first, const uint16_t* out, int64_t n, const uint16_t* expected) {
  for (int64_t i = 0; i < n; ++i) {
    if (out[i] != expected[i]) {
      std::fprintf(stderr, "  %s: float 0x%08x gives 0x%04x, expected 0x%04x\n", what, first + uint32_t(i), out[i],
                   expected[i]);
      return true;
    }
  }
  return false;
}

// Runs `convert` over all 2^32 float patterns in chunks and compares each chunk with the rounding runs.
using NarrowLoop = void (*)(uint32_t, uint16_t*, uint32_t);
void checkEveryFloat(Format f, const char* isa, NarrowLoop convert) {
  const std::vector<Run> runs = roundingRuns(f);
  constexpr int64_t kChunk = 1 << 16;
  std::vector<uint16_t> out(kChunk), expected(kChunk);
  int64_t badChunks = 0;
  for (uint64_t first = 0; first < (uint64_t(1) << 32); first += kChunk) {
    convert(uint32_t(first), out.data(), kChunk);
    const uint32_t sign = uint32_t(first >> 31) << (f.exponentBits + f.mantissaBits);
    const uint32_t a = uint32_t(first) & 0x7fffffff;
    auto run = std::lower_bound(runs.begin(), runs.end(), a, [](const Run& r, uint32_t x) { return r.last < x; });
    uint16_t diff = 0;
    for (int64_t i = 0; i < kChunk;) {
      const uint32_t x = a + uint32_t(i);
      int64_t end = kChunk;
      if (x > kFloatInfinity) {
        for (; i < end; ++i) diff |= out[i] ^ uint16_t(narrowedNan(f, uint32_t(first) + uint32_t(i)));
        break;
      }
      while (run->last < x) ++run;
      end = std::min<int64_t>(end, i + int64_t(run->last - x) + 1);
      const uint16_t value = uint16_t(sign | run->value);
      for (; i < end; ++i) diff |= out[i] ^ value;
    }
    if (diff != 0) {
      if (++badChunks > 3) continue;
      // Spell out the expected chunk only to name the first wrong element.
      run = std::lower_bound(runs.begin(), runs.end(), a, [](const Run& r, uint32_t x) { return r.last < x; });
      for (int64_t i = 0; i < kChunk; ++i) {
        const uint32_t x = a + uint32_t(i);
        if (x > kFloatInfinity) {
          expected[i] = uint16_t(narrowedNan(f, uint32_t(first) + uint32_t(i)));
        } else {
          while (run->last < x) ++run;
          expected[i] = uint16_t(sign | run->value);
        }
      }
      std::fprintf(stderr, "  float -> %s (%s):\n", f.name, isa);
      reportMismatch(isa, uint32_t(first), out.data(), kChunk, expected.data());
    }
  }
  if (badChunks != 0) ::tpjrt::test::report(__FILE__, __LINE__, std::string("float -> ") + f.name + " wrong in " + isa);
}

void checkEveryPattern(Format f, const char* isa, void (*convert)(uint32_t*)) {
  std::vector<uint32_t> out(65536);
  convert(out.data());
  const int width = f.exponentBits + f.mantissaBits;
  int bad = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint32_t p = h & ((1u << width) - 1);
    const bool negative = (h >> width) != 0;
    uint32_t want;
    if (p > allOnesExponent(f)) {
      want = (negative ? 0x80000000 : 0) | kFloatInfinity | ((p & ((1u << f.mantissaBits) - 1)) << (23 - f.mantissaBits));
    } else {
      const double v = p == allOnesExponent(f) ? INFINITY : decode(f, p);
      want = std::bit_cast<uint32_t>(float(negative ? -v : v));
    }
    if (out[h] != want && bad++ < 3)
      std::fprintf(stderr, "  %s -> float (%s): 0x%04x gives 0x%08x, expected 0x%08x\n", f.name, isa, h, out[h], want);
  }
  if (bad != 0) ::tpjrt::test::report(__FILE__, __LINE__, std::string(f.name) + " -> float wrong in " + isa);
}

// Calls check(name, version) for the baseline version of Body and for the version this CPU picks.
template <auto Body, class Check>
void forEachIsa(Check check) {
  check("baseline", &IsaVersions<Body>::baseline);
#ifdef TPJRT_HAS_AVX2_LOOPS
  if (cpuHasAvx512f()) check("avx512", &IsaVersions<Body>::avx512);
  else if (cpuHasAvx2Fma()) check("avx2", &IsaVersions<Body>::avx2);
#endif
}

// The convert op's loop between two types, as convertLoop resolved it last (forEachConvertIsa), and
// whether it runs with MXCSR's flush-to-zero and denormals-are-zero on (the references are computed
// with them off).
ElementLoop convertLoopNow;
bool flushDenormals = false;

void runConvertLoop(const void* in, void* out, int64_t n, bool splat = false) {
#ifdef TPJRT_HAS_AVX2_LOOPS
  const unsigned mxcsr = _mm_getcsr();
  if (flushDenormals) _mm_setcsr(mxcsr | _MM_FLUSH_ZERO_ON | _MM_DENORMALS_ZERO_ON);
  convertLoopNow(&in, &splat, out, n);
  _mm_setcsr(mxcsr);
#else
  convertLoopNow(&in, &splat, out, n);
#endif
}

// Runs convertLoopNow over the float patterns first … first + n - 1.
void narrowWithConvertLoop(uint32_t first, uint16_t* out, uint32_t n) {
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = first + i;
  runConvertLoop(in.data(), out, n);
}

void widenWithConvertLoop(uint32_t* out) {
  std::vector<uint16_t> in(65536);
  for (uint32_t i = 0; i < 65536; ++i) in[i] = uint16_t(i);
  runConvertLoop(in.data(), out, 65536);
}

// Sets convertLoopNow to the loop from `from` to `to` in each version this CPU can run, and calls
// check(name) for each; the best runs once more with flush-to-zero and denormals-are-zero on, which
// must change nothing.
template <class Check>
void forEachConvertIsa(ElementType from, ElementType to, Check check) {
  useBaselineLoops(true);
  convertLoopNow = convertLoop(from, to);
  useBaselineLoops(false);
  check("convert loop, baseline");
#ifdef TPJRT_HAS_AVX2_LOOPS
  if (!cpuHasAvx2Fma()) return;
  useAvx2Loops(true);
  convertLoopNow = convertLoop(from, to);
  useAvx2Loops(false);
  check("convert loop, avx2");
  convertLoopNow = convertLoop(from, to);
  if (cpuHasAvx512f()) check("convert loop, avx512");
  flushDenormals = true;
  check("convert loop, best, FTZ and DAZ on");
  flushDenormals = false;
#endif
}

}  // namespace

TEST(every_float_narrows_to_half_as_rounded_in_double) {
  forEachIsa<&narrowPatterns<floatToHalf>>([](const char* isa, NarrowLoop loop) { checkEveryFloat(kHalf, isa, loop); });
}

TEST(every_float_narrows_to_bfloat16_as_rounded_in_double) {
  forEachIsa<&narrowPatterns<floatToBf16>>([](const char* isa, NarrowLoop loop) { checkEveryFloat(kBf16, isa, loop); });
}

TEST(every_half_widens_to_its_float) {
  forEachIsa<&widenPatterns<halfToFloat>>([](const char* isa, void (*loop)(uint32_t*)) { checkEveryPattern(kHalf, isa, loop); });
}

TEST(every_bfloat16_widens_to_its_float) {
  forEachIsa<&widenPatterns<bf16ToFloat>>([](const char* isa, void (*loop)(uint32_t*)) { checkEveryPattern(kBf16, isa, loop); });
}

TEST(convert_loops_match_the_rounding_over_every_input) {
  forEachConvertIsa(ElementType::F32, ElementType::F16, [](const char* isa) { checkEveryFloat(kHalf, isa, narrowWithConvertLoop); });
  forEachConvertIsa(ElementType::F16, ElementType::F32, [](const char* isa) { checkEveryPattern(kHalf, isa, widenWithConvertLoop); });
  forEachConvertIsa(ElementType::F32, ElementType::BF16, [](const char* isa) { checkEveryFloat(kBf16, isa, narrowWithConvertLoop); });
  forEachConvertIsa(ElementType::BF16, ElementType::F32, [](const char* isa) { checkEveryPattern(kBf16, isa, widenWithConvertLoop); });
}

// The convert loops on lengths that leave tails of every size after the vector part, from unaligned
// starts, and on a splat: the same bits as the conversion applied element by element.
TEST(convert_loops_handle_tails_and_splats) {
  std::vector<float> wide(80);
  for (size_t i = 0; i < wide.size(); ++i) wide[i] = std::ldexp(float(i) - 40.3f, int(i % 37) - 20);
  wide[7] = std::bit_cast<float>(0x7f800123u);
  std::vector<uint16_t> narrow(80);
  for (size_t i = 0; i < narrow.size(); ++i) narrow[i] = uint16_t(i * 0x3f3 + 0x7c01 * (i % 5 == 0));
  for (int64_t n = 0; n <= 40; ++n)
    for (int64_t at = 0; at < 3; ++at) {
      forEachConvertIsa(ElementType::F32, ElementType::F16, [&](const char* isa) {
        for (bool splat : {false, true}) {
          std::vector<uint16_t> out(static_cast<size_t>(n));
          runConvertLoop(wide.data() + at, out.data(), n, splat);
          for (int64_t i = 0; i < n; ++i)
            if (out[size_t(i)] != floatToHalf(wide[size_t(at + (splat ? 0 : i))]))
              ::tpjrt::test::report(__FILE__, __LINE__, std::string("float -> f16 ") + isa + ", n " + std::to_string(n));
        }
      });
      forEachConvertIsa(ElementType::F16, ElementType::F32, [&](const char* isa) {
        for (bool splat : {false, true}) {
          std::vector<float> out(static_cast<size_t>(n));
          runConvertLoop(narrow.data() + at, out.data(), n, splat);
          for (int64_t i = 0; i < n; ++i)
            if (std::bit_cast<uint32_t>(out[size_t(i)]) != std::bit_cast<uint32_t>(halfToFloat(narrow[size_t(at + (splat ? 0 : i))])))
              ::tpjrt::test::report(__FILE__, __LINE__, std::string("f16 -> float ") + isa + ", n " + std::to_string(n));
        }
      });
    }
}

// A few values spelled out, so that a wrong reference above cannot hide a wrong conversion.
TEST(known_values) {
  CHECK_EQ(floatToHalf(1.0f), 0x3c00);
  CHECK_EQ(floatToHalf(-2.0f), 0xc000);
  CHECK_EQ(floatToHalf(65504.0f), 0x7bff);
  CHECK_EQ(floatToHalf(65519.99f), 0x7bff);
  CHECK_EQ(floatToHalf(65520.0f), 0x7c00);
  CHECK_EQ(floatToHalf(-0.0f), 0x8000);
  CHECK_EQ(floatToHalf(0x1p-24f), 0x0001);
  CHECK_EQ(floatToHalf(0x1p-25f), 0x0000);            // a tie, to even
  CHECK_EQ(floatToHalf(0x1.8p-24f), 0x0002);          // a tie, to even
  CHECK_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3c00);     // a tie, to even
  CHECK_EQ(floatToHalf(1.0f + 0x1.8p-10f), 0x3c02);   // a tie, to even
  CHECK_EQ(floatToHalf(std::bit_cast<float>(0xff800001u)), 0xfe00);
  CHECK_EQ(floatToHalf(std::bit_cast<float>(0x7f802000u)), 0x7e01);
  CHECK_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);
  CHECK_EQ(floatToBf16(1.0f + 0x1.8p-7f), 0x3f82);
  CHECK_EQ(floatToBf16(std::bit_cast<float>(0x7f7fffffu)), 0x7f80);
  CHECK_EQ(floatToBf16(std::bit_cast<float>(0x7f800001u)), 0x7fc0);
  CHECK_EQ(std::bit_cast<uint32_t>(halfToFloat(0x8001)), 0xb3800000u);
  CHECK_EQ(std::bit_cast<uint32_t>(halfToFloat(0x7c01)), 0x7f802000u);
  CHECK_EQ(std::bit_cast<uint32_t>(bf16ToFloat(0xff81)), 0xff810000u);
}

TEST_MAIN()
