// Fused chains of element-wise ops give, bit for bit, what running each op on its own gives: across
// tile and piece boundaries, on one thread and on a pool, with splats, mixed element types, values used
// after the chain, values read twice and results nothing reads. The plan itself fuses what it should.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
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

// A chain in the shape of an erf-style expansion plus compare/select/convert/clamp, with a reduce in
// the middle (which splits it into two groups) and several results used after their group.
std::string chainModule(int64_t n) {
  const std::string v = "tensor<" + std::to_string(n) + "xf32>", d = "tensor<" + std::to_string(n) + "xf64>",
                    p = "tensor<" + std::to_string(n) + "xi1>", i = "tensor<" + std::to_string(n) + "xi32>";
  auto bin = [&](const std::string& r, const std::string& op, const std::string& a, const std::string& b,
                 const std::string& t) {
    return "  %" + r + " = \"stablehlo." + op + "\"(%" + a + ", %" + b + ") : (" + t + ", " + t + ") -> " + t + "\n";
  };
  std::string s = "func.func public @main(%x: " + v + ", %y: " + v + ", %s: tensor<f32>) -> (" + v + ", " + v + ", " + d +
                  ", " + i + ", tensor<f32>, " + p + ") {\n";
  s += "  %z0 = \"stablehlo.constant\"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>\n";
  s += "  %sp = \"stablehlo.compare\"(%s, %z0) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, "
       "tensor<f32>) -> tensor<i1>\n";
  s += "  %half = \"stablehlo.constant\"() {value = dense<0.5> : " + v + "} : () -> " + v + "\n";
  s += "  %b = \"stablehlo.broadcast_in_dim\"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> " + v + "\n";
  s += bin("a", "multiply", "x", "half", v);
  s += "  %ab = \"stablehlo.abs\"(%a) : (" + v + ") -> " + v + "\n";
  s += bin("sq", "multiply", "ab", "ab", v);  // one value read twice
  std::string acc = "sq";
  for (int k = 0; k < 12; ++k) {  // a Horner polynomial
    const std::string c = "c" + std::to_string(k), m = "m" + std::to_string(k), q = "q" + std::to_string(k);
    s += "  %" + c + " = \"stablehlo.constant\"() {value = dense<" + std::to_string(0.1 * (k + 1) - 0.55) + "> : " + v +
         "} : () -> " + v + "\n";
    s += bin(m, "multiply", acc, "ab", v);
    s += bin(q, "add", m, c, v);
    acc = q;
  }
  s += "  %e = \"stablehlo.exponential\"(%" + acc + ") : (" + v + ") -> " + v + "\n";
  s += "  %t = \"stablehlo.tanh\"(%y) : (" + v + ") -> " + v + "\n";
  s += "  %lt = \"stablehlo.compare\"(%x, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (" + v + ", " +
       v + ") -> " + p + "\n";
  s += "  %sel = \"stablehlo.select\"(%lt, %e, %t) : (" + p + ", " + v + ", " + v + ") -> " + v + "\n";
  s += "  %dead = \"stablehlo.logistic\"(%sel) : (" + v + ") -> " + v + "\n";  // nothing reads it
  s += "  %pick = \"stablehlo.select\"(%sp, %t, %sel) : (tensor<i1>, " + v + ", " + v + ") -> " + v + "\n";  // a scalar predicate
  s += "  %w = \"stablehlo.convert\"(%pick) : (" + v + ") -> " + d + "\n";
  s += "  %w2 = \"stablehlo.multiply\"(%w, %w) : (" + d + ", " + d + ") -> " + d + "\n";
  s += "  %zero = \"stablehlo.constant\"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>\n";
  s += "  %sum = \"stablehlo.reduce\"(%sel, %zero) ({\n  ^bb0(%u: tensor<f32>, %o: tensor<f32>):\n";
  s += "    %r = \"stablehlo.add\"(%u, %o) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n";
  s += "    \"stablehlo.return\"(%r) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: 0>} : (" + v +
       ", tensor<f32>) -> tensor<f32>\n";
  s += "  %lo = \"stablehlo.constant\"() {value = dense<-0.75> : " + v + "} : () -> " + v + "\n";
  s += "  %hi = \"stablehlo.constant\"() {value = dense<0.75> : " + v + "} : () -> " + v + "\n";
  s += "  %cl = \"stablehlo.clamp\"(%lo, %sel, %hi) : (" + v + ", " + v + ", " + v + ") -> " + v + "\n";
  s += "  %sc = \"stablehlo.multiply\"(%cl, %y) : (" + v + ", " + v + ") -> " + v + "\n";
  s += "  %k = \"stablehlo.convert\"(%sc) : (" + v + ") -> " + i + "\n";
  s += "  %ne = \"stablehlo.compare\"(%sc, %sc) {comparison_direction = #stablehlo<comparison_direction NE>} : (" + v + ", " +
       v + ") -> " + p + "\n";
  s += "  \"func.return\"(%sel, %sc, %w2, %k, %sum, %ne) : (" + v + ", " + v + ", " + d + ", " + i + ", tensor<f32>, " + p +
       ") -> ()\n}\n";
  return s;
}

