// gather's and scatter's fast paths agree bit for bit with their generic paths (switched off with
// setIndexFastPaths(false)): scatters of whole rows and of single elements (the forms index_add,
// scatter_add and embedding gradients lower to) with add, multiply, maximum, minimum and "return the
// update" bodies over repeated indices whose float sums depend on the order (the generic path applies
// them one by one in update order), out-of-range indices,
// batching dimensions, index_vector_dim in the middle or absent, integer and half types, on one thread
// and on a pool; gathers of rows, of single elements and of clamped windows. Bodies the fast path
// leaves alone (a general body, two inputs) still give their one-by-one results.
#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "kernels/index_windows.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out;
}

// main(args…) → the results of one generic op: `opText` is what follows its operand list.
std::string module(const std::string& op, const std::vector<Literal>& args, const std::vector<TensorType>& results,
                   const std::string& opText) {
  std::vector<std::string> params, uses, argTypes, resultTypes, outs;
  for (size_t i = 0; i < args.size(); ++i) {
    argTypes.push_back(typeString(args[i].type));
    params.push_back("%a" + std::to_string(i) + ": " + argTypes.back());
    uses.push_back("%a" + std::to_string(i));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    resultTypes.push_back(typeString(results[i]));
    outs.push_back("%r#" + std::to_string(i));
  }
  return "func.func public @main(" + join(params) + ") -> (" + join(resultTypes) + ") {\n  %r:" + std::to_string(results.size()) +
         " = \"stablehlo." + op + "\"(" + join(uses) + ") " + opText + " : (" + join(argTypes) + ") -> (" + join(resultTypes) +
         ")\n  return " + join(outs) + " : " + join(resultTypes) + "\n}\n";
}

std::vector<Literal> run(const std::string& text, const std::vector<Literal>& args, bool fast) {
  setIndexFastPaths(fast);
  Module m = parseModule(text);
  verifyModule(m);
  auto out = interpret(m, *m.find("main"), args);
  setIndexFastPaths(true);
  return out;
}

bool sameBytes(const Literal& a, const Literal& b) {
  return a.type == b.type && a.bytes.size() == b.bytes.size() && std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size()) == 0;
}

// Runs the module with and without the fast paths; CHECKs they agree and returns the result.
std::vector<Literal> runBoth(const std::string& text, const std::vector<Literal>& args) {
  auto fast = run(text, args, true);
  auto generic = run(text, args, false);
  CHECK_EQ(fast.size(), generic.size());
  for (size_t i = 0; i < fast.size() && i < generic.size(); ++i) CHECK(sameBytes(fast[i], generic[i]));
  return fast;
}

std::string region(const std::string& elem, const std::string& ops) {
  return "({\n  ^bb0(%p0: tensor<" + elem + ">, %p1: tensor<" + elem + ">):\n    " + ops + "\n  })";
}
std::string body(const std::string& op, const std::string& elem) {
  if (op == "replace") return region(elem, "stablehlo.return %p1 : tensor<" + elem + ">");
  return region(elem, "%s = \"stablehlo." + op + "\"(%p0, %p1) : (tensor<" + elem + ">, tensor<" + elem + ">) -> tensor<" + elem +
                          ">\n    stablehlo.return %s : tensor<" + elem + ">");
}

std::string scatterText(const Literal& x, const Literal& idx, const Literal& upd, const std::string& dims, const std::string& regionText) {
  return module("scatter", {x, idx, upd}, {x.type},
                "<{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<" + dims +
                    ">, unique_indices = false}> " + regionText);
}

Literal scatterBoth(const Literal& x, const Literal& idx, const Literal& upd, const std::string& dims, const std::string& op,
                    const std::string& elem = "f32") {
  return runBoth(scatterText(x, idx, upd, dims, body(op, elem)), {x, idx, upd})[0];
}

Literal gatherBoth(const Literal& x, const Literal& idx, const std::string& dims, const std::string& sizes, const TensorType& result) {
  return runBoth(module("gather", {x, idx}, {result},
                        "<{dimension_numbers = #stablehlo.gather<" + dims + ">, indices_are_sorted = false, slice_sizes = array<i64: " +
                            sizes + ">}>"),
                 {x, idx})[0];
}

