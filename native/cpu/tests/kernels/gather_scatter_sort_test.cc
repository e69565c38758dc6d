// gather, scatter and sort in the CPU plugin: parse, verify and run, with references computed here by
// plain loops over the spec's index formulas (and std::stable_sort for sort).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/error.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<Literal> runText(const std::string& text, const std::vector<Literal>& args) {
  Module m = parseModule(text);
  verifyModule(m);
  return interpret(m, *m.find("main"), args);
}

void verify(const std::string& text) { verifyModule(parseModule(text)); }

std::string join(const std::vector<std::string>& v, const std::string& sep = ", ") {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// main(args…) → results of one generic op `opText` (everything after the operand list up to the
// signature: properties, region).
std::string module(const std::string& op, const std::vector<std::string>& argTypes, const std::vector<std::string>& resultTypes,
                   const std::string& opText) {
  std::vector<std::string> params, uses, results;
  for (size_t i = 0; i < argTypes.size(); ++i) {
    params.push_back("%a" + std::to_string(i) + ": " + argTypes[i]);
    uses.push_back("%a" + std::to_string(i));
  }
  for (size_t i = 0; i < resultTypes.size(); ++i) results.push_back("%r#" + std::to_string(i));
  return "func.func public @main(" + join(params) + ") -> (" + join(resultTypes) + ") {\n  %r:" +
         std::to_string(resultTypes.size()) + " = \"stablehlo." + op + "\"(" + join(uses) + ") " + opText + " : (" +
         join(argTypes) + ") -> (" + join(resultTypes) + ")\n  return " + join(results) + " : " + join(resultTypes) + "\n}\n";
}

std::string gatherAttrs(const std::string& dims, const std::string& sizes) {
  return "<{dimension_numbers = #stablehlo.gather<" + dims + ">, indices_are_sorted = false, slice_sizes = array<i64: " +
         sizes + ">}>";
}

Literal gather(const Literal& x, const Literal& idx, const std::string& dims, const std::string& sizes, const TensorType& result) {
  auto out = runText(module("gather", {typeString(x.type), typeString(idx.type)}, {typeString(result)}, gatherAttrs(dims, sizes)), {x, idx});
  CHECK(out[0].type == result);
  return out[0];
}

std::vector<float> iotaF(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(i);
  return v;
}

// A scalar region with 2N f32-or-other arguments: `^bb0(%x0: T, %y0: T…)` then `ops`.
std::string region(const std::vector<std::string>& argTypes, const std::string& ops) {
  std::vector<std::string> args;
  for (size_t i = 0; i < argTypes.size(); ++i) args.push_back("%p" + std::to_string(i) + ": " + argTypes[i]);
  return "({\n  ^bb0(" + join(args) + "):\n    " + ops + "\n  })";
}

}  // namespace

// --- gather ------------------------------------------------------------------------------------------

TEST(gather_rows_like_jax_with_clamping) {
  // x[i] for x: f32[3,4] as jax 0.10 prints it (pretty module, generic gather with properties).
  const char* text = R"mlir(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %5: tensor<4x1xi32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<4x1xi32>) -> tensor<4x4xf32>
    return %6 : tensor<4x4xf32>
  }
})mlir";
  std::vector<int32_t> rows = {2, 0, 7, -3};  // 7 clamps to 2, -3 to 0
  auto out = runText(text, {f32({3, 4}, iotaF(12)), make(ElementType::S32, {4, 1}, rows)});
  std::vector<float> want;
  for (int32_t r : rows)
    for (int c = 0; c < 4; ++c) want.push_back(float(std::clamp(r, 0, 2) * 4 + c));
  CHECK(read<float>(out[0]) == want);
}

TEST(gather_along_a_dimension_two_ways) {
  // torch.gather(x, 1, idx) for x: [3,4], idx: [3,2], once with batching dims, once with a full
  // (row, column) index vector.
  std::vector<int64_t> idx = {3, 0, 1, 1, 2, 0};
  std::vector<float> want;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 2; ++k) want.push_back(float(r * 4 + idx[size_t(r * 2 + k)]));
  Literal x = f32({3, 4}, iotaF(12));
  Literal batched = gather(x, make(ElementType::S64, {3, 2, 1}, idx),
                           "collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], "
                           "start_index_map = [1], index_vector_dim = 2",
                           "1, 1", {ElementType::F32, {3, 2}});
  CHECK(read<float>(batched) == want);
  std::vector<int64_t> full;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 2; ++k) full.insert(full.end(), {r, idx[size_t(r * 2 + k)]});
  Literal vectors = gather(x, make(ElementType::S64, {3, 2, 2}, full),
                           "collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2", "1, 1",
                           {ElementType::F32, {3, 2}});
  CHECK(read<float>(vectors) == want);
}