std::vector<float> inputs(int64_t n, int seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) v[size_t(j)] = float(std::sin(double(j * 7 + seed)) * 3.0);
  if (n > 10) {
    v[3] = NAN;
    v[7] = -INFINITY;
    v[size_t(n - 1)] = INFINITY;
  }
  return v;
}

void checkFusedMatchesUnfused(int64_t n, ThreadPool* pool) {
  const std::string text = chainModule(n);
  Module fused = parseModule(text), reference = parseModule(text);
  std::vector<Literal> args = {f32({n}, inputs(n, 1)), f32({n}, inputs(n, 2)), f32({}, {0.25f})};
  ThreadPoolScope scope(pool);
  auto got = interpret(fused, *fused.find("main"), args);
  auto want = interpret(reference, *reference.find("main"), args, false);
  CHECK_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size() && r < want.size(); ++r) {
    CHECK(got[r].type == want[r].type);
    if (r == 4) continue;  // the reduce's sum may add in another order on a pool
    if (got[r].bytes != want[r].bytes)
      ::tpjrt::test::report(__FILE__, __LINE__, "result " + std::to_string(r) + " differs for n = " + std::to_string(n) +
                                                    (pool ? " on a pool" : " on one thread"));
  }
  const double gotSum = read<float>(got[4])[0], wantSum = read<float>(want[4])[0];
  CHECK(std::isnan(gotSum) == std::isnan(wantSum));
}

// A softmax-like program: iota masks, broadcasts of row statistics and of a bias (with permuted
// broadcast dimensions), and reshapes inside the chains.
std::string positionModule(int64_t rows, int64_t cols) {
  const std::string r = std::to_string(rows), c = std::to_string(cols);
  const std::string m = "tensor<" + r + "x" + c + "xf32>", rowT = "tensor<" + r + "xf32>", row1 = "tensor<" + r + "x1xf32>",
                    ci = "tensor<" + r + "x" + c + "xi32>", mp = "tensor<" + r + "x" + c + "xi1>", bias = "tensor<" + c + "xf32>",
                    flat = "tensor<" + std::to_string(rows * cols) + "xf32>", tr = "tensor<" + c + "x" + r + "xf32>";
  std::string s = "func.func public @main(%x: " + m + ", %bias: " + bias + ", %t: " + tr + ") -> (" + m + ", " + flat + ", " + ci + ") {\n";
  s += "  %i = \"stablehlo.iota\"() {iota_dimension = 0 : i64} : () -> " + ci + "\n";
  s += "  %j = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> " + ci + "\n";
  s += "  %le = \"stablehlo.compare\"(%j, %i) {comparison_direction = #stablehlo<comparison_direction LE>} : (" + ci + ", " + ci + ") -> " + mp + "\n";
  s += "  %ninf = \"stablehlo.constant\"() {value = dense<0xFF800000> : " + m + "} : () -> " + m + "\n";
  s += "  %bb = \"stablehlo.broadcast_in_dim\"(%bias) {broadcast_dimensions = array<i64: 1>} : (" + bias + ") -> " + m + "\n";
  s += "  %xb = \"stablehlo.add\"(%x, %bb) : (" + m + ", " + m + ") -> " + m + "\n";
  s += "  %masked = \"stablehlo.select\"(%le, %xb, %ninf) : (" + mp + ", " + m + ", " + m + ") -> " + m + "\n";
  s += "  %lo = \"stablehlo.constant\"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>\n";
  s += "  %mx = \"stablehlo.reduce\"(%masked, %lo) ({\n  ^bb0(%u: tensor<f32>, %o: tensor<f32>):\n";
  s += "    %q = \"stablehlo.maximum\"(%u, %o) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n";
  s += "    \"stablehlo.return\"(%q) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: 1>} : (" + m + ", tensor<f32>) -> " + rowT + "\n";
  s += "  %mx1 = \"stablehlo.reshape\"(%mx) : (" + rowT + ") -> " + row1 + "\n";
  s += "  %mb = \"stablehlo.broadcast_in_dim\"(%mx1) {broadcast_dimensions = array<i64: 0, 1>} : (" + row1 + ") -> " + m + "\n";
  s += "  %sub = \"stablehlo.subtract\"(%masked, %mb) : (" + m + ", " + m + ") -> " + m + "\n";
  s += "  %e = \"stablehlo.exponential\"(%sub) : (" + m + ") -> " + m + "\n";
  s += "  %tb = \"stablehlo.broadcast_in_dim\"(%t) {broadcast_dimensions = array<i64: 1, 0>} : (" + tr + ") -> " + m + "\n";
  s += "  %w = \"stablehlo.multiply\"(%e, %tb) : (" + m + ", " + m + ") -> " + m + "\n";
  s += "  %f = \"stablehlo.reshape\"(%w) : (" + m + ") -> " + flat + "\n";
  s += "  %f2 = \"stablehlo.add\"(%f, %f) : (" + flat + ", " + flat + ") -> " + flat + "\n";
  s += "  \"func.return\"(%w, %f2, %j) : (" + m + ", " + flat + ", " + ci + ") -> ()\n}\n";
  return s;
}