// Floats whose sums round differently in different orders.
std::vector<float> orderSensitive(size_t n, uint32_t seed) {
  const float pool[] = {1e8f, 1.f, -1e8f, 0.3f, 3e-8f, -7.5f, 16777216.f, 0.1f};
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = pool[rng() % 8] * float(1 + rng() % 3);
  return v;
}

// Indices in [lo, hi), some of them (1 in `outEvery`) out of range on either side.
std::vector<int64_t> indices(size_t n, int64_t hi, uint32_t seed, int outEvery = 0) {
  std::mt19937 rng(seed);
  std::vector<int64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = int64_t(rng() % uint32_t(hi));
    if (outEvery && i % size_t(outEvery) == 1) v[i] = (i / size_t(outEvery)) % 2 ? hi + int64_t(i % 3) : -1 - int64_t(i % 3);
  }
  return v;
}
std::vector<int32_t> narrow(const std::vector<int64_t>& v) { return std::vector<int32_t>(v.begin(), v.end()); }

// Full coordinates [rows, cols, 2] for an element scatter or gather: (row, idx) or (idx, col) per `along`.
Literal coordinates(int64_t rows, int64_t cols, const std::vector<int64_t>& idx, int along) {
  std::vector<int64_t> v;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = idx[size_t(r * cols + c)];
      v.push_back(along == 0 ? i : r);
      v.push_back(along == 0 ? c : i);
    }
  return make(ElementType::S64, {rows, cols, 2}, v);
}

// index_add(x, 0, idx, src) as the lowering writes it: every element its own (row, column) point.
Literal indexAddCoordinates(const std::vector<int64_t>& rowsIdx, int64_t cols) {
  std::vector<int64_t> v;
  for (int64_t r : rowsIdx)
    for (int64_t c = 0; c < cols; ++c) {
      v.push_back(r);
      v.push_back(c);
    }
  return make(ElementType::S64, {int64_t(rowsIdx.size()), cols, 2}, v);
}

const char* kRowDims = "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1";
const char* kElementDims = "inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2";

}  // namespace

// --- scatter ------------------------------------------------------------------------------------------

TEST(scatter_add_rows_with_repeats_adds_one_by_one_in_update_order) {
  const int64_t V = 7, D = 5, N = 61;
  const auto idx = indices(size_t(N), V, 1, 9);
  const auto upd = orderSensitive(size_t(N * D), 2);
  Literal out = scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 3)), make(ElementType::S64, {N, 1}, idx), f32({N, D}, upd),
                            kRowDims, "add");
  // The order matters here: any other order gives other bits somewhere.
  std::vector<float> oneByOne = orderSensitive(size_t(V * D), 3);
  for (int64_t n = 0; n < N; ++n)
    if (idx[size_t(n)] >= 0 && idx[size_t(n)] < V)
      for (int64_t d = 0; d < D; ++d) oneByOne[size_t(idx[size_t(n)] * D + d)] += upd[size_t(n * D + d)];
  CHECK(read<float>(out) == oneByOne);
  // s32 indices too
  scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 3)), make(ElementType::S32, {N, 1}, narrow(idx)), f32({N, D}, upd), kRowDims,
              "add");
}

TEST(scatter_add_of_elements_as_index_add_lowers_it) {
  const int64_t V = 9, D = 6, N = 50;
  const auto idx = indices(size_t(N), V, 4, 7);
  scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 5)), indexAddCoordinates(idx, D), f32({N, D}, orderSensitive(size_t(N * D), 6)),
              kElementDims, "add");
  // along dim 1 (index_add(x, 1, …) and scatter_add(x, 1, …)): single elements
  const int64_t R = 6, C = 11;
  const auto cols = indices(size_t(R * C), C, 7, 5);
  scatterBoth(f32({R, C}, orderSensitive(size_t(R * C), 8)), coordinates(R, C, cols, 1), f32({R, C}, orderSensitive(size_t(R * C), 9)),
              kElementDims, "add");
  const auto rows = indices(size_t(R * C), R, 10, 6);
  scatterBoth(f32({R, C}, orderSensitive(size_t(R * C), 8)), coordinates(R, C, rows, 0), f32({R, C}, orderSensitive(size_t(R * C), 9)),
              kElementDims, "add");
}