TEST(gather_offset_dims_around_the_batch_dim) {
  // x: [2,3,4]; scalar indices (index_vector_dim = rank) select along dim 1; the result puts the
  // batch dimension between the two offset dimensions: result[a, b, c] = x[a, clamp(i[b]), c].
  std::vector<int16_t> idx = {2, -1, 9};
  Literal out = gather(f32({2, 3, 4}, iotaF(24)), make(ElementType::S16, {3}, idx),
                       "offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1",
                       "2, 1, 4", {ElementType::F32, {2, 3, 4}});
  std::vector<float> want;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) want.push_back(float(a * 12 + std::clamp<int>(idx[size_t(b)], 0, 2) * 4 + c));
  CHECK(read<float>(out) == want);
}

TEST(gather_windows_clamp_as_a_whole) {
  // 2x2 windows of x: [4,5] at (1,3) and (3,4); the second start clamps to (2,3).
  Literal out = gather(f32({4, 5}, iotaF(20)), make(ElementType::U32, {2, 2}, std::vector<uint32_t>{1, 3, 3, 4}),
                       "offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1", "2, 2",
                       {ElementType::F32, {2, 2, 2}});
  std::vector<float> want;
  for (auto [r0, c0] : {std::pair{1, 3}, std::pair{2, 3}})
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 2; ++c) want.push_back(float((r0 + r) * 5 + c0 + c));
  CHECK(read<float>(out) == want);
}

TEST(gather_every_element_type) {
  // Reverse a [5] vector of each type by gathering indices 4..0; the bytes must move unchanged.
  const char* types[] = {"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64"};
  for (int t = 0; t < 13; ++t) {
    ElementType e = ElementType(t);
    size_t w = byteWidth(e);
    Bytes bytes(5 * w);
    for (size_t i = 0; i < bytes.size(); ++i) bytes.mutableData()[i] = e == ElementType::Pred ? uint8_t(i % 2) : uint8_t(i * 37 + 1);
    Literal x{{e, {5}}, bytes};
    Literal out = gather(x, make(ElementType::S32, {5, 1}, std::vector<int32_t>{4, 3, 2, 1, 0}),
                         "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1", "1", {e, {5}});
    bool same = true;
    for (size_t i = 0; i < 5; ++i) same = same && std::memcmp(out.bytes.data() + i * w, bytes.data() + (4 - i) * w, w) == 0;
    if (!same) ::tpjrt::test::report(__FILE__, __LINE__, std::string("gather moved bytes wrongly for ") + types[t]);
  }
}

TEST(gather_without_index_vector_dim_reads_dimension_0) {
  // StableHLO's printer leaves out index_vector_dim = 0: the index vectors lie along dimension 0 of
  // the indices, here [2, 3]: three (row, column) starts of 1x2 windows of x: [3, 4].
  std::vector<int32_t> idx = {0, 2, 1, /* columns */ 1, 3, 0};
  Literal x = f32({3, 4}, iotaF(12));
  const std::string dims = "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1]";
  Literal omitted = gather(x, make(ElementType::S32, {2, 3}, idx), dims, "1, 2", {ElementType::F32, {3, 2}});
  Literal explicitZero = gather(x, make(ElementType::S32, {2, 3}, idx), dims + ", index_vector_dim = 0", "1, 2", {ElementType::F32, {3, 2}});
  std::vector<float> want;
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 2; ++c) want.push_back(float(idx[size_t(k)] * 4 + std::min(idx[size_t(3 + k)], 2) + c));
  CHECK(read<float>(omitted) == want);
  CHECK(read<float>(explicitZero) == want);
}

TEST(gather_dimension_numbers_are_checked_field_by_field) {
  auto g = [](const std::string& dims) {
    verify(module("gather", {"tensor<3x4xf32>", "tensor<2x1xi32>"}, {"tensor<2x4xf32>"}, gatherAttrs(dims, "1, 4")));
  };
  g("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1");
  CHECK_THROWS(g("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dims = 1"),
               "dimension_numbers has no field index_vector_dims");
  CHECK_THROWS(g("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = [1]"),
               "field index_vector_dim must be an integer");
  CHECK_THROWS(g("offset_dims = 1, collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1"),
               "field offset_dims must be a list of integers");
  CHECK_THROWS(g("offset_dims = [1], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1"),
               "has the field offset_dims twice");
}