// Runs `text` with the fused plan and with the unfused reference; every result must be the same bits.
void checkSameAsUnfused(const std::string& text, const std::vector<Literal>& args, ThreadPool* pool, const std::string& what) {
  Module fused = parseModule(text), reference = parseModule(text);
  ThreadPoolScope scope(pool);
  auto got = interpret(fused, *fused.find("main"), args);
  auto want = interpret(reference, *reference.find("main"), args, false);
  CHECK_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size() && r < want.size(); ++r)
    if (got[r].type != want[r].type || got[r].bytes != want[r].bytes)
      ::tpjrt::test::report(__FILE__, __LINE__, "result " + std::to_string(r) + " differs for " + what +
                                                    (pool ? " on a pool" : " on one thread"));
}

void checkPositionsFusedMatchUnfused(int64_t rows, int64_t cols, ThreadPool* pool) {
  std::vector<Literal> args = {f32({rows, cols}, inputs(rows * cols, 3)), f32({cols}, inputs(cols, 4)),
                               f32({cols, rows}, inputs(rows * cols, 5))};
  checkSameAsUnfused(positionModule(rows, cols), args, pool, std::to_string(rows) + "x" + std::to_string(cols));
}

}  // namespace

TEST(iota_broadcast_and_reshape_run_fused_by_position) {
  ThreadPool three(3);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{2, 3}, {7, 129}, {64, 64}, {33, 1000}, {300, 257}}) {
    checkPositionsFusedMatchUnfused(rows, cols, nullptr);
    checkPositionsFusedMatchUnfused(rows, cols, &three);
  }
  Module m = parseModule(positionModule(64, 64));
  RegionPlan plan = planRegion(m.find("main")->body);
  // Before the reduce: iota, iota, compare, broadcast, add, select; after it: subtract, exp, broadcast,
  // multiply, reshape, add (the row reshape has fewer elements and runs alone), with the broadcast of
  // the row maxima read as one value per row instead of a step.
  CHECK_EQ(plan.groups.size(), size_t(2));
  if (plan.groups.size() == 2) {
    CHECK_EQ(plan.groups[0].steps.size(), size_t(6));
    CHECK_EQ(plan.groups[1].steps.size(), size_t(6));  // the permuting broadcast reads an argument
    CHECK_EQ(plan.groups[1].rows.size(), size_t(1));
    CHECK_EQ(plan.groups[1].outputs.size(), size_t(2));  // %w and %f2
  }
}

TEST(row_broadcasts_of_two_run_lengths_in_one_step_equal_op_by_op_results) {
  // %a repeats each value over 8 × 96 positions, %b over 96; %p reads both, so its runs end at the
  // rows of either, and at tile and piece edges. %c, from a transposed operand, steps through it with
  // two strides.
  const char* text = R"(func.func public @main(%x: tensor<4x8x96xf32>, %s: tensor<4xf32>, %r: tensor<4x8xf32>, %t: tensor<8x4xf32>) -> tensor<4x8x96xf32> {
    %a = "stablehlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8x96xf32>
    %b = "stablehlo.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x96xf32>
    %c = "stablehlo.broadcast_in_dim"(%t) {broadcast_dimensions = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8x96xf32>
    %m = "stablehlo.multiply"(%x, %a) : (tensor<4x8x96xf32>, tensor<4x8x96xf32>) -> tensor<4x8x96xf32>
    %p = "stablehlo.subtract"(%a, %b) : (tensor<4x8x96xf32>, tensor<4x8x96xf32>) -> tensor<4x8x96xf32>
    %o = "stablehlo.add"(%m, %p) : (tensor<4x8x96xf32>, tensor<4x8x96xf32>) -> tensor<4x8x96xf32>
    %z = "stablehlo.multiply"(%o, %c) : (tensor<4x8x96xf32>, tensor<4x8x96xf32>) -> tensor<4x8x96xf32>
    "func.return"(%z) : (tensor<4x8x96xf32>) -> ()
  })";
  Module m = parseModule(text);
  RegionPlan plan = planRegion(m.find("main")->body);
  CHECK(plan.groups.size() == 1 && plan.groups[0].rows.size() == 3 && plan.groups[0].steps.size() == 4);
  std::vector<Literal> args = {f32({4, 8, 96}, inputs(4 * 8 * 96, 6)), f32({4}, inputs(4, 7)), f32({4, 8}, inputs(32, 8)),
                               f32({8, 4}, inputs(32, 9))};
  ThreadPool three(3);
  checkSameAsUnfused(text, args, nullptr, "two row lengths");
  checkSameAsUnfused(text, args, &three, "two row lengths");
}