TEST(scatter_with_batching_dims_and_other_index_vector_dims) {
  // scatter_add along dim 1 with a batching dimension, as jax writes it
  const int64_t B = 3, C = 8, N = 20;
  const auto idx = indices(size_t(B * N), C, 11, 6);
  scatterBoth(f32({B, C}, orderSensitive(size_t(B * C), 12)), make(ElementType::S64, {B, N, 1}, idx),
              f32({B, N}, orderSensitive(size_t(B * N), 13)),
              "inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], "
              "scatter_dims_to_operand_dims = [1], index_vector_dim = 2",
              "add");
  // index_vector_dim 0: indices [1, N]
  const int64_t V = 5, D = 4;
  const auto rows = indices(size_t(N), V, 14, 8);
  scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 15)), make(ElementType::S64, {1, N}, rows), f32({N, D}, orderSensitive(size_t(N * D), 16)),
              "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0", "add");
  // no index vector dimension: indices [N]
  scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 15)), make(ElementType::S64, {N}, rows), f32({N, D}, orderSensitive(size_t(N * D), 16)),
              "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1", "add");
  // window dimension first in the updates: index_add along dim 1 written with a column window
  scatterBoth(f32({D, V}, orderSensitive(size_t(V * D), 17)), make(ElementType::S64, {N, 1}, rows), f32({D, N}, orderSensitive(size_t(N * D), 18)),
              "update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1", "add");
}

TEST(scatter_partial_windows_and_windows_that_do_not_fit) {
  // windows of 1x3 in rows of 7: not whole rows, so single elements; starts 5 and 6 do not fit
  const int64_t V = 4, W = 7, N = 30;
  std::vector<int64_t> idx;
  std::mt19937 rng(19);
  for (int64_t n = 0; n < N; ++n) {
    idx.push_back(int64_t(rng() % 5) - (n % 7 == 3 ? 5 : 0));
    idx.push_back(int64_t(rng() % 7));
  }
  for (const char* op : {"add", "replace", "maximum"})
    scatterBoth(f32({V, W}, orderSensitive(size_t(V * W), 20)), make(ElementType::S64, {N, 2}, idx),
                f32({N, 2, 3}, orderSensitive(size_t(N * 6), 21)),
                "update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1", op);
  // windows of whole rows of a 3-d input: rows of 12 elements
  const auto rows = indices(size_t(N), 5, 22, 4);
  scatterBoth(f32({5, 3, 4}, orderSensitive(60, 23)), make(ElementType::S64, {N, 1}, rows), f32({N, 3, 4}, orderSensitive(size_t(N * 12), 24)),
              "update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1", "add");
}

TEST(scatter_replace_keeps_the_last_update) {
  const int64_t V = 6, D = 3, N = 40;
  const auto idx = indices(size_t(N), V, 25, 6);
  Literal out = scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 26)), make(ElementType::S64, {N, 1}, idx),
                            f32({N, D}, orderSensitive(size_t(N * D), 27)), kRowDims, "replace");
  std::vector<float> want = orderSensitive(size_t(V * D), 26);
  const auto upd = orderSensitive(size_t(N * D), 27);
  for (int64_t n = 0; n < N; ++n)
    if (idx[size_t(n)] >= 0 && idx[size_t(n)] < V)
      for (int64_t d = 0; d < D; ++d) want[size_t(idx[size_t(n)] * D + d)] = upd[size_t(n * D + d)];
  CHECK(read<float>(out) == want);
  const auto cols = indices(size_t(V * D), D, 28, 5);
  scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 26)), coordinates(V, D, cols, 1), f32({V, D}, orderSensitive(size_t(V * D), 29)),
              kElementDims, "replace");
}