// --- scatter ------------------------------------------------------------------------------------------

namespace {

std::string scatterAttrs(const std::string& dims) {
  return "<{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<" + dims + ">, unique_indices = false}>";
}

Literal scatter1(const Literal& x, const Literal& idx, const Literal& upd, const std::string& dims, const std::string& body) {
  std::string t = typeString(x.type);
  std::string s = typeString({x.type.element, {}});
  return runText(module("scatter", {t, typeString(idx.type), typeString(upd.type)}, {t}, scatterAttrs(dims) + " " + region({s, s}, body)),
                 {x, idx, upd})[0];
}

const char* kRowDims = "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1";

}  // namespace

TEST(scatter_add_rows_with_duplicates_like_jax) {
  // x.at[i].add(u) as jax prints it; rows 2 and 0, row 2 twice, and -1 and 3 out of bounds (skipped).
  std::vector<int32_t> rows = {2, 0, 2, -1, 3};
  std::vector<float> upd;
  for (int k = 0; k < 5; ++k)
    for (int c = 0; c < 4; ++c) upd.push_back(float(100 * (k + 1) + c));
  Literal out = scatter1(f32({3, 4}, iotaF(12)), make(ElementType::S32, {5, 1}, rows), f32({5, 4}, upd), kRowDims,
                         "%s = stablehlo.add %p0, %p1 : tensor<f32>\n    stablehlo.return %s : tensor<f32>");
  std::vector<float> want = iotaF(12);
  for (int k = 0; k < 5; ++k)
    if (rows[size_t(k)] >= 0 && rows[size_t(k)] < 3)
      for (int c = 0; c < 4; ++c) want[size_t(rows[size_t(k)] * 4 + c)] += upd[size_t(k * 4 + c)];
  CHECK(read<float>(out) == want);
}

TEST(scatter_without_index_vector_dim_reads_dimension_0) {
  // Scalar indices of shape [1, 3]: with index_vector_dim left out (0) each is a vector of one.
  std::vector<int32_t> idx = {2, 0, 2};
  const char* dims = "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]";
  Literal out = scatter1(f32({3, 2}, iotaF(6)), make(ElementType::S32, {1, 3}, idx), f32({3, 2}, {10, 20, 30, 40, 50, 60}), dims,
                         "%s = stablehlo.add %p0, %p1 : tensor<f32>\n    stablehlo.return %s : tensor<f32>");
  CHECK(read<float>(out) == (std::vector<float>{0 + 30, 1 + 40, 2, 3, 4 + 10 + 50, 5 + 20 + 60}));
  CHECK_THROWS(scatter1(f32({3, 2}, iotaF(6)), make(ElementType::S32, {1, 3}, idx), f32({3, 2}, iotaF(6)),
                        "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operands_dims = [0]",
                        "stablehlo.return %p1 : tensor<f32>"),
               "scatter_dimension_numbers has no field scatter_dims_to_operands_dims");
}

TEST(scatter_applies_updates_in_order) {
  // A body that is not commutative (2·old + new) on duplicate targets must see the updates in order.
  std::vector<int64_t> idx = {1, 1, 0, 1, 5};
  std::vector<int32_t> upd = {1, 2, 3, 4, 5};
  Literal out = scatter1(make(ElementType::S32, {3}, std::vector<int32_t>{10, 20, 30}), make(ElementType::S64, {5, 1}, idx),
                         make(ElementType::S32, {5}, upd),
                         "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
                         "%c = stablehlo.constant dense<2> : tensor<i32>\n    %m = stablehlo.multiply %p0, %c : tensor<i32>\n"
                         "    %s = stablehlo.add %m, %p1 : tensor<i32>\n    stablehlo.return %s : tensor<i32>");
  std::vector<int32_t> want = {10, 20, 30};
  for (size_t k = 0; k < idx.size(); ++k)
    if (idx[k] < 3) want[size_t(idx[k])] = 2 * want[size_t(idx[k])] + upd[k];
  CHECK(read<int32_t>(out) == want);
}

