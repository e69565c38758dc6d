// A sort that only slices of its first k positions read (topk) orders just that prefix, and those
// positions hold what the full stable sort puts there: ties in input order, NaNs where the comparator
// puts them, on one thread and on a pool. Other readers keep the full sort.
#include <cmath>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "exec/plan.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

// x [rows, n] sorted along dim 1 with its column indices, descending with NaN first (the comparator
// torch-pjrt's topk emits); the results are the slices [0, k1) of the values and [0, k2) of the indices,
// or, with `extra`, that slice of the values and the whole index array.
std::string topkModule(int64_t rows, int64_t n, int64_t k1, int64_t k2, const std::string& extra = "") {
  const std::string r = std::to_string(rows), len = std::to_string(n);
  const std::string v = "tensor<" + r + "x" + len + "xf32>", i = "tensor<" + r + "x" + len + "xi64>";
  auto sliced = [&](int64_t k, const char* e) { return "tensor<" + r + "x" + std::to_string(k) + "x" + e + ">"; };
  auto slice = [&](const std::string& name, const std::string& from, const std::string& in, int64_t start, int64_t k,
                   const char* e) {
    return "  %" + name + " = \"stablehlo.slice\"(%" + from + ") {start_indices = array<i64: 0, " + std::to_string(start) +
           ">, limit_indices = array<i64: " + r + ", " + std::to_string(k) + ">, strides = array<i64: 1, 1>} : (" + in +
           ") -> " + sliced(k - start, e) + "\n";
  };
  const bool whole = extra == "whole indices";
  const int64_t start = extra == "slice from 1" ? 1 : 0;
  std::string s = "func.func public @main(%x: " + v + ") -> (" + sliced(k1 - start, "f32") + ", " +
                  (whole ? i : sliced(k2, "i64")) + ") {\n";
  s += "  %iota = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> " + i + "\n";
  s += "  %s:2 = \"stablehlo.sort\"(%x, %iota) ({\n";
  s += "  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ai: tensor<i64>, %bi: tensor<i64>):\n";
  s += "    %gt = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n";
  s += "    %an = \"stablehlo.compare\"(%a, %a) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n";
  s += "    %bq = \"stablehlo.compare\"(%b, %b) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n";
  s += "    %nan = \"stablehlo.and\"(%an, %bq) : (tensor<i1>, tensor<i1>) -> tensor<i1>\n";
  s += "    %lt = \"stablehlo.or\"(%gt, %nan) : (tensor<i1>, tensor<i1>) -> tensor<i1>\n";
  s += "    \"stablehlo.return\"(%lt) : (tensor<i1>) -> ()\n";
  s += "  }) {dimension = 1 : i64, is_stable = true} : (" + v + ", " + i + ") -> (" + v + ", " + i + ")\n";
  s += slice("top", "s#0", v, start, k1, "f32");
  if (!whole) s += slice("at", "s#1", i, 0, k2, "i64");
  s += "  \"func.return\"(%top, %" + std::string(whole ? "s#1" : "at") + ") : (" + sliced(k1 - start, "f32") + ", " +
       (whole ? i : sliced(k2, "i64")) + ") -> ()\n}\n";
  return s;
}

// Values with many ties (a few distinct values), NaNs, ±0 and ±inf.
std::vector<float> tiedValues(int64_t count) {
  std::vector<float> v(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) v[size_t(j)] = float((j * 7919) % 13) - 6.0f;
  for (int64_t j = 5; j < count; j += 97) v[size_t(j)] = NAN;
  for (int64_t j = 11; j < count; j += 89) v[size_t(j)] = -0.0f;
  for (int64_t j = 17; j < count; j += 101) v[size_t(j)] = j % 2 ? INFINITY : -INFINITY;
  return v;
}

int64_t prefixOf(const std::string& text) {
  Module m = parseModule(text);
  const Region& body = m.find("main")->body;
  RegionPlan plan = planRegion(body);
  for (size_t i = 0; i < body.ops.size(); ++i)
    if (body.ops[i].name == "stablehlo.sort") return plan.sortedPrefix[i];
  return -1;
}

void checkAgainstFullSort(const std::string& text, int64_t rows, int64_t n, ThreadPool* pool) {
  Module prefixed = parseModule(text), full = parseModule(text);
  std::vector<Literal> args = {f32({rows, n}, tiedValues(rows * n))};
  ThreadPoolScope scope(pool);
  auto got = interpret(prefixed, *prefixed.find("main"), args);
  auto want = interpret(full, *full.find("main"), args, false);  // unfused: no prefix, the whole stable sort
  CHECK_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size() && r < want.size(); ++r) {
    CHECK(got[r].type == want[r].type);
    if (got[r].bytes != want[r].bytes) ::tpjrt::test::report(__FILE__, __LINE__, "result " + std::to_string(r) + " differs");
  }
}

}  // namespace

TEST(a_sort_read_only_through_prefix_slices_orders_the_largest_prefix) {
  CHECK_EQ(prefixOf(topkModule(3, 500, 8, 5)), int64_t(8));
  CHECK_EQ(prefixOf(topkModule(3, 500, 2, 40)), int64_t(40));
  CHECK_EQ(prefixOf(topkModule(3, 500, 500, 3)), int64_t(0));  // one slice keeps everything
  CHECK_EQ(prefixOf(topkModule(3, 500, 8, 5, "whole indices")), int64_t(0));
  CHECK_EQ(prefixOf(topkModule(3, 500, 8, 5, "slice from 1")), int64_t(0));
}

TEST(prefix_sorted_slices_equal_the_full_stable_sort_on_one_thread_and_on_a_pool) {
  ThreadPool pool(3);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    for (int64_t k : {int64_t(1), int64_t(3), int64_t(64), int64_t(999)}) checkAgainstFullSort(topkModule(40, 1000, k, k), 40, 1000, p);
    checkAgainstFullSort(topkModule(7, 300, 10, 2), 7, 300, p);
    checkAgainstFullSort(topkModule(7, 300, 10, 2, "whole indices"), 7, 300, p);
    checkAgainstFullSort(topkModule(7, 300, 10, 2, "slice from 1"), 7, 300, p);
  }
}

TEST_MAIN()
