// Views (kernels/views.h): transpose, slice and reshape run as layouts over their operand's storage where the
// plan lets them, and every result equals, bit for bit, the plan that copies (fuse false). View
// arguments are read in place by dot_general and copied for every other reader.
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "exec/plan.h"
#include "ir/stablehlo.h"
#include "kernels/views.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * float((i * 37) % 101) - 3.0f;
  return v;
}

// A view of `base`'s storage with dims `dims`.
Literal makeView(const Literal& base, std::vector<int64_t> dims, ViewLayout layout) {
  Literal view = base;
  view.type.dims = std::move(dims);
  view.view = std::make_shared<const ViewLayout>(std::move(layout));
  return view;
}

// Runs main with views kept in the results (as the plugin does).
std::vector<Literal> runKeepingViews(Module& m, const std::vector<Literal>& args) {
  std::vector<std::shared_ptr<const Literal>> shared;
  for (const Literal& a : args) shared.push_back(std::make_shared<const Literal>(a));
  return interpret(m, *m.find("main"), shared, true, ViewResults::Keep);
}

// Every result of `text` with views (kept, then made dense) equals the copying plan's, bit for bit.
std::vector<Literal> checkSameAsCopies(const std::string& text, const std::vector<Literal>& args, const std::string& what) {
  Module viewed = parseModule(text), reference = parseModule(text);
  verifyModule(viewed);
  auto got = runKeepingViews(viewed, args);
  auto want = interpret(reference, *reference.find("main"), args, false);
  CHECK_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size() && r < want.size(); ++r) {
    const Literal dense = denseOf(got[r]);
    if (dense.type != want[r].type || dense.bytes != want[r].bytes)
      ::tpjrt::test::report(__FILE__, __LINE__, "result " + std::to_string(r) + " differs for " + what);
  }
  return got;
}

// Attention on packed q|k|v [2, 4, 12] with 2 heads of 2: slices, head reshapes and transposes read
// by the two products, the merge of the heads (a transpose of a product, then a reshape that cannot
// regroup it) and two results that stay views of the argument.
const char* kAttention = R"(func.func public @main(%x: tensor<2x4x12xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x2x2xf32>, tensor<12x4x2xf32>, tensor<2x4x4xf32>) {
  %q0 = "stablehlo.slice"(%x) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 2, 4, 4>, strides = array<i64: 1, 1, 1>} : (tensor<2x4x12xf32>) -> tensor<2x4x4xf32>
  %k0 = "stablehlo.slice"(%x) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 2, 4, 8>, strides = array<i64: 1, 1, 1>} : (tensor<2x4x12xf32>) -> tensor<2x4x4xf32>
  %v0 = "stablehlo.slice"(%x) {start_indices = array<i64: 0, 0, 8>, limit_indices = array<i64: 2, 4, 12>, strides = array<i64: 1, 1, 1>} : (tensor<2x4x12xf32>) -> tensor<2x4x4xf32>
  %q1 = "stablehlo.reshape"(%q0) : (tensor<2x4x4xf32>) -> tensor<2x4x2x2xf32>
  %k1 = "stablehlo.reshape"(%k0) : (tensor<2x4x4xf32>) -> tensor<2x4x2x2xf32>
  %v1 = "stablehlo.reshape"(%v0) : (tensor<2x4x4xf32>) -> tensor<2x4x2x2xf32>
  %q = "stablehlo.transpose"(%q1) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x2x2xf32>) -> tensor<2x2x4x2xf32>
  %k = "stablehlo.transpose"(%k1) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x2x2xf32>) -> tensor<2x2x4x2xf32>
  %v = "stablehlo.transpose"(%v1) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x2x2xf32>) -> tensor<2x2x4x2xf32>
  %s = "stablehlo.dot_general"(%q, %k) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>} : (tensor<2x2x4x2xf32>, tensor<2x2x4x2xf32>) -> tensor<2x2x4x4xf32>
  %e = "stablehlo.exponential"(%s) : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  %o = "stablehlo.dot_general"(%e, %v) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<2x2x4x4xf32>, tensor<2x2x4x2xf32>) -> tensor<2x2x4x2xf32>
  %m = "stablehlo.transpose"(%o) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x2x4x2xf32>) -> tensor<2x4x2x2xf32>
  %r = "stablehlo.reshape"(%m) : (tensor<2x4x2x2xf32>) -> tensor<2x4x4xf32>
  %t = "stablehlo.transpose"(%x) {permutation = array<i64: 2, 1, 0>} : (tensor<2x4x12xf32>) -> tensor<12x4x2xf32>
  %n = "stablehlo.negate"(%k0) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  "func.return"(%r, %m, %t, %n) : (tensor<2x4x4xf32>, tensor<2x4x2x2xf32>, tensor<12x4x2xf32>, tensor<2x4x4xf32>) -> ()
})";