TEST(scatter_replace_skips_windows_that_do_not_fit) {
  // 2-wide windows into a [6] vector at 1, 5 (does not fit: skipped whole) and 4.
  Literal out = scatter1(f32({6}, iotaF(6)), make(ElementType::S32, {3, 1}, std::vector<int32_t>{1, 5, 4}),
                         f32({3, 2}, {-1, -2, -3, -4, -5, -6}),
                         "update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
                         "stablehlo.return %p1 : tensor<f32>");
  CHECK(read<float>(out) == (std::vector<float>{0, -1, -2, 3, -5, -6}));
}

TEST(scatter_along_a_dimension_with_batching_dims) {
  // torch.scatter_reduce(x, 1, idx, src, "amax") for x: [2,3], idx/src: [2,2].
  std::vector<int32_t> idx = {2, 2, 0, 1};
  std::vector<float> src = {5, 7, -1, 4};
  Literal out = scatter1(f32({2, 3}, {1, 1, 1, 1, 1, 1}), make(ElementType::S32, {2, 2, 1}, idx), f32({2, 2}, src),
                         "inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], "
                         "scatter_dims_to_operand_dims = [1], index_vector_dim = 2",
                         "%s = stablehlo.maximum %p0, %p1 : tensor<f32>\n    stablehlo.return %s : tensor<f32>");
  std::vector<float> want = {1, 1, 1, 1, 1, 1};
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 2; ++k) {
      float& w = want[size_t(r * 3 + idx[size_t(r * 2 + k)])];
      w = std::max(w, src[size_t(r * 2 + k)]);
    }
  CHECK(read<float>(out) == want);
}

TEST(scatter_two_inputs_and_other_types) {
  // (i64 sum, bf16 min) updated together: the body returns one value per input.
  std::string body =
      "%s = stablehlo.add %p0, %p2 : tensor<i64>\n    %m = stablehlo.minimum %p1, %p3 : tensor<bf16>\n"
      "    stablehlo.return %s, %m : tensor<i64>, tensor<bf16>";
  std::vector<uint16_t> b = {floatToBf16(1), floatToBf16(2)}, bu = {floatToBf16(0.5f), floatToBf16(-3), floatToBf16(7)};
  auto out = runText(module("scatter", {"tensor<2xi64>", "tensor<2xbf16>", "tensor<3x1xi32>", "tensor<3xi64>", "tensor<3xbf16>"},
                            {"tensor<2xi64>", "tensor<2xbf16>"},
                            scatterAttrs("inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1") + " " +
                                region({"tensor<i64>", "tensor<bf16>", "tensor<i64>", "tensor<bf16>"}, body)),
                     {make(ElementType::S64, {2}, std::vector<int64_t>{int64_t(1) << 40, 5}), make(ElementType::BF16, {2}, b),
                      make(ElementType::S32, {3, 1}, std::vector<int32_t>{0, 1, 0}), make(ElementType::S64, {3}, std::vector<int64_t>{1, 2, 3}),
                      make(ElementType::BF16, {3}, bu)});
  CHECK(read<int64_t>(out[0]) == (std::vector<int64_t>{(int64_t(1) << 40) + 4, 7}));
  CHECK(read<uint16_t>(out[1]) == (std::vector<uint16_t>{floatToBf16(0.5f), floatToBf16(-3)}));
}

TEST(scatter_many_duplicates_and_last_writer_wins) {
  // 1001 int64 additions into 3 targets (exact in integers), and a replace
  // with repeated targets keeps the last update.
  const int64_t n = 1001;
  std::vector<int32_t> idx(static_cast<size_t>(n));
  std::vector<int64_t> upd(static_cast<size_t>(n));
  std::vector<int64_t> want = {5, 6, 7};
  for (int64_t k = 0; k < n; ++k) {
    idx[size_t(k)] = int32_t(k % 7 == 0 ? 2 : k % 2);
    upd[size_t(k)] = k * k - 300;
    want[size_t(idx[size_t(k)])] += upd[size_t(k)];
  }
  const char* dims = "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1";
  Literal sum = scatter1(make(ElementType::S64, {3}, std::vector<int64_t>{5, 6, 7}), make(ElementType::S32, {n, 1}, idx),
                         make(ElementType::S64, {n}, upd), dims, "%s = stablehlo.add %p1, %p0 : tensor<i64>\n    stablehlo.return %s : tensor<i64>");
  CHECK(read<int64_t>(sum) == want);
  Literal last = scatter1(f32({3}, {0, 0, 0}), make(ElementType::S32, {4, 1}, std::vector<int32_t>{0, 1, 0, 0}), f32({4}, {1, 2, 3, 4}), dims,
                          "stablehlo.return %p1 : tensor<f32>");
  CHECK(read<float>(last) == (std::vector<float>{4, 2, 0}));
}