TEST(fused_chains_equal_op_by_op_results_across_tiles_and_pieces) {
  ThreadPool three(3);
  for (int64_t n : {int64_t(2), int64_t(3), kFusedTile - 1, kFusedTile, kFusedTile + 1, 3 * kFusedTile + 17, int64_t(200000)}) {
    checkFusedMatchesUnfused(n, nullptr);
    checkFusedMatchesUnfused(n, &three);
  }
}

TEST(plan_fuses_each_run_of_elementwise_ops_and_keeps_only_what_is_read_later) {
  Module m = parseModule(chainModule(4096));
  const Region& body = m.find("main")->body;
  RegionPlan plan = planRegion(body);
  // Two groups: before the reduce (ending at the dead logistic and the converts), and after it.
  CHECK_EQ(plan.groups.size(), size_t(2));
  if (plan.groups.size() != 2) return;
  const FusedGroup& first = plan.groups[0];
  CHECK_EQ(first.count, int64_t(4096));
  // %sel is read by the reduce and returned, %w2 is returned; everything else stays in tiles.
  CHECK_EQ(first.outputs.size(), size_t(2));
  CHECK(first.slots <= 4);
  CHECK(first.steps.size() > 30);
  const FusedGroup& second = plan.groups[1];
  CHECK_EQ(second.outputs.size(), size_t(3));  // %sc, %k, %ne
  // The unfused plan has no groups and one step per op.
  RegionPlan unfused = planRegion(body, false);
  CHECK(unfused.groups.empty());
  CHECK_EQ(unfused.steps.size(), body.ops.size());
}

TEST(group_outputs_take_the_storage_of_inputs_that_die_only_when_nothing_reads_them_later) {
  // %v (a transpose, made by this run) dies in the group. %o is written before the group's last read
  // of %v, so it must not take %v's storage; %s is written by that last read and may. %x (an argument)
  // is never taken.
  const std::string t = "tensor<64x48xf32>", u = "tensor<48x64xf32>";
  const std::string text = "func.func public @main(%x: " + t + ") -> (" + u + ", " + u + ", " + u + ") {\n" +
                           "  %v = \"stablehlo.transpose\"(%x) {permutation = array<i64: 1, 0>} : (" + t + ") -> " + u + "\n" +
                           "  %o = \"stablehlo.negate\"(%v) : (" + u + ") -> " + u + "\n" +
                           "  %s = \"stablehlo.add\"(%o, %v) : (" + u + ", " + u + ") -> " + u + "\n" +
                           "  %y = \"stablehlo.transpose\"(%x) {permutation = array<i64: 1, 0>} : (" + t + ") -> " + u + "\n" +
                           "  %z = \"stablehlo.multiply\"(%y, %y) : (" + u + ", " + u + ") -> " + u + "\n" +
                           "  %w = \"stablehlo.subtract\"(%z, %y) : (" + u + ", " + u + ") -> " + u + "\n" +
                           "  \"func.return\"(%o, %s, %w) : (" + u + ", " + u + ", " + u + ") -> ()\n}\n";
  Module m = parseModule(text);
  RegionPlan plan = planRegion(m.find("main")->body);
  CHECK_EQ(plan.groups.size(), size_t(2));
  if (plan.groups.size() != 2) return;
  CHECK(plan.groups[0].reuse == std::vector<int>({-1, 0}));
  CHECK(plan.groups[1].reuse == std::vector<int>({0}));  // %w takes %y's storage
  std::vector<float> xs(64 * 48);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = float(int(i % 23) - 11) * 0.5f;
  const Literal x = f32({64, 48}, xs);
  auto got = interpret(m, *m.find("main"), std::vector<Literal>{x});
  CHECK_EQ(got.size(), size_t(3));
  if (got.size() != 3) return;
  auto o = read<float>(got[0]), sum = read<float>(got[1]), w = read<float>(got[2]);
  for (int64_t r = 0; r < 48; ++r)
    for (int64_t c = 0; c < 64; ++c) {
      const double v = xs[size_t(c * 48 + r)];  // %v[r][c] = %x[c][r]
      const size_t k = size_t(r * 64 + c);
      CHECK(o[k] == float(-v));
      CHECK(sum[k] == 0.0f);
      CHECK(w[k] == float(v * v - v));
    }
  CHECK(read<float>(x) == xs);  // the argument is untouched
}