std::string dotOfTransposeModule(const std::string& element) {
  const std::string a = "tensor<3x4x" + element + ">", t = "tensor<4x3x" + element + ">", s = "tensor<2x2x" + element + ">";
  return "func.func public @main(%a: " + a + ") -> (tensor<4x4x" + element + ">, tensor<2x2x" + element + ">) {\n"
         "  %t = \"stablehlo.transpose\"(%a) {permutation = array<i64: 1, 0>} : (" + a + ") -> " + t + "\n"
         "  %d = \"stablehlo.dot_general\"(%t, %a) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], "
         "rhs_contracting_dimensions = [0]>} : (" + t + ", " + a + ") -> tensor<4x4x" + element + ">\n"
         "  %s = \"stablehlo.slice\"(%a) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 3, 4>, strides = "
         "array<i64: 2, 2>} : (" + a + ") -> " + s + "\n"
         "  %p = \"stablehlo.dot_general\"(%s, %s) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], "
         "rhs_contracting_dimensions = [1]>} : (" + s + ", " + s + ") -> " + s + "\n"
         "  \"func.return\"(%d, %p) : (tensor<4x4x" + element + ">, " + s + ") -> ()\n}";
}

}  // namespace

TEST(attention_reads_its_heads_in_place_and_equals_the_copying_plan) {
  Module m = parseModule(kAttention);
  const Region& body = m.find("main")->body;
  RegionPlan plan = planRegion(body);
  // Run as views: the slices of q and v, the three reshapes and transposes, the merge's transpose and
  // reshape (which copies at run time, as it cannot regroup the transpose) and %t. The slice %k0 is
  // copied: negate reads it.
  size_t viewed = 0;
  for (size_t i = 0; i < body.ops.size(); ++i) viewed += plan.views[i];
  CHECK_EQ(viewed, size_t(11));
  CHECK(!plan.views[1]);  // %k0: negate reads it
  CHECK(plan.viewArgs.size() == 1 && plan.viewArgs[0]);

  for (bool pool : {false, true}) {
    ThreadPool two(2);
    ThreadPoolScope scope(pool ? &two : nullptr);
    Literal x = f32({2, 4, 12}, ramp(96, 0.01f));
    auto out = checkSameAsCopies(kAttention, {x}, pool ? "attention on a pool" : "attention");
    if (out.size() != 4) continue;
    CHECK(!out[0].view);  // the reshape of the merged heads could not regroup them: a copy
    CHECK(out[1].view);   // the merged heads: a view of the product
    CHECK(out[2].view && out[2].bytes.sharesStorageWith(x.bytes));
    CHECK(!out[3].view && !out[3].bytes.sharesStorageWith(x.bytes));
  }
}

TEST(dot_general_reads_transposed_and_strided_views_of_every_element_type) {
  checkSameAsCopies(dotOfTransposeModule("f32"), {f32({3, 4}, ramp(12, 0.5f))}, "f32");
  checkSameAsCopies(dotOfTransposeModule("f64"), {make(ElementType::F64, {3, 4}, std::vector<double>{1, -2, 3.5, 4, 5, 6, -7, 8, 9, 10.25, 11, 12})}, "f64");
  checkSameAsCopies(dotOfTransposeModule("i32"), {make(ElementType::S32, {3, 4}, std::vector<int32_t>{1, -2, 3, 4, 5, 6, -7, 8, 9, 10, 11, 12})}, "i32");
  checkSameAsCopies(dotOfTransposeModule("f16"), {make(ElementType::F16, {3, 4}, std::vector<uint16_t>{0x3c00, 0xc000, 0x4200, 0x4400, 0x4500, 0x4600, 0xc700, 0x4800, 0x4880, 0x4900, 0x4980, 0x4a00})}, "f16");
}

