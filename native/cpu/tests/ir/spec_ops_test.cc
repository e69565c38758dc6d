// The spec's ops the plugin runs as others (ir/lower_spec_ops.h) or as its own cholesky kernel: what the
// op table's cases (test/ops/cases_spec_ops.ts, checked against XLA too) cannot show, because XLA does
// it differently or does not check it: a matrix that is not positive definite, collectives that name a
// process a one-process program does not have, a collective_permute that sends nothing to process 0.
#include <cmath>
#include <string>
#include <vector>

#include "check.h"
#include "exec/interpreter.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

std::vector<Literal> runText(const std::string& text, const std::vector<Literal>& args) {
  Module m = parseModule(text);
  verifyModule(m);
  return interpret(m, *m.find("main"), args);
}

std::string main2x2(const std::string& body) {
  return "func.func public @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {\n  " + body +
         "\n  return %r : tensor<2x2xf32>\n}\n";
}

}  // namespace

TEST(cholesky_of_a_matrix_that_is_not_positive_definite_is_nan_from_the_failing_column_on) {
  // the first pivot fails: NaN throughout the factor's triangle, zeros in the other
  for (const char* lower : {"true", "false"}) {
    auto r = runText(main2x2(std::string("%r = stablehlo.cholesky %a, lower = ") + lower + " : tensor<2x2xf32>"),
                     {f32({2, 2}, {-1, 2, 2, 1})});
    const std::vector<float> v = read<float>(r[0]);
    const bool low = lower[0] == 't';
    CHECK(std::isnan(v[0]) && std::isnan(v[3]) && std::isnan(low ? v[2] : v[1]) && (low ? v[1] : v[2]) == 0);
  }
  // a 3×3 whose second leading minor is singular: the first column is the factor's, the rest NaN; a
  // positive definite matrix next to it in the batch is unaffected
  const std::string batch =
      "func.func public @main(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {\n"
      "  %r = stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>\n  return %r : tensor<2x3x3xf32>\n}\n";
  auto r = runText(batch, {f32({2, 3, 3}, {4, 2, 2, 2, 1, 1, 2, 1, 9, 4, 0, 0, 2, 5, 0, 0, 0, 1})});
  const std::vector<float> v = read<float>(r[0]);
  CHECK((std::vector<float>{v[0], v[1], v[2], v[3], v[6]} == std::vector<float>{2, 0, 0, 1, 1}));
  for (size_t k : {4, 7, 8}) CHECK(std::isnan(v[k]));
  CHECK(v[5] == 0);
  CHECK((std::vector<float>(v.begin() + 9, v.end()) == std::vector<float>{2, 0, 0, 1, 2, 0, 0, 0, 1}));
}

TEST(lapack_potrf_keeps_the_other_triangle_and_gives_the_failing_minor_as_info) {
  const std::string text =
      "func.func public @main(%a: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>) {\n"
      "  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, "
      "operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>)\n"
      "  return %r#0, %r#1 : tensor<2x3x3xf32>, tensor<2xi32>\n}\n";
  // the first matrix is positive definite; the second's leading minor of order 2 is singular
  auto r = runText(text, {f32({2, 3, 3}, {4, 7, 8, 2, 5, 9, 2, 1, 9, 4, 7, 8, 2, 1, 9, 0, 0, 1})});
  const std::vector<float> v = read<float>(r[0]);
  CHECK((std::vector<float>(v.begin(), v.begin() + 9) == std::vector<float>{2, 7, 8, 1, 2, 9, 1, 0, 2.8284271f}));
  CHECK((std::vector<float>{v[9], v[10], v[11], v[12]} == std::vector<float>{2, 7, 8, 1}));
  CHECK(std::isnan(v[13]) && v[14] == 9);
  CHECK((read<int32_t>(r[1]) == std::vector<int32_t>{0, 2}));
}

TEST(collectives_that_name_another_process_are_rejected) {
  const std::string region =
      "({\n  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n    %s = stablehlo.add %p, %q : tensor<f32>\n"
      "    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n  })";
  CHECK_THROWS(runText(main2x2("%r = \"stablehlo.all_reduce\"(%a) " + region +
                               " {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>"),
                       {f32({2, 2}, {1, 2, 3, 4})}),
               "names process 1");
  CHECK_THROWS(runText(main2x2("%r = \"stablehlo.collective_permute\"(%a) {source_target_pairs = dense<[[0, 2]]> : "
                               "tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>"),
                       {f32({2, 2}, {1, 2, 3, 4})}),
               "other than 0");
}

TEST(collective_permute_without_a_pair_into_process_0_gives_zeros) {
  auto r = runText(main2x2("%r = \"stablehlo.collective_permute\"(%a) {source_target_pairs = dense<-1> : "
                           "tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>"),
                   {f32({2, 2}, {1, 2, 3, 4})});
  CHECK((read<float>(r[0]) == std::vector<float>{0, 0, 0, 0}));
}

TEST_MAIN()
