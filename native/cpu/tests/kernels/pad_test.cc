// stablehlo.pad (kernels/layout.cc: the edges filled piece by piece, the operand copied as a box) against
// an element-by-element pad written here: edge padding of either sign, interior padding, everything
// cropped away, ranks 0 to 4, every element width, with and without a pool. Operands hold distinct bit
// patterns and the padding value another, so any misplaced, missing or altered element shows.
#include <cstring>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

struct PadCase {
  const char* what;
  std::vector<int64_t> dims, low, high, interior;
};

std::string i64Array(const std::vector<int64_t>& v) {
  std::string s = "array<i64";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : ": ") + std::to_string(v[i]);
  return s + ">";
}

std::string tensorType(const std::vector<int64_t>& dims, const char* element) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + element + ">";
}

std::vector<int64_t> paddedDims(const PadCase& c) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < c.dims.size(); ++d)
    out.push_back(c.low[d] + c.high[d] + c.dims[d] + std::max<int64_t>(c.dims[d] - 1, 0) * c.interior[d]);
  return out;
}

// The padded bytes, one output element at a time: the operand element that lands there, else the value.
std::vector<uint8_t> reference(const PadCase& c, const std::vector<uint8_t>& x, const uint8_t* value, size_t width) {
  const std::vector<int64_t> outDims = paddedDims(c);
  int64_t total = 1;
  for (int64_t d : outDims) total *= d;
  std::vector<uint8_t> out(size_t(total) * width);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat, source = 0, stride = 1;
    bool inside = true;
    for (size_t d = outDims.size(); d-- > 0;) {
      const int64_t o = rest % outDims[d] - c.low[d], step = c.interior[d] + 1;
      rest /= outDims[d];
      inside = inside && o >= 0 && o % step == 0 && o / step < c.dims[d];
      source += o / step * stride;
      stride *= c.dims[d];
    }
    std::memcpy(out.data() + flat * int64_t(width), inside ? x.data() + source * int64_t(width) : value, width);
  }
  return out;
}

void checkPad(const PadCase& c, const char* element, size_t width, bool pooled) {
  int64_t count = 1;
  for (int64_t d : c.dims) count *= d;
  std::vector<uint8_t> x(size_t(count) * width);
  for (size_t i = 0; i < x.size(); ++i) x[i] = uint8_t((i * 131 + i / 251) ^ 0x5a);
  const uint8_t value[8] = {0xc3, 0xff, 0x81, 0x7f, 0x12, 0xa5, 0xf8, 0x7f};  // a NaN with a payload, as f32

  const std::string in = tensorType(c.dims, element), out = tensorType(paddedDims(c), element),
                    scalar = tensorType({}, element);
  const std::string text = "func.func public @main(%x: " + in + ", %v: " + scalar + ") -> " + out + " {\n" +
                           "  %p = \"stablehlo.pad\"(%x, %v) {edge_padding_low = " + i64Array(c.low) +
                           ", edge_padding_high = " + i64Array(c.high) + ", interior_padding = " + i64Array(c.interior) +
                           "} : (" + in + ", " + scalar + ") -> " + out + "\n" +
                           "  \"func.return\"(%p) : (" + out + ") -> ()\n}\n";
  Module m = parseModule(text);
  const ElementType t = m.find("main")->body.argTypes[0].element;
  Literal xl{{t, c.dims}, Bytes(x.size())}, vl{{t, {}}, Bytes(width)};
  if (!x.empty()) std::memcpy(xl.bytes.mutableData(), x.data(), x.size());
  std::memcpy(vl.bytes.mutableData(), value, width);

  ThreadPool pool(3);
  ThreadPoolScope scope(pooled ? &pool : nullptr);
  const auto result = interpret(m, *m.find("main"), {xl, vl});
  const std::vector<uint8_t> got = read<uint8_t>(result[0]);
  if (got != reference(c, x, value, width))
    ::tpjrt::test::report(__FILE__, __LINE__, std::string(c.what) + ", " + element + (pooled ? ", pooled" : ", one thread"));
}

}  // namespace

TEST(pad_matches_an_element_by_element_pad) {
  const std::vector<PadCase> cases = {
      {"columns added (F.pad(x, [0, 512]))", {1024, 1024}, {0, 0}, {0, 512}, {0, 0}},
      {"rows and columns on every side", {300, 257}, {3, 5}, {7, 2}, {0, 0}},
      {"negative edges", {300, 257}, {-3, 5}, {7, -20}, {0, 0}},
      {"all negative", {64, 70}, {-1, -2}, {-3, -4}, {0, 0}},
      {"interior padding", {40, 33}, {1, 0}, {2, 3}, {1, 2}},
      {"interior with negative edges", {41, 37}, {-3, -5}, {-2, 4}, {2, 1}},
      {"negative edges past interior points", {9, 10}, {-2, -1}, {-1, -3}, {3, 2}},
      {"everything cropped", {5, 6}, {-5, 0}, {0, 1}, {0, 0}},
      {"empty operand", {0, 6}, {2, 1}, {1, 1}, {0, 3}},
      {"scalar", {}, {}, {}, {}},
      {"1-d", {1000}, {-7, }, {93}, {0}},
      {"1-d interior", {700}, {5}, {-3}, {2}},
      {"3-d", {7, 30, 65}, {1, -2, 3}, {2, 4, -1}, {0, 0, 0}},
      {"4-d, middle dims only", {3, 17, 19, 40}, {0, 2, 0, 0}, {0, 1, 3, 0}, {0, 0, 1, 0}},
      {"size-1 dims", {1, 500, 1}, {2, 0, 3}, {0, 0, 1}, {0, 0, 0}},
  };
  const std::pair<const char*, size_t> elements[] = {{"i8", 1}, {"f16", 2}, {"f32", 4}, {"i64", 8}};
  for (const PadCase& c : cases)
    for (const auto& [element, width] : elements)
      for (bool pooled : {false, true}) checkPad(c, element, width, pooled);
}

TEST_MAIN()
