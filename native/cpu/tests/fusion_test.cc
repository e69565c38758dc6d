// Fused chains of element-wise ops give, bit for bit, what running each op on its own gives: across
// tile and piece boundaries, on one thread and on a pool, with splats, mixed element types, values used
// after the chain, values read twice and results nothing reads. The plan itself fuses what it should.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "interpreter_plan.h"
#include "stablehlo.h"
#include "test_modules.h"
#include "thread_pool.h"

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
  s += "  %w = \"stablehlo.convert\"(%sel) : (" + v + ") -> " + d + "\n";
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

}  // namespace

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

TEST(fused_group_reports_an_argument_of_the_wrong_size) {
  const char* text = R"mlir(
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "stablehlo.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = "stablehlo.multiply"(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%b) : (tensor<4xf32>) -> ()
}
)mlir";
  Module m = parseModule(text);
  std::string message;
  try {
    interpret(m, *m.find("main"), std::vector<Literal>{f32({2}, {1, 2})});
  } catch (const std::exception& e) {
    message = e.what();
  }
  CHECK(message.find("line 3: stablehlo.add") != std::string::npos);
  CHECK(message.find("tensor<2xf32>") != std::string::npos);
}

TEST_MAIN()