TEST(scatter_replace_every_element_type) {
  // Write elements 0 and 1 of the updates to positions 3 and 0: the bytes must move unchanged.
  const char* types[] = {"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64"};
  for (int t = 0; t < 13; ++t) {
    ElementType e = ElementType(t);
    size_t w = byteWidth(e);
    Bytes x(4 * w, 0), u(2 * w);
    for (size_t i = 0; i < u.size(); ++i) u.mutableData()[i] = e == ElementType::Pred ? 1 : uint8_t(i * 29 + 3);
    std::string s = typeString({e, {}});
    Literal out = scatter1(Literal{{e, {4}}, x}, make(ElementType::S32, {2, 1}, std::vector<int32_t>{3, 0}), Literal{{e, {2}}, u},
                           "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
                           "stablehlo.return %p1 : " + s);
    Bytes want(4 * w, 0);
    std::memcpy(want.mutableData() + 3 * w, u.data(), w);
    std::memcpy(want.mutableData(), u.data() + w, w);
    if (out.bytes != want) ::tpjrt::test::report(__FILE__, __LINE__, std::string("scatter moved bytes wrongly for ") + types[t]);
  }
}

// --- sort -----------------------------------------------------------------------------------------------

namespace {

// Ascending on operand 0 with NaN last, as our lowering prints it (see stablehlo_printer.cc).
const char* kAscendingF32 =
    "%lt = stablehlo.compare LT, %p0, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    %nan = stablehlo.compare NE, %p1, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    %num = stablehlo.compare EQ, %p0, %p0 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    %last = stablehlo.and %nan, %num : tensor<i1>\n"
    "    %less = stablehlo.or %lt, %last : tensor<i1>\n"
    "    stablehlo.return %less : tensor<i1>";

std::vector<Literal> sortText(const std::vector<Literal>& xs, int64_t dim, const std::string& comparator) {
  std::vector<std::string> types, scalars;
  for (const auto& x : xs) {
    types.push_back(typeString(x.type));
    scalars.push_back(typeString({x.type.element, {}}));
    scalars.push_back(typeString({x.type.element, {}}));
  }
  return runText(module("sort", types, types, "<{dimension = " + std::to_string(dim) + " : i64, is_stable = true}> " + region(scalars, comparator)), xs);
}

bool sameFloats(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(std::isnan(a[i]) && std::isnan(b[i])) && std::memcmp(&a[i], &b[i], 4) != 0) return false;
  return true;
}

}  // namespace

TEST(sort_like_jax_total_order) {
  // jnp.sort(x, axis=0) as jax prints it: NaN and -0 canonicalized, then a TOTALORDER compare.
  const char* text = R"mlir(module @jit__lambda {
  func.func public @main(%arg0: tensor<5x2xf32>) -> (tensor<5x2xf32>) {
    %0 = call @sort(%arg0) : (tensor<5x2xf32>) -> tensor<5x2xf32>
    return %0 : tensor<5x2xf32>
  }
  func.func private @sort(%arg0: tensor<5x2xf32>) -> tensor<5x2xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %cst, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.select %5, %cst, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.select %7, %cst_1, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<5x2xf32>) -> tensor<5x2xf32>
    return %0 : tensor<5x2xf32>
  }
})mlir";
  auto out = runText(text, {f32({5, 2}, {3, kNaN, -1, 2, kNaN, -0.0f, 0, 1, -5, -7})});
  // column 0: 3 -1 NaN 0 -5 → -5 -1 0 3 NaN; column 1: NaN 2 -0 1 -7 → -7 -0 1 2 NaN
  CHECK(sameFloats(read<float>(out[0]), {-5, -7, -1, -0.0f, 0, 1, 3, 2, kNaN, kNaN}));
}

TEST(sort_multi_operand_is_stable_and_puts_nan_last) {
  std::vector<float> keys = {2, kNaN, 1, 2, -kNaN, 1, 0, 2};
  std::vector<int32_t> payload = {0, 1, 2, 3, 4, 5, 6, 7};
  auto out = sortText({f32({8}, keys), make(ElementType::S32, {8}, payload)}, 0, kAscendingF32);
  CHECK(read<int32_t>(out[1]) == (std::vector<int32_t>{6, 2, 5, 0, 3, 7, 1, 4}));
  CHECK(sameFloats(read<float>(out[0]), {0, 1, 1, 2, 2, 2, kNaN, kNaN}));
}