TEST(a_view_whose_rows_take_two_strides_is_copied_for_the_gemm) {
  // lhs free dimensions [0, 1] of the transposed [3, 2, 4] have strides 4 and 12: not one row stride
  const char* text = R"(func.func public @main(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x2x5xf32> {
    %t = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
    %d = "stablehlo.dot_general"(%t, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<3x2x4xf32>, tensor<4x5xf32>) -> tensor<3x2x5xf32>
    "func.return"(%d) : (tensor<3x2x5xf32>) -> ()
  })";
  checkSameAsCopies(text, {f32({2, 3, 4}, ramp(24, 0.25f)), f32({4, 5}, ramp(20, 0.125f))}, "two-stride rows");
}

TEST(reshapes_of_views_regroup_strides_or_copy) {
  // %c: columns 2..5 of [4, 6] split into [4, 2, 2] (regroups); %u: the same with a unit dimension;
  // %w: the transpose merged into [24] (cannot regroup: a copy); %z: an empty slice
  const char* text = R"(func.func public @main(%a: tensor<4x6xf32>) -> (tensor<4x2x2xf32>, tensor<4x1x4xf32>, tensor<24xf32>, tensor<4x0xf32>) {
    %s = "stablehlo.slice"(%a) {start_indices = array<i64: 0, 2>, limit_indices = array<i64: 4, 6>, strides = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<4x4xf32>
    %c = "stablehlo.reshape"(%s) : (tensor<4x4xf32>) -> tensor<4x2x2xf32>
    %u = "stablehlo.reshape"(%s) : (tensor<4x4xf32>) -> tensor<4x1x4xf32>
    %t = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
    %w = "stablehlo.reshape"(%t) : (tensor<6x4xf32>) -> tensor<24xf32>
    %z = "stablehlo.slice"(%a) {start_indices = array<i64: 0, 6>, limit_indices = array<i64: 4, 6>, strides = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<4x0xf32>
    "func.return"(%c, %u, %w, %z) : (tensor<4x2x2xf32>, tensor<4x1x4xf32>, tensor<24xf32>, tensor<4x0xf32>) -> ()
  })";
  Literal a = f32({4, 6}, ramp(24, 1.0f));
  auto out = checkSameAsCopies(text, {a}, "reshapes");
  if (out.size() != 4) return;
  CHECK(out[0].view && out[0].view->offset == 2 && out[0].view->strides == (std::vector<int64_t>{6, 2, 1}));
  CHECK(out[1].view && out[1].bytes.sharesStorageWith(a.bytes));
  CHECK(!out[2].view && !out[2].bytes.sharesStorageWith(a.bytes));
  CHECK(!out[3].view && out[3].bytes.size() == 0);
}

TEST(view_arguments_are_read_in_place_by_dot_general_and_copied_for_other_readers) {
  // a [6, 4] view: the transpose of a dense [4, 6]
  Literal base = f32({4, 6}, ramp(24, 0.5f));
  Literal view = makeView(base, {6, 4}, ViewLayout{0, {1, 6}});
  Literal dense = denseOf(view);
  CHECK(!dense.view && dense.bytes.size() == 96);
  const char* text = R"(func.func public @main(%a: tensor<6x4xf32>, %b: tensor<4x3xf32>) -> (tensor<6x3xf32>, tensor<6x4xf32>) {
    %d = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<6x4xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    %s = "stablehlo.add"(%a, %a) : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
    "func.return"(%d, %s) : (tensor<6x3xf32>, tensor<6x4xf32>) -> ()
  })";
  Literal b = f32({4, 3}, ramp(12, 0.25f));
  Module m = parseModule(text);
  CHECK(!planRegion(m.find("main")->body).viewArgs[0]);  // add reads %a
  auto got = interpret(m, *m.find("main"), std::vector<Literal>{view, b});
  auto want = interpret(m, *m.find("main"), std::vector<Literal>{dense, b});
  CHECK(got.size() == 2 && got[0].bytes == want[0].bytes && got[1].bytes == want[1].bytes);

  const char* dotOnly = R"(func.func public @main(%a: tensor<6x4xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
    %d = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<6x4xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    "func.return"(%d) : (tensor<6x3xf32>) -> ()
  })";
  Module d = parseModule(dotOnly);
  CHECK(planRegion(d.find("main")->body).viewArgs[0]);
  auto inPlace = interpret(d, *d.find("main"), std::vector<Literal>{view, b});
  CHECK(inPlace.size() == 1 && inPlace[0].bytes == want[0].bytes);

  const char* sliceCopied = R"(func.func public @main(%a: tensor<6x4xf32>) -> tensor<3x4xf32> {
    %s = "stablehlo.slice"(%a) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 6, 4>, strides = array<i64: 2, 1>} : (tensor<6x4xf32>) -> tensor<3x4xf32>
    %n = "stablehlo.negate"(%s) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    "func.return"(%n) : (tensor<3x4xf32>) -> ()
  })";
  Module c = parseModule(sliceCopied);
  CHECK(planRegion(c.find("main")->body).viewArgs[0]);  // the slice copies from the view itself
  auto sliced = interpret(c, *c.find("main"), std::vector<Literal>{view});
  auto slicedDense = interpret(c, *c.find("main"), std::vector<Literal>{dense});
  CHECK(sliced.size() == 1 && slicedDense.size() == 1 && sliced[0].bytes == slicedDense[0].bytes);

  Literal outside = makeView(base, {6, 4}, ViewLayout{1, {1, 6}});
  CHECK(!viewFits(outside));
  CHECK_THROWS(interpret(d, *d.find("main"), std::vector<Literal>{outside, b}), "bytes");
}