TEST(scatter_integer_and_half_types) {
  const int64_t V = 5, D = 4, N = 33;
  const auto idx = indices(size_t(N), V, 30, 7);
  std::mt19937 rng(31);
  std::vector<int32_t> big(size_t(N * D));
  for (auto& v : big) v = int32_t(rng());  // sums overflow and wrap
  for (const char* op : {"add", "multiply", "maximum", "minimum", "replace"})
    scatterBoth(make(ElementType::S32, {V, D}, std::vector<int32_t>(size_t(V * D), 3)), make(ElementType::S64, {N, 1}, idx),
                make(ElementType::S32, {N, D}, big), kRowDims, op, "i32");
  std::vector<uint8_t> bytes(size_t(N * D));
  for (auto& v : bytes) v = uint8_t(rng());
  scatterBoth(make(ElementType::U8, {V, D}, std::vector<uint8_t>(size_t(V * D), 200)), make(ElementType::S64, {N, 1}, idx),
              make(ElementType::U8, {N, D}, bytes), kRowDims, "add", "ui8");
  // f16 and bf16 round after every add
  const auto f = orderSensitive(size_t(N * D), 32);
  std::vector<uint16_t> h, b;
  for (float x : f) {
    h.push_back(floatToHalf(x * 1e-4f + 1.f));
    b.push_back(floatToBf16(x));
  }
  for (const char* op : {"add", "maximum", "replace"}) {
    scatterBoth(make(ElementType::F16, {V, D}, std::vector<uint16_t>(size_t(V * D), floatToHalf(0.3f))), make(ElementType::S64, {N, 1}, idx),
                make(ElementType::F16, {N, D}, h), kRowDims, op, "f16");
    scatterBoth(make(ElementType::BF16, {V, D}, std::vector<uint16_t>(size_t(V * D), floatToBf16(0.3f))), make(ElementType::S64, {N, 1}, idx),
                make(ElementType::BF16, {N, D}, b), kRowDims, op, "bf16");
  }
  std::vector<double> d(f.begin(), f.end());
  scatterBoth(make(ElementType::F64, {V, D}, std::vector<double>(size_t(V * D), 0.1)), make(ElementType::S64, {N, 1}, idx),
              make(ElementType::F64, {N, D}, d), kRowDims, "add", "f64");
}

TEST(scatter_maximum_and_minimum_with_nan_and_signed_zeros) {
  const int64_t V = 4, D = 3, N = 24;
  const auto idx = indices(size_t(N), V, 33);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float pool[] = {0.f, -0.f, 1.f, -1.f, nan, -nan, std::numeric_limits<float>::infinity()};
  std::mt19937 rng(34);
  std::vector<float> upd(size_t(N * D));
  for (auto& x : upd) x = pool[rng() % 7];
  for (const char* op : {"maximum", "minimum", "multiply", "add"})
    scatterBoth(f32({V, D}, std::vector<float>(size_t(V * D), -0.f)), make(ElementType::S64, {N, 1}, idx), f32({N, D}, upd), kRowDims, op);
}

TEST(scatter_on_a_pool_with_many_repeats) {
  ThreadPool pool(3);
  ThreadPoolScope scope(&pool);
  const int64_t V = 1000, D = 96, N = 3000;  // whole rows, split over the pool
  const auto idx = indices(size_t(N), V, 35, 50);
  scatterBoth(f32({V, D}, orderSensitive(size_t(V * D), 36)), indexAddCoordinates(idx, D), f32({N, D}, orderSensitive(size_t(N * D), 37)),
              kElementDims, "add");
  const int64_t R = 300, C = 400;  // single elements
  const auto cols = indices(size_t(R * C), C / 8, 38, 100);
  scatterBoth(f32({R, C}, orderSensitive(size_t(R * C), 39)), coordinates(R, C, cols, 1), f32({R, C}, orderSensitive(size_t(R * C), 40)),
              kElementDims, "add");
  scatterBoth(f32({R, C}, orderSensitive(size_t(R * C), 39)), coordinates(R, C, cols, 1), f32({R, C}, orderSensitive(size_t(R * C), 40)),
              kElementDims, "replace");
  const auto rows = indices(size_t(R * C), R / 8, 41, 100);  // single elements along dim 0: blocks overlap, one thread
  scatterBoth(f32({R, C}, orderSensitive(size_t(R * C), 39)), coordinates(R, C, rows, 0), f32({R, C}, orderSensitive(size_t(R * C), 40)),
              kElementDims, "add");
  const int64_t W = 301;  // long rows: split into column pieces
  const auto wide = indices(size_t(N), 50, 42, 40);
  scatterBoth(f32({50, W}, orderSensitive(size_t(50 * W), 43)), make(ElementType::S64, {N, 1}, wide), f32({N, W}, orderSensitive(size_t(N * W), 44)),
              kRowDims, "add");
  scatterBoth(f32({50, W}, orderSensitive(size_t(50 * W), 43)), make(ElementType::S64, {N, 1}, wide), f32({N, W}, orderSensitive(size_t(N * W), 44)),
              kRowDims, "replace");
}