namespace {

// lhs [b, m, k] · rhs [b, k, n] (no batch when b is 0) plus a row broadcast along the last dimension,
// the add's operands in either order; `extra` adds a use of the product or of the broadcast, which
// must keep them (and the plain add) as they were.
std::string rowAddModule(int64_t b, int64_t m, int64_t k, int64_t n, const std::string& t, bool rowFirst,
                         const std::string& extra) {
  auto ty = [&](std::vector<int64_t> dims) {
    std::string s = "tensor<";
    for (int64_t d : dims) s += std::to_string(d) + "x";
    return s + t + ">";
  };
  const bool batched = b > 0;
  const std::string lhs = batched ? ty({b, m, k}) : ty({m, k}), rhs = batched ? ty({b, k, n}) : ty({k, n}),
                    out = batched ? ty({b, m, n}) : ty({m, n}), row = ty({n});
  const std::string dims = batched ? "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]"
                                   : "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]";
  std::string s = "func.func public @main(%a: " + lhs + ", %w: " + rhs + ", %r: " + row + ") -> (" + out +
                  (extra.empty() ? "" : ", " + out) + ") {\n";
  s += "  %d = \"stablehlo.dot_general\"(%a, %w) {dot_dimension_numbers = #stablehlo.dot<" + dims + ">} : (" + lhs + ", " +
       rhs + ") -> " + out + "\n";
  s += "  %rb = \"stablehlo.broadcast_in_dim\"(%r) {broadcast_dimensions = array<i64: " + std::to_string(batched ? 2 : 1) +
       ">} : (" + row + ") -> " + out + "\n";
  s += std::string("  %y = \"stablehlo.add\"(") + (rowFirst ? "%rb, %d" : "%d, %rb") + ") : (" + out + ", " + out + ") -> " +
       out + "\n";
  if (!extra.empty()) s += "  %x = \"stablehlo.multiply\"(%" + extra + ", %" + extra + ") : (" + out + ", " + out + ") -> " + out + "\n";
  s += "  \"func.return\"(%y" + std::string(extra.empty() ? "" : ", %x") + ") : (" + out + (extra.empty() ? "" : ", " + out) +
       ") -> ()\n}\n";
  return s;
}

template <class T>
Literal values(ElementType e, std::vector<int64_t> dims, int seed) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<T> v(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) v[size_t(j)] = T(std::sin(double(j * 13 + seed)) * 2.0);
  return make(e, dims, v);
}

}  // namespace

TEST(a_dot_general_adds_a_broadcast_row_itself_bit_for_bit) {
  ThreadPool three(3);
  struct Case {
    int64_t b, m, k, n;
  };
  // edge tiles, several depth blocks, the pool's row and column splits, Cᵀ computed (n < 16), a batch,
  // no contraction
  for (Case c : {Case{0, 5, 3, 7}, Case{0, 37, 1100, 29}, Case{0, 130, 300, 150}, Case{0, 64, 96, 2000}, Case{0, 40, 30, 6}, Case{3, 20, 40, 24},
                 Case{0, 4, 0, 6}}) {
    for (const char* t : {"f32", "f64"}) {
      const bool f64 = std::string(t) == "f64";
      const ElementType e = f64 ? ElementType::F64 : ElementType::F32;
      auto make3 = [&](int seed, std::vector<int64_t> dims) { return f64 ? values<double>(e, dims, seed) : values<float>(e, dims, seed); };
      const bool batched = c.b > 0;
      std::vector<Literal> args = {make3(1, batched ? std::vector<int64_t>{c.b, c.m, c.k} : std::vector<int64_t>{c.m, c.k}),
                                   make3(2, batched ? std::vector<int64_t>{c.b, c.k, c.n} : std::vector<int64_t>{c.k, c.n}),
                                   make3(3, {c.n})};
      for (const char* extra : {"", "d", "rb"}) {
        for (bool rowFirst : {false, true}) {
          const std::string text = rowAddModule(c.b, c.m, c.k, c.n, t, rowFirst, extra);
          Module m = parseModule(text);
          RegionPlan plan = planRegion(m.find("main")->body);
          CHECK_EQ(plan.rowAdd[0] >= 0, std::string(extra) != "d");  // a product read twice stays as it is
          CHECK_EQ(plan.skipped[1], std::string(extra).empty());
          const std::string what = std::string(t) + " m k n = " + std::to_string(c.m) + " " + std::to_string(c.k) + " " +
                                   std::to_string(c.n) + " extra '" + extra + "'";
          for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &three}) checkSameAsUnfused(text, args, pool, what);
        }
      }
    }
  }
}