TEST(concatenate_reads_transposed_views_and_the_merged_heads_are_then_free) {
  // Two blocks of rows [2 heads, 3 rows, 2] (products, so dense), each transposed to [3, 2, 2] and
  // joined along the rows: the join copies from the views; the transpose back is a view of it, and
  // the merge of the heads (transpose, reshape) then regroups it without a copy. %e: a view argument
  // joined with a negated value (a concatenate of a view and a dense operand).
  const char* text = R"(func.func public @main(%a: tensor<2x3x2xf32>, %b: tensor<2x2x2xf32>, %v: tensor<2x2x3xf32>) -> (tensor<2x6x2xf32>, tensor<6x4xf32>, tensor<2x2x5xf32>) {
    %p0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x3x2xf32>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
    %p1 = "stablehlo.negate"(%p0) : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
    %t0 = "stablehlo.transpose"(%p0) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x2xf32>) -> tensor<3x2x2xf32>
    %t1 = "stablehlo.transpose"(%p1) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x2xf32>) -> tensor<3x2x2xf32>
    %j = "stablehlo.concatenate"(%t0, %t1) {dimension = 0 : i64} : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<6x2x2xf32>
    %o = "stablehlo.transpose"(%j) {permutation = array<i64: 1, 0, 2>} : (tensor<6x2x2xf32>) -> tensor<2x6x2xf32>
    %m = "stablehlo.transpose"(%o) {permutation = array<i64: 1, 0, 2>} : (tensor<2x6x2xf32>) -> tensor<6x2x2xf32>
    %r = "stablehlo.reshape"(%m) : (tensor<6x2x2xf32>) -> tensor<6x4xf32>
    %n = "stablehlo.negate"(%b) : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
    %e = "stablehlo.concatenate"(%v, %n) {dimension = 2 : i64} : (tensor<2x2x3xf32>, tensor<2x2x2xf32>) -> tensor<2x2x5xf32>
    "func.return"(%o, %r, %e) : (tensor<2x6x2xf32>, tensor<6x4xf32>, tensor<2x2x5xf32>) -> ()
  })";
  Module m = parseModule(text);
  RegionPlan plan = planRegion(m.find("main")->body);
  CHECK(plan.views[2] && plan.views[3] && plan.views[5] && plan.views[6] && plan.views[7]);
  CHECK(plan.viewArgs[2]);
  Literal vBase = f32({2, 3, 2}, ramp(12, 0.75f));
  Literal v = makeView(vBase, {2, 2, 3}, ViewLayout{0, {6, 1, 2}});  // vBase with its last two dims swapped
  for (bool pool : {false, true}) {
    ThreadPool two(2);
    ThreadPoolScope scope(pool ? &two : nullptr);
    auto out = checkSameAsCopies(text, {f32({2, 3, 2}, ramp(12, 0.5f)), f32({2, 2, 2}, ramp(8, 0.25f)), v},
                                 pool ? "joined heads on a pool" : "joined heads");
    if (out.size() != 3) continue;
    CHECK(out[0].view);                                                    // the join, transposed back
    CHECK(!out[1].view && out[1].bytes.sharesStorageWith(out[0].bytes));  // merged: the join's own bytes
  }
}

TEST_MAIN()