TEST(scatter_bodies_without_a_fast_path_apply_updates_one_by_one) {
  // subtract is not order-free: x - u0 - u1 …, in update order
  Literal out = scatterBoth(f32({2, 2}, {10, 20, 30, 40}), make(ElementType::S64, {3, 1}, std::vector<int64_t>{1, 1, 0}),
                            f32({3, 2}, {1, 2, 3, 4, 5, 6}), kRowDims, "subtract");
  CHECK(read<float>(out) == (std::vector<float>{5, 14, 26, 34}));
  // two inputs
  Literal x = f32({3}, {1, 2, 3});
  Literal idx = make(ElementType::S64, {3, 1}, std::vector<int64_t>{2, 2, 0});
  Literal u = f32({3}, {10, 20, 30});
  const std::string regionText =
      "({\n  ^bb0(%p0: tensor<f32>, %q0: tensor<f32>, %p1: tensor<f32>, %q1: tensor<f32>):\n"
      "    %s = stablehlo.add %p0, %p1 : tensor<f32>\n    %t = stablehlo.add %q0, %q1 : tensor<f32>\n"
      "    stablehlo.return %s, %t : tensor<f32>, tensor<f32>\n  })";
  auto outs = runBoth(module("scatter", {x, x, idx, u, u}, {x.type, x.type},
                             "<{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
                             "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> " +
                                 regionText),
                      {x, x, idx, u, u});
  CHECK(read<float>(outs[0]) == (std::vector<float>{31, 2, 33}));
}

// --- gather -------------------------------------------------------------------------------------------

TEST(gather_rows_clamps_out_of_range_indices) {
  const int64_t V = 9, D = 6, N = 40;
  const auto idx = indices(size_t(N), V, 41, 5);
  Literal x = f32({V, D}, orderSensitive(size_t(V * D), 42));
  const char* dims = "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1";
  Literal out = gatherBoth(x, make(ElementType::S64, {N, 1}, idx), dims, "1, 6", {ElementType::F32, {N, D}});
  const auto xs = read<float>(x), got = read<float>(out);
  bool ok = true;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t d = 0; d < D; ++d) ok = ok && got[size_t(n * D + d)] == xs[size_t(std::clamp<int64_t>(idx[size_t(n)], 0, V - 1) * D + d)];
  CHECK(ok);
  gatherBoth(x, make(ElementType::S32, {N, 1}, narrow(idx)), dims, "1, 6", {ElementType::F32, {N, D}});
  // index_select along dim 1: the offset dimension comes first in the result
  gatherBoth(x, make(ElementType::S64, {N, 1}, indices(size_t(N), D, 43, 6)),
             "offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1", "9, 1",
             {ElementType::F32, {V, N}});
}

TEST(gather_elements_along_either_dimension) {
  ThreadPool pool(3);
  ThreadPoolScope scope(&pool);
  const int64_t R = 300, C = 500;
  Literal x = f32({R, C}, orderSensitive(size_t(R * C), 44));
  const char* dims = "collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2";
  gatherBoth(x, coordinates(R, C, indices(size_t(R * C), C, 45, 97), 1), dims, "1, 1", {ElementType::F32, {R, C}});
  gatherBoth(x, coordinates(R, C, indices(size_t(R * C), R, 46, 89), 0), dims, "1, 1", {ElementType::F32, {R, C}});
  // with a batching dimension
  gatherBoth(x, make(ElementType::S32, {R, 7, 1}, narrow(indices(size_t(R * 7), C, 47, 13))),
             "collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], "
             "index_vector_dim = 2",
             "1, 1", {ElementType::F32, {R, 7}});
}

TEST(gather_windows_of_other_shapes_and_types) {
  // 2x3 windows of a 3-d i8 operand, both starts clamped, index_vector_dim 0
  std::vector<int8_t> v(4 * 5 * 6);
  for (size_t i = 0; i < v.size(); ++i) v[i] = int8_t(i * 7);
  Literal x = make(ElementType::S8, {4, 5, 6}, v);
  std::vector<int64_t> starts = {0, 9, -3, 2, 4, 1, 3, 1, -1, 7, 4, 2, 3, 0};
  gatherBoth(x, make(ElementType::S64, {2, 7}, starts),
             "offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [1, 2], index_vector_dim = 0", "1, 2, 3",
             {ElementType::S8, {7, 2, 3}});
  // f16 rows with offset dims in the middle: result [N0, D, N1]
  std::vector<uint16_t> h(8 * 4);
  for (size_t i = 0; i < h.size(); ++i) h[i] = floatToHalf(float(i) * 0.37f);
  gatherBoth(make(ElementType::F16, {8, 4}, h), make(ElementType::S64, {3, 5, 1}, indices(15, 8, 48, 4)),
             "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2", "1, 4",
             {ElementType::F16, {3, 4, 5}});
  // embedding of a [2, 3] index tensor with no index vector dimension
  gatherBoth(make(ElementType::F16, {8, 4}, h), make(ElementType::S32, {2, 3}, std::vector<int32_t>{7, 0, 9, -2, 3, 3}),
             "offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2", "1, 4",
             {ElementType::F16, {2, 3, 4}});
}