TEST(sort_descending_puts_nan_first_along_the_last_dim) {
  const char* descending =
      "%gt = stablehlo.compare GT, %p0, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %nan = stablehlo.compare NE, %p0, %p0 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %num = stablehlo.compare EQ, %p1, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %first = stablehlo.and %nan, %num : tensor<i1>\n"
      "    %r = stablehlo.or %gt, %first : tensor<i1>\n"
      "    stablehlo.return %r : tensor<i1>";
  auto out = sortText({f32({2, 4}, {1, kNaN, 3, 2, 4, 4, -1, 5})}, -1, descending);
  CHECK(sameFloats(read<float>(out[0]), {kNaN, 3, 2, 1, 5, 4, 4, -1}));
}

TEST(sort_without_dimension_sorts_the_last) {
  // `dimension` defaults to -1 (and is_stable to false, which a stable sort satisfies).
  std::vector<float> keys = {3, 1, 2, 9, 8, 7};
  auto out = runText(module("sort", {"tensor<2x3xf32>"}, {"tensor<2x3xf32>"},
                            region({"tensor<f32>", "tensor<f32>"},
                                   "%c = stablehlo.compare LT, %p0, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>")),
                     {f32({2, 3}, keys)});
  CHECK(read<float>(out[0]) == (std::vector<float>{1, 2, 3, 7, 8, 9}));
}

TEST(sort_integer_types_against_std_stable_sort) {
  std::mt19937 rng(7);
  for (int64_t length : {1, 2, 3, 17, 64, 1000}) {
    // [3, length, 2] of u8 keys (many ties) with an i64 payload, sorted along dim 1.
    std::vector<uint8_t> keys(size_t(3 * length * 2));
    std::vector<int64_t> payload(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      keys[i] = uint8_t(rng() % 13);
      payload[i] = int64_t(i) - 500;
    }
    auto out = sortText({make(ElementType::U8, {3, length, 2}, keys), make(ElementType::S64, {3, length, 2}, payload)}, 1,
                        "%lt = stablehlo.compare LT, %p0, %p1 : (tensor<ui8>, tensor<ui8>) -> tensor<i1>\n"
                        "    stablehlo.return %lt : tensor<i1>");
    std::vector<uint8_t> wantKeys = keys;
    std::vector<int64_t> wantPayload = payload;
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 2; ++c) {
        std::vector<std::pair<uint8_t, int64_t>> slice;
        for (int64_t p = 0; p < length; ++p) {
          size_t at = size_t((a * length + p) * 2 + c);
          slice.push_back({keys[at], payload[at]});
        }
        std::stable_sort(slice.begin(), slice.end(), [](auto& x, auto& y) { return x.first < y.first; });
        for (int64_t p = 0; p < length; ++p) {
          size_t at = size_t((a * length + p) * 2 + c);
          wantKeys[at] = slice[size_t(p)].first;
          wantPayload[at] = slice[size_t(p)].second;
        }
      }
    CHECK(read<uint8_t>(out[0]) == wantKeys);
    CHECK(read<int64_t>(out[1]) == wantPayload);
  }
}

TEST(sort_one_long_slice_cut_along_the_merge_path) {
  // One slice of 50000. The comparator the lowering prints takes the C++ stable sort
  // (kernels/sort_native.cc); the same order written with one more op takes the general path, whose later
  // passes cut each merge into pieces (kernels/sort.cc). Both must give std::stable_sort's order.
  std::mt19937 rng(11);
  const int64_t n = 50000;
  std::vector<float> keys(static_cast<size_t>(n));
  std::vector<int32_t> payload(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    keys[size_t(i)] = float(int(rng() % 997) - 498) * 0.5f;
    payload[size_t(i)] = int32_t(i);
  }
  keys[7] = kNaN;
  auto out = sortText({f32({n}, keys), make(ElementType::S32, {n}, payload)}, 0, kAscendingF32);
  std::vector<int32_t> want = payload;
  std::stable_sort(want.begin(), want.end(), [&](int32_t a, int32_t b) {
    float x = keys[size_t(a)], y = keys[size_t(b)];
    return x < y || (std::isnan(y) && !std::isnan(x));
  });
  CHECK(read<int32_t>(out[1]) == want);
  const std::string unrecognised = std::string(kAscendingF32).replace(std::string(kAscendingF32).find("stablehlo.return %less"), 22,
      "%yes = stablehlo.constant dense<true> : tensor<i1>\n    %also = stablehlo.and %less, %yes : tensor<i1>\n    stablehlo.return %also");
  auto general = sortText({f32({n}, keys), make(ElementType::S32, {n}, payload)}, 0, unrecognised);
  CHECK(read<int32_t>(general[1]) == want);
}