TEST(a_matrix_vector_product_adds_its_row_after_the_product) {
  // rhs has no free dimension, so the result's last dimension is the lhs's rows
  const char* text = R"(func.func public @main(%a: tensor<3x50x40xf32>, %v: tensor<40xf32>, %r: tensor<50xf32>) -> tensor<3x50xf32> {
    %d = "stablehlo.dot_general"(%a, %v) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<3x50x40xf32>, tensor<40xf32>) -> tensor<3x50xf32>
    %rb = "stablehlo.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64: 1>} : (tensor<50xf32>) -> tensor<3x50xf32>
    %y = "stablehlo.add"(%d, %rb) : (tensor<3x50xf32>, tensor<3x50xf32>) -> tensor<3x50xf32>
    "func.return"(%y) : (tensor<3x50xf32>) -> ()
  })";
  Module m = parseModule(text);
  CHECK(planRegion(m.find("main")->body).rowAdd[0] >= 0);
  std::vector<Literal> args = {values<float>(ElementType::F32, {3, 50, 40}, 1), values<float>(ElementType::F32, {40}, 2),
                               values<float>(ElementType::F32, {50}, 3)};
  checkSameAsUnfused(text, args, nullptr, "a matrix-vector product");
}

namespace {

// `producer` makes %r (tensor<nxf64>) from the argument `arg`; a compare of %r with a splat constant,
// converted, is a fused group of two, and a reshape of %r after it is planned ahead of the group.
std::string compareAndReshapeModule(const std::string& producer, int64_t n, const std::string& arg) {
  const std::string v = "tensor<" + std::to_string(n) + "xf64>", p = "tensor<" + std::to_string(n) + "xi1>",
                    col = "tensor<" + std::to_string(n) + "x1xf64>";
  return "func.func public @main(" + arg + ": tensor<5xf64>) -> (" + v + ", " + col + ") {\n" + producer +
         "  %seven = \"stablehlo.constant\"() {value = dense<7.0> : " + v + "} : () -> " + v + "\n" +
         "  %ne = \"stablehlo.compare\"(%r, %seven) {comparison_direction = #stablehlo<comparison_direction NE>} : (" + v +
         ", " + v + ") -> " + p + "\n" +
         "  %c = \"stablehlo.convert\"(%ne) : (" + p + ") -> " + v + "\n" +
         "  %col = \"stablehlo.reshape\"(%r) : (" + v + ") -> " + col + "\n" +
         "  \"func.return\"(%c, %col) : (" + v + ", " + col + ") -> ()\n}\n";
}

void checkCompareAndReshape(const std::string& text, const std::vector<double>& x, const std::vector<double>& r,
                            const std::string& what) {
  Module m = parseModule(text);
  std::vector<double> ne;
  for (double e : r) ne.push_back(e != 7.0 ? 1.0 : 0.0);
  for (bool fuse : {true, false}) {
    std::vector<Literal> got;
    try {
      got = interpret(m, *m.find("main"), std::vector<Literal>{make(ElementType::F64, {int64_t(x.size())}, x)}, fuse);
    } catch (const std::exception& e) {
      ::tpjrt::test::report(__FILE__, __LINE__, what + (fuse ? " fused: " : " unfused: ") + e.what());
      continue;
    }
    CHECK_EQ(got.size(), size_t(2));
    if (got.size() != 2) continue;
    CHECK(read<double>(got[0]) == ne);
    CHECK(got[1].type == (TensorType{ElementType::F64, {int64_t(r.size()), 1}}));
    CHECK(read<double>(got[1]) == r);
  }
}

}  // namespace

TEST(a_reshape_planned_ahead_of_a_group_keeps_its_operand_for_the_group) {
  const std::string windowSum =
      "  %z = \"stablehlo.constant\"() {value = dense<0.0> : tensor<f64>} : () -> tensor<f64>\n"
      "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
      "  ^bb0(%a: tensor<f64>, %b: tensor<f64>):\n"
      "    %s = \"stablehlo.add\"(%a, %b) : (tensor<f64>, tensor<f64>) -> tensor<f64>\n"
      "    \"stablehlo.return\"(%s) : (tensor<f64>) -> ()\n"
      "  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>} : (tensor<5xf64>, tensor<f64>) -> tensor<3xf64>\n";
  const std::string sorted =
      "  %r = \"stablehlo.sort\"(%x) ({\n"
      "  ^bb0(%a: tensor<f64>, %b: tensor<f64>):\n"
      "    %lt = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<f64>, tensor<f64>) -> tensor<i1>\n"
      "    \"stablehlo.return\"(%lt) : (tensor<i1>) -> ()\n"
      "  }) {dimension = 0 : i64, is_stable = true} : (tensor<5xf64>) -> tensor<5xf64>\n";
  const std::vector<double> x = {1, 3, 3, 2, 7};
  checkCompareAndReshape(compareAndReshapeModule(windowSum, 3, "%x"), x, {7, 8, 12}, "reduce_window");
  checkCompareAndReshape(compareAndReshapeModule(sorted, 5, "%x"), x, {1, 2, 3, 3, 7}, "sort");
  checkCompareAndReshape(compareAndReshapeModule("", 5, "%r"), x, x, "an argument");
  // The reshape runs before the group of compare and convert, and the group, not the reshape, drops %r.
  Module m = parseModule(compareAndReshapeModule(windowSum, 3, "%x"));
  const Region& body = m.find("main")->body;
  RegionPlan plan = planRegion(body);
  CHECK_EQ(plan.groups.size(), size_t(1));
  const int r = body.ops[1].results[0];
  for (const RegionPlan::Step& step : plan.steps) {
    const bool drops = std::find(step.release.begin(), step.release.end(), r) != step.release.end();
    if (step.group < 0 && body.ops[step.op].name == "stablehlo.reshape") CHECK(!drops);
    if (step.group >= 0) CHECK(drops);
  }
}

