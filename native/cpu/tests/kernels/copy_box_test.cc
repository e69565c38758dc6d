// copyBox's fast paths (merged dimensions, row memcpy, broadcast fill, blocked transposes, pieces on
// the pool) against an element-by-element copy written here: transposes, broadcasts, strided and
// reversed slices and interior padding, on odd shapes, for every element width, with and without a
// pool. Sources hold distinct bit patterns (NaN payloads included), so any misplaced or altered
// element shows.
#include <cstring>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/stablehlo.h"
#include "kernels/kernels.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

struct BoxCase {
  const char* what;
  std::vector<int64_t> dims, src, dst;
  int64_t srcOffset = 0, dstOffset = 0;
};

// The elements of `dims` reachable through `strides` from `offset`: the extent a buffer must have.
int64_t extent(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, int64_t offset) {
  int64_t hi = offset;
  for (size_t d = 0; d < dims.size(); ++d)
    if (strides[d] > 0) hi += (dims[d] - 1) * strides[d];
  return hi + 1;
}

void reference(const uint8_t* src, uint8_t* dst, const BoxCase& c, size_t width) {
  int64_t total = 1;
  for (int64_t d : c.dims) total *= d;
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat, s = c.srcOffset, t = c.dstOffset;
    for (size_t d = c.dims.size(); d-- > 0;) {
      const int64_t i = rest % c.dims[d];
      rest /= c.dims[d];
      s += i * c.src[d];
      t += i * c.dst[d];
    }
    std::memcpy(dst + t * int64_t(width), src + s * int64_t(width), width);
  }
}

void checkBox(const BoxCase& c, size_t width, bool pooled) {
  const int64_t srcSize = extent(c.dims, c.src, c.srcOffset), dstSize = extent(c.dims, c.dst, c.dstOffset);
  std::vector<uint8_t> src(size_t(srcSize) * width);
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t((i * 131 + i / 251) ^ 0x5a);
  std::vector<uint8_t> want(size_t(dstSize) * width, 0xee), got = want;
  reference(src.data(), want.data(), c, width);
  ThreadPool pool(3);
  ThreadPoolScope scope(pooled ? &pool : nullptr);
  copyBox(src.data(), c.srcOffset, c.src, got.data(), c.dstOffset, c.dst, c.dims, width);
  if (got != want)
    ::tpjrt::test::report(__FILE__, __LINE__,
                          std::string(c.what) + ", width " + std::to_string(width) + (pooled ? ", pooled" : ", one thread"));
}

// The box that writes x (dims `in`) permuted by `perm` into a dense row-major result.
BoxCase transposeCase(const char* what, const std::vector<int64_t>& in, const std::vector<int64_t>& perm) {
  const auto strides = rowMajorStrides(in);
  BoxCase c{what, {}, {}, {}};
  for (int64_t p : perm) {
    c.dims.push_back(in[size_t(p)]);
    c.src.push_back(strides[size_t(p)]);
  }
  c.dst = rowMajorStrides(c.dims);
  return c;
}

}  // namespace

TEST(copy_box_fast_paths_match_an_element_by_element_copy) {
  std::vector<BoxCase> cases = {
      transposeCase("2-d transpose, odd edges", {301, 259}, {1, 0}),
      transposeCase("2-d transpose, big (pool)", {515, 517}, {1, 0}),
      transposeCase("heads split", {3, 37, 4, 17}, {0, 2, 1, 3}),
      transposeCase("swap last two", {3, 5, 67, 33}, {0, 1, 3, 2}),
      transposeCase("reverse all dims", {33, 3, 65}, {2, 1, 0}),
      transposeCase("rotate", {70, 9, 130}, {1, 2, 0}),
      transposeCase("size-1 dims and merges", {1, 40, 1, 7, 50}, {4, 2, 0, 1, 3}),
      transposeCase("identity", {13, 29}, {0, 1}),
      transposeCase("tall thin", {4001, 3}, {1, 0}),
      // broadcast_in_dim: a row repeated, a column repeated, and a middle dimension repeated.
      {"broadcast rows", {300, 257}, {0, 1}, {257, 1}},
      {"broadcast columns", {300, 257}, {1, 0}, {257, 1}},
      {"broadcast middle", {7, 50, 90}, {90, 0, 1}, {4500, 90, 1}},
      {"broadcast columns of a transposed source", {40, 8, 33}, {1, 0, 40}, {264, 33, 1}},
      // slices with steps, reversal (negative strides from the far end), interior padding.
      {"strided slice", {30, 40}, {300, 3}, {40, 1}, 7},
      {"reverse", {60, 70}, {-70, -1}, {70, 1}, 60 * 70 - 1},
      {"reverse rows only", {60, 70}, {-70, 1}, {70, 1}, 59 * 70},
      {"interior padding", {20, 30}, {30, 1}, {2 * 61, 2}, 0, 61 + 1},
      {"update slice into a bigger buffer", {17, 300}, {300, 1}, {400, 1}, 0, 450},
      {"scalar", {}, {}, {}, 3, 2},
  };
  for (const BoxCase& c : cases)
    for (size_t width : {1, 2, 4, 8})
      for (bool pooled : {false, true}) checkBox(c, width, pooled);
}

TEST(transpose_and_broadcast_ops_keep_float_bits) {
  // Through the interpreter: a transpose and a broadcast of floats, NaN payloads and -0 included.
  const int64_t rows = 67, cols = 45;
  std::vector<float> v(size_t(rows * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i) * 0.5f - 7;
  uint32_t payload = 0x7fc01234u;
  std::memcpy(&v[5], &payload, 4);
  v[6] = -0.0f;
  const char* text = R"mlir(
func.func public @main(%x: tensor<67x45xf32>) -> (tensor<45x67xf32>, tensor<45x67x3xf32>) {
  %t = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<67x45xf32>) -> tensor<45x67xf32>
  %b = "stablehlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1, 0>} : (tensor<67x45xf32>) -> tensor<45x67x3xf32>
  "func.return"(%t, %b) : (tensor<45x67xf32>, tensor<45x67x3xf32>) -> ()
}
)mlir";
  Module m = parseModule(text);
  auto out = interpret(m, *m.find("main"), {f32({rows, cols}, v)});
  auto t = read<uint32_t>(out[0]), b = read<uint32_t>(out[1]);
  bool same = true;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      uint32_t want;
      std::memcpy(&want, &v[size_t(i * cols + j)], 4);
      same = same && t[size_t(j * rows + i)] == want;
      for (int64_t k = 0; k < 3; ++k) same = same && b[size_t((j * rows + i) * 3 + k)] == want;
    }
  CHECK(same);
}

TEST_MAIN()