// torch.scatter / torch.gather as JAX and our lowering write them: the other dimensions are batching
// dimensions (AlongDim), so each element is read or updated straight from its index, blocks of
// targets that never meet in parallel.
TEST(scatter_and_gather_along_one_dimension_of_batching_dims) {
  ThreadPool pool(3);
  ThreadPoolScope scope(&pool);
  struct Case {
    std::vector<int64_t> operand, indices;  // indices without the index vector dimension
    int64_t d;
    bool implicitVector;  // index_vector_dim is the indices' rank
  };
  const std::vector<Case> cases = {{{6, 50, 70}, {6, 90, 70}, 1, false},  // outer, count and inner all > 1
                                   {{50, 70}, {50, 90}, 1, false},        // torch.gather(x, 1, i): along rows
                                   {{50, 70}, {90, 70}, 0, true},         // along dim 0: columns
                                   {{3000}, {3600}, 0, false}};           // one dimension: in update order on one thread
  uint32_t seed = 60;
  for (const Case& c : cases) {
    const int64_t rank = int64_t(c.operand.size());
    std::vector<int64_t> others;
    std::string list, ones;
    for (int64_t k = 0; k < rank; ++k) {
      ones += k ? ", 1" : "1";
      if (k == c.d) continue;
      others.push_back(k);
      list += (list.empty() ? "" : ", ") + std::to_string(k);
    }
    const std::string d = std::to_string(c.d), vector = "index_vector_dim = " + std::to_string(rank);
    const std::string scatterDims = "inserted_window_dims = [" + d + "], input_batching_dims = [" + list +
                                    "], scatter_indices_batching_dims = [" + list + "], scatter_dims_to_operand_dims = [" + d + "], " + vector;
    const std::string gatherDims = "collapsed_slice_dims = [" + d + "], operand_batching_dims = [" + list +
                                   "], start_indices_batching_dims = [" + list + "], start_index_map = [" + d + "], " + vector;
    std::vector<int64_t> idxDims = c.indices;
    if (!c.implicitVector) idxDims.push_back(1);
    int64_t n = 1, size = 1, inner = 1;
    for (int64_t k : c.indices) n *= k;
    for (int64_t k : c.operand) size *= k;
    for (int64_t k = c.d + 1; k < rank; ++k) inner *= c.operand[size_t(k)];
    const int64_t along = c.operand[size_t(c.d)], count = c.indices[size_t(c.d)];
    const auto idx = indices(size_t(n), along, ++seed, 23);
    const auto xs = orderSensitive(size_t(size), ++seed);
    Literal x = f32(c.operand, xs), u = f32(c.indices, orderSensitive(size_t(n), ++seed));
    for (bool wide : {true, false}) {
      Literal index = wide ? make(ElementType::S64, idxDims, idx) : make(ElementType::S32, idxDims, narrow(idx));
      CHECK(alongDim(c.operand, index, rank, {c.d}, {c.d}, others, others).has_value());
      for (const char* op : {"add", "replace", "maximum"}) scatterBoth(x, index, u, scatterDims, op);
      const auto got = read<float>(gatherBoth(x, index, gatherDims, ones, {ElementType::F32, c.indices}));
      bool clamped = true;
      for (int64_t e = 0; e < n; ++e) {
        const int64_t i = e % inner, o = e / inner / count;
        const int64_t j = std::clamp<int64_t>(idx[size_t(e)], 0, along - 1);
        clamped = clamped && got[size_t(e)] == xs[size_t((o * along + j) * inner + i)];
      }
      CHECK(clamped);
    }
  }
}

TEST_MAIN()