// An optimizer-style update: element-wise ops over parameters, interleaved with scalars taken from a
// table (slice, reshape, a scalar multiply, a splat broadcast). With `readGroup`, one scalar is sliced
// from a value the update makes, so it must run after that value.
std::string scalarTableModule(int64_t n, bool readGroup) {
  const std::string v = "tensor<" + std::to_string(n) + "xf32>", v1 = "tensor<1xf32>";
  auto scalar = [&](const std::string& name, int row) {
    return "  %" + name + "s = \"stablehlo.slice\"(%h) {start_indices = array<i64: " + std::to_string(row) +
           ", 0>, limit_indices = array<i64: " + std::to_string(row + 1) +
           ", 1>, strides = array<i64: 1, 1>} : (tensor<3x2xf32>) -> tensor<1x1xf32>\n"
           "  %" + name + " = \"stablehlo.reshape\"(%" + name + "s) : (tensor<1x1xf32>) -> tensor<f32>\n";
  };
  auto splat = [&](const std::string& name, const std::string& of) {
    return "  %" + name + " = \"stablehlo.broadcast_in_dim\"(%" + of + ") {broadcast_dimensions = array<i64>} : (tensor<f32>) -> " + v + "\n";
  };
  auto bin = [&](const std::string& r, const std::string& op, const std::string& a, const std::string& b) {
    return "  %" + r + " = \"stablehlo." + op + "\"(%" + a + ", %" + b + ") : (" + v + ", " + v + ") -> " + v + "\n";
  };
  std::string s = "func.func public @main(%h: tensor<3x2xf32>, %p: " + v + ", %g: " + v + ", %m: " + v + ") -> (" + v + ", " + v + ") {\n";
  s += scalar("k0", 0) + splat("b0", "k0") + bin("a", "multiply", "p", "b0");
  s += scalar("k1", 1) + splat("b1", "k1") + bin("d", "subtract", "g", "m") + bin("e", "multiply", "b1", "d");
  s += bin("m2", "add", "m", "e");
  if (readGroup) {
    s += "  %k2s = \"stablehlo.slice\"(%m2) {start_indices = array<i64: 0>, limit_indices = array<i64: 1>, strides = array<i64: 1>} : (" +
         v + ") -> " + v1 + "\n  %k2 = \"stablehlo.reshape\"(%k2s) : (" + v1 + ") -> tensor<f32>\n";
  } else {
    s += scalar("k2", 2);
  }
  s += "  %k3 = \"stablehlo.multiply\"(%k2, %k0) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n";
  s += splat("b3", "k3") + bin("q", "multiply", "m2", "b3") + bin("p2", "subtract", "a", "q");
  s += "  \"func.return\"(%p2, %m2) : (" + v + ", " + v + ") -> ()\n}\n";
  return s;
}

TEST(scalars_taken_from_a_table_run_ahead_so_an_update_stays_one_group) {
  ThreadPool three(3);
  const std::vector<float> table = {0.9f, 0.5f, 0.25f, -1.5f, 1e-3f, 2.0f};
  for (bool readGroup : {false, true})
    for (int64_t n : {int64_t(2), kFusedTile - 1, kFusedTile + 1, 3 * kFusedTile + 17})
      for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &three}) {
        std::vector<Literal> args = {f32({3, 2}, table), f32({n}, inputs(n, 6)), f32({n}, inputs(n, 7)), f32({n}, inputs(n, 8))};
        checkSameAsUnfused(scalarTableModule(n, readGroup), args, pool,
                           "a scalar table" + std::string(readGroup ? " read from the group" : "") + ", n = " + std::to_string(n));
      }
  // The table's scalars run before the group; all six element-wise ops are one group.
  Module m = parseModule(scalarTableModule(4096, false));
  RegionPlan plan = planRegion(m.find("main")->body);
  CHECK_EQ(plan.groups.size(), size_t(1));
  if (plan.groups.size() == 1) {
    CHECK_EQ(plan.groups[0].steps.size(), size_t(6));
    CHECK_EQ(plan.groups[0].outputs.size(), size_t(2));
  }
  // A scalar sliced from a value of the update cannot run ahead of it: the update splits there.
  Module split = parseModule(scalarTableModule(4096, true));
  RegionPlan splitPlan = planRegion(split.find("main")->body);
  CHECK_EQ(splitPlan.groups.size(), size_t(2));
}