TEST(sort_small_types_and_bool) {
  auto lt = [](const std::string& t) {
    return "%lt = stablehlo.compare LT, %p0, %p1 : (" + t + ", " + t + ") -> tensor<i1>\n    stablehlo.return %lt : tensor<i1>";
  };
  auto i8 = sortText({make(ElementType::S8, {5}, std::vector<int8_t>{3, -128, 127, 0, -1})}, 0, lt("tensor<i8>"));
  CHECK(read<int8_t>(i8[0]) == (std::vector<int8_t>{-128, -1, 0, 3, 127}));
  auto u16 = sortText({make(ElementType::U16, {4}, std::vector<uint16_t>{65535, 2, 40000, 0})}, 0, lt("tensor<ui16>"));
  CHECK(read<uint16_t>(u16[0]) == (std::vector<uint16_t>{0, 2, 40000, 65535}));
  std::vector<uint16_t> h = {floatToHalf(2.5f), floatToHalf(-1), floatToHalf(0.5f)};
  auto f16 = sortText({make(ElementType::F16, {3}, h)}, 0, lt("tensor<f16>"));
  CHECK(read<uint16_t>(f16[0]) == (std::vector<uint16_t>{h[1], h[2], h[0]}));
  auto i1 = sortText({make(ElementType::Pred, {5}, std::vector<uint8_t>{1, 0, 1, 0, 0}), make(ElementType::S32, {5}, std::vector<int32_t>{0, 1, 2, 3, 4})},
                     0, "%lt = stablehlo.compare LT, %p0, %p1 : (tensor<i1>, tensor<i1>) -> tensor<i1>\n    stablehlo.return %lt : tensor<i1>");
  CHECK(read<uint8_t>(i1[0]) == (std::vector<uint8_t>{0, 0, 0, 1, 1}));
  CHECK(read<int32_t>(i1[1]) == (std::vector<int32_t>{1, 3, 4, 0, 2}));
}

TEST(sort_with_a_comparator_that_is_not_an_order_does_not_crash) {
  auto out = sortText({f32({9000}, iotaF(9000))}, 0,
                      "%t = stablehlo.constant dense<true> : tensor<i1>\n    stablehlo.return %t : tensor<i1>");
  std::vector<float> got = read<float>(out[0]);
  std::sort(got.begin(), got.end());
  CHECK(got == iotaF(9000));  // some permutation
}

// --- verifier -------------------------------------------------------------------------------------------

TEST(gather_rules) {
  auto g = [](const std::string& dims, const std::string& sizes, const std::string& idx, const std::string& result) {
    verify(module("gather", {"tensor<3x4xf32>", idx}, {result}, gatherAttrs(dims, sizes)));
  };
  const std::string rows = "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1";
  g(rows, "1, 4", "tensor<2x1xi32>", "tensor<2x4xf32>");
  CHECK_THROWS(g(rows, "1, 4", "tensor<2x1xi32>", "tensor<2x3xf32>"), "result type tensor<2x3xf32> should be tensor<2x4xf32>");
  CHECK_THROWS(g(rows, "1, 5", "tensor<2x1xi32>", "tensor<2x5xf32>"), "slice_sizes [1, 5] do not fit tensor<3x4xf32>");
  CHECK_THROWS(g(rows, "2, 4", "tensor<2x1xi32>", "tensor<2x4xf32>"), "must be 1 on collapsed and batching dimension 0");
  CHECK_THROWS(g(rows, "1, 4", "tensor<2x2xi32>", "tensor<2x4xf32>"), "start_index_map [0] must have 2 entries");
  CHECK_THROWS(g(rows, "1, 4", "tensor<2x1xf32>", "tensor<2x4xf32>"), "must have an integer element type");
  CHECK_THROWS(g("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3", "1, 4",
                 "tensor<2x1xi32>", "tensor<2x4xf32>"),
               "index_vector_dim 3 must be in [0, 2]");
  CHECK_THROWS(g("offset_dims = [1], start_index_map = [0], index_vector_dim = 1", "1, 4", "tensor<2x1xi32>", "tensor<2x4xf32>"),
               "must together count the 2 dimensions");
  CHECK_THROWS(g("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 0], index_vector_dim = 1", "1, 4",
                 "tensor<2x2xi32>", "tensor<2x4xf32>"),
               "start_index_map and operand_batching_dims [0, 0] repeat a dimension");
  CHECK_THROWS(g("collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2",
                 "1, 1", "tensor<2x2x1xi32>", "tensor<2x2xf32>"),
               "batching dimension sizes differ");
  CHECK_THROWS(verify(module("gather", {"tensor<3x4xf32>", "tensor<2x1xi32>"}, {"tensor<2x4xf32>"}, "<{slice_sizes = array<i64: 1, 4>}>")),
               "missing attribute dimension_numbers");
}

TEST(scatter_rules) {
  auto s = [](const std::string& upd, const std::string& region_) {
    verify(module("scatter", {"tensor<3x4xf32>", "tensor<2x1xi32>", upd}, {"tensor<3x4xf32>"}, scatterAttrs(kRowDims) + " " + region_));
  };
  const std::string add = region({"tensor<f32>", "tensor<f32>"}, "%s = stablehlo.add %p0, %p1 : tensor<f32>\n    stablehlo.return %s : tensor<f32>");
  s("tensor<2x4xf32>", add);
  s("tensor<2x3xf32>", add);  // windows may be smaller than the input
  CHECK_THROWS(s("tensor<2x5xf32>", add), "updates tensor<2x5xf32> do not fit input tensor<3x4xf32>");
  CHECK_THROWS(s("tensor<3x4xf32>", add), "updates tensor<3x4xf32> do not fit");
  CHECK_THROWS(s("tensor<2x4xf32>", region({"tensor<f32>", "tensor<i32>"}, "stablehlo.return %p0 : tensor<f32>")),
               "update computation arguments (tensor<f32>, tensor<i32>) should be (tensor<f32>, tensor<f32>)");
  CHECK_THROWS(s("tensor<2x4xf32>", region({"tensor<f32>", "tensor<f32>"},
                                           "%c = stablehlo.compare LT, %p0, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>")),
               "returns (tensor<i1>) but the stablehlo.scatter update computation needs (tensor<f32>)");
  CHECK_THROWS(s("tensor<2x4xf32>", region({"tensor<f32>", "tensor<f32>"},
                                           "%i = stablehlo.bitcast_convert %p0 : (tensor<f32>) -> tensor<f32>\n    stablehlo.return %i : tensor<f32>")),
               "not supported inside a stablehlo.scatter body");
  CHECK_THROWS(s("tensor<2x4xi32>", add), "must have the element type of input");
  CHECK_THROWS(verify(module("scatter", {"tensor<3x4xf32>", "tensor<2x1xi32>", "tensor<2x4xf32>"}, {"tensor<3x4xf32>"}, scatterAttrs(kRowDims))),
               "wrong number of regions (0)");
}

TEST(sort_rules) {
  auto s = [](const std::string& dim, const std::string& comparator) {
    verify(module("sort", {"tensor<2x3xf32>", "tensor<2x3xi32>"}, {"tensor<2x3xf32>", "tensor<2x3xi32>"},
                  "<{dimension = " + dim + " : i64, is_stable = true}> " + comparator));
  };
  const std::string lt = region({"tensor<f32>", "tensor<f32>", "tensor<i32>", "tensor<i32>"},
                                "%c = stablehlo.compare LT, %p0, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>");
  s("1", lt);
  s("-2", lt);
  CHECK_THROWS(s("2", lt), "dimension 2 is out of range for tensor<2x3xf32>");
  CHECK_THROWS(s("-3", lt), "dimension -3 is out of range");
  CHECK_THROWS(s("0", region({"tensor<f32>", "tensor<f32>"}, "%c = stablehlo.compare LT, %p0, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>")),
               "comparator arguments (tensor<f32>, tensor<f32>) should be (tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>)");
  CHECK_THROWS(s("0", region({"tensor<f32>", "tensor<f32>", "tensor<i32>", "tensor<i32>"}, "stablehlo.return %p0 : tensor<f32>")),
               "returns (tensor<f32>) but the stablehlo.sort comparator needs (tensor<i1>)");
  CHECK_THROWS(verify(module("sort", {"tensor<3xf32>"}, {"tensor<4xf32>"}, "<{dimension = 0 : i64}> " +
                                                                              region({"tensor<f32>", "tensor<f32>"}, "%c = stablehlo.compare LT, %p0, %p1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>"))),
               "result type tensor<4xf32> should be tensor<3xf32>");
}

TEST_MAIN()