TEST(fused_group_reports_an_argument_of_the_wrong_size) {
  const char* text = R"mlir(
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "stablehlo.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = "stablehlo.multiply"(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%b) : (tensor<4xf32>) -> ()
}
)mlir";
  Module m = parseModule(text);
  const std::vector<Literal> args{f32({2}, {1, 2})};
  CHECK_THROWS(interpret(m, *m.find("main"), args), "line 3: stablehlo.add");
  CHECK_THROWS(interpret(m, *m.find("main"), args), "tensor<2xf32>");
}

// Most eager units are one element-wise op on their arguments: the plan says which argument each
// operand reads, and the result is the reference's, whatever the order or repetition of the arguments.
TEST(a_lone_element_wise_op_on_arguments_is_planned_and_equals_the_reference) {
  const int64_t n = 100003;  // split over the pool
  const std::string v = "tensor<" + std::to_string(n) + "xf32>", p = "tensor<" + std::to_string(n) + "xi1>",
                    i = "tensor<" + std::to_string(n) + "xi32>";
  const std::string sub = "func.func public @main(%x: " + v + ", %y: " + v + ") -> " + v + " {\n  %d = \"stablehlo.subtract\"(%y, %x) : (" +
                          v + ", " + v + ") -> " + v + "\n  \"func.return\"(%d) : (" + v + ") -> ()\n}\n";
  const std::string select = "func.func public @main(%p: " + p + ", %x: " + v + ") -> " + v +
                             " {\n  %s = \"stablehlo.select\"(%p, %x, %x) : (" + p + ", " + v + ", " + v + ") -> " + v +
                             "\n  \"func.return\"(%s) : (" + v + ") -> ()\n}\n";
  const std::string convert = "func.func public @main(%k: " + i + ") -> " + v + " {\n  %c = \"stablehlo.convert\"(%k) : (" + i +
                              ") -> " + v + "\n  \"func.return\"(%c) : (" + v + ") -> ()\n}\n";
  const std::string broadcast = "func.func public @main(%x: " + v + ", %s: tensor<f32>) -> " + v +
                                " {\n  %b = \"stablehlo.broadcast_in_dim\"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> " +
                                v + "\n  %a = \"stablehlo.add\"(%x, %b) : (" + v + ", " + v + ") -> " + v + "\n  \"func.return\"(%a) : (" +
                                v + ") -> ()\n}\n";
  auto loneArgs = [](const std::string& text) {
    Module m = parseModule(text);
    return planRegion(m.find("main")->body).loneOpArgs;
  };
  CHECK(loneArgs(sub) == std::vector<size_t>({1, 0}));
  CHECK(loneArgs(select) == std::vector<size_t>({0, 1, 1}));
  CHECK(loneArgs(convert) == std::vector<size_t>({0}));
  CHECK(!loneArgs(broadcast).has_value());

  std::vector<int32_t> flags(static_cast<size_t>(n)), ints(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    flags[size_t(j)] = j % 3 == 0;
    ints[size_t(j)] = int32_t(j * 7919 % 100000 - 50000);
  }
  std::vector<uint8_t> predicate(flags.begin(), flags.end());
  ThreadPool pool(3);
  for (ThreadPool* on : {static_cast<ThreadPool*>(nullptr), &pool}) {
    checkSameAsUnfused(sub, {f32({n}, inputs(n, 6)), f32({n}, inputs(n, 7))}, on, "a lone subtract");
    checkSameAsUnfused(select, {make(ElementType::Pred, {n}, predicate), f32({n}, inputs(n, 8))}, on, "a lone select");
    checkSameAsUnfused(convert, {make(ElementType::S32, {n}, ints)}, on, "a lone convert");
  }
  Module m = parseModule(sub);
  std::vector<Literal> out = interpret(m, *m.find("main"), std::vector<Literal>{f32({n}, inputs(n, 6)), f32({n}, inputs(n, 7))});
  const std::vector<float> x = inputs(n, 6), y = inputs(n, 7), d = read<float>(out[0]);
  bool exact = true;
  for (int64_t j = 0; j < n; ++j) {
    const float want = y[size_t(j)] - x[size_t(j)];
    exact = exact && (std::isnan(want) ? std::isnan(d[size_t(j)]) : d[size_t(j)] == want);
  }
  CHECK(exact);
}

TEST(a_lone_element_wise_op_reports_an_argument_of_the_wrong_size) {
  const char* text = R"mlir(
func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = "stablehlo.subtract"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%a) : (tensor<4xf32>) -> ()
}
)mlir";
  Module m = parseModule(text);
  const std::vector<Literal> args{f32({2}, {1, 2}), f32({4}, {1, 2, 3, 4})};
  CHECK_THROWS(interpret(m, *m.find("main"), args), "line 3: stablehlo.subtract");
  CHECK_THROWS(interpret(m, *m.find("main"), args), "tensor<2xf32>");
}

TEST_MAIN()
