// Graph → StableHLO generic text: exact text for small graphs, and every printed module compiles
// and runs on our CPU plugin (CPU_PLUGIN_PATH).
#include <cmath>
#include <cstring>

#include "check.h"
#include "runtime.h"
#include "stablehlo_printer.h"

using namespace tpjrt;
using namespace tpjrt::lower;

namespace {

constexpr int F32 = 11, I64 = 5, PRED = 1, I32 = 4;

TensorType t(int element, std::vector<int64_t> dims) { return {element, std::move(dims)}; }

Node node(std::string op, std::vector<int> operands, std::vector<TensorType> results, std::vector<Attr> attrs = {},
          std::string body = "") {
  return {std::move(op), std::move(operands), std::move(results), std::move(attrs), std::move(body)};
}

Attr make(std::string name, AttrKind kind) {
  Attr a;
  a.name = std::move(name);
  a.kind = kind;
  return a;
}

Attr ints(std::string name, std::vector<int64_t> list) {
  Attr a = make(std::move(name), AttrKind::IntList);
  a.list = std::move(list);
  return a;
}

template <class T>
Attr dense(const std::vector<T>& values) {
  Attr a = make("value", AttrKind::Dense);
  a.bytes.resize(values.size() * sizeof(T));
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  return a;
}

std::shared_ptr<Client> cpuClient() {
  static std::shared_ptr<Client> client = Client::create(Plugin::load(CPU_PLUGIN_PATH), {});
  return client;
}

template <class T, class In = T>
std::vector<T> run(const Graph& g, const std::vector<std::vector<In>>& args, size_t output = 0) {
  auto exe = cpuClient()->compile(printModule(g), CompileOptions{});
  std::vector<std::unique_ptr<Buffer>> held;
  std::vector<const Buffer*> ptrs;
  for (size_t i = 0; i < args.size(); ++i) {
    held.push_back(cpuClient()->bufferFromHost(args[i].data(), g.inputs[i].element, g.inputs[i].dims, {}, 0));
    ptrs.push_back(held.back().get());
  }
  auto outs = exe->execute(ptrs);
  std::vector<T> values(outs.at(output)->hostSizeInBytes() / sizeof(T));
  outs[output]->toHost(values.data(), values.size() * sizeof(T));
  return values;
}

int codeOf(const Graph& g) {
  try {
    printModule(g);
  } catch (const RuntimeError& e) {
    return e.code();
  }
  return 0;
}

}  // namespace

TEST(add_prints_the_generic_module) {
  Graph g{{t(F32, {4}), t(F32, {4})}, {node("add", {0, 1}, {t(F32, {4})})}, {2}};
  CHECK_EQ(printModule(g), std::string(R"("builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) {function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "main", sym_visibility = "public"} : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
)"));
  CHECK(run<float>(g, {{1, 2, 3, 4}, {10, 20, 30, 40}}) == std::vector<float>({11, 22, 33, 44}));
}

TEST(attributes_use_array_i64_and_constants_hex_or_splat) {
  Graph g{{t(F32, {2, 3})},
          {node("constant", {}, {t(F32, {3, 2})}, {dense<float>({1.5f})}),
           node("transpose", {0}, {t(F32, {3, 2})}, {ints("permutation", {1, 0})}),
           node("multiply", {1, 2}, {t(F32, {3, 2})}),
           node("constant", {}, {t(F32, {3, 2})}, {dense<float>({1, 2, 3, 4, 5, 6})}),
           node("add", {3, 4}, {t(F32, {3, 2})})},
          {5}};
  std::string text = printModule(g);
  CHECK(text.find("{value = dense<0x3FC00000> : tensor<3x2xf32>}") != std::string::npos);
  CHECK(text.find("{permutation = array<i64: 1, 0>}") != std::string::npos);
  CHECK(text.find("dense<\"0x0000803F000000400000404000008040") != std::string::npos);
  CHECK(run<float>(g, {{1, 2, 3, 4, 5, 6}}) == std::vector<float>({2.5f, 8, 6, 11.5f, 9.5f, 15}));
}

TEST(integer_and_bool_constants_are_literals) {
  Graph g{{},
          {node("constant", {}, {t(I64, {2})}, {dense<int64_t>({-7, -7})}),
           node("constant", {}, {t(PRED, {3})}, {dense<uint8_t>({1, 0, 1})})},
          {0, 1}};
  std::string text = printModule(g);
  CHECK(text.find("dense<-7> : tensor<2xi64>") != std::string::npos);
  CHECK(text.find("dense<[true, false, true]> : tensor<3xi1>") != std::string::npos);
  CHECK(text.find("-> (tensor<2xi64>, tensor<3xi1>)") != std::string::npos);
  CHECK(run<int64_t>(g, {}) == std::vector<int64_t>({-7, -7}));
  CHECK(run<uint8_t>(g, {}, 1) == std::vector<uint8_t>({1, 0, 1}));
}

TEST(reduce_bodies_are_regions) {
  Attr dims = ints("dimensions", {1});
  Graph sum{{t(F32, {2, 3})},
            {node("constant", {}, {t(F32, {})}, {dense<float>({0})}),
             node("reduce", {0, 1}, {t(F32, {2})}, {dims}, "add")},
            {2}};
  CHECK(printModule(sum).find("\"stablehlo.return\"(%r1_c) : (tensor<f32>) -> ()") != std::string::npos);
  CHECK(run<float>(sum, {{1, 2, 3, 4, 5, 6}}) == std::vector<float>({6, 15}));

  Attr iotaDim = make("iota_dimension", AttrKind::Int);
  iotaDim.value = 1;
  Graph argmax{{t(F32, {2, 3})},
               {node("iota", {}, {t(I32, {2, 3})}, {iotaDim}),
                node("constant", {}, {t(F32, {})}, {dense<float>({-INFINITY})}),
                node("constant", {}, {t(I32, {})}, {dense<int32_t>({0})}),
                node("reduce", {0, 1, 2, 3}, {t(F32, {2}), t(I32, {2})}, {dims}, "argmax")},
               {5}};
  CHECK(printModule(argmax).find("%3:2 = \"stablehlo.reduce\"") != std::string::npos);
  CHECK((run<int32_t, float>(argmax, {{1, 7, 7, NAN, 2, NAN}}) == std::vector<int32_t>({1, 0})));
}

TEST(window_bodies_logaddexp_cumargmax_and_select_and_scatter) {
  auto text = [](std::string name, std::string value) {
    Attr a = make(std::move(name), AttrKind::Text);
    a.text = std::move(value);
    return a;
  };
  // Prefix windows of 4 over a row of 4: logcumsumexp, and the running max with its latest index.
  std::vector<Attr> prefix = {ints("window_dimensions", {4}), ints("window_strides", {1}),
                              text("padding", "dense<[[3, 0]]> : tensor<1x2xi64>")};
  Graph lse{{t(F32, {4})},
            {node("constant", {}, {t(F32, {})}, {dense<float>({-INFINITY})}),
             node("reduce_window", {0, 1}, {t(F32, {4})}, prefix, "logaddexp")},
            {2}};
  auto got = run<float>(lse, {{0, 0, -INFINITY, 1}});
  const float want[] = {0, std::log(2.0f), std::log(2.0f), std::log(2.0f + std::exp(1.0f))};
  for (int i = 0; i < 4; ++i) CHECK_NEAR(got[size_t(i)], want[i], 1e-6);
  Attr iotaDim = make("iota_dimension", AttrKind::Int);
  Graph cummax{{t(F32, {4})},
               {node("iota", {}, {t(I32, {4})}, {iotaDim}),
                node("constant", {}, {t(F32, {})}, {dense<float>({-INFINITY})}),
                node("constant", {}, {t(I32, {})}, {dense<int32_t>({-1})}),
                node("reduce_window", {0, 1, 2, 3}, {t(F32, {4}), t(I32, {4})}, prefix, "cumargmax")},
               {5}};
  CHECK((run<int32_t, float>(cummax, {{2, 1, 2, NAN}}) == std::vector<int32_t>({0, 0, 2, 3})));
  // select_and_scatter: windows of 2, stride 2; each source value lands on its window's first maximum.
  Graph scatter{{t(F32, {4}), t(F32, {2})},
                {node("constant", {}, {t(F32, {})}, {dense<float>({0})}),
                 node("select_and_scatter", {0, 1, 2}, {t(F32, {4})},
                      {ints("window_dimensions", {2}), ints("window_strides", {2}), text("padding", "dense<[[0, 0]]> : tensor<1x2xi64>")},
                      "GE")},
                {3}};
  CHECK(printModule(scatter).find("comparison_direction GE") != std::string::npos);
  CHECK((run<float>(scatter, {{1, 3, 5, 5}, {10, 20}}) == std::vector<float>({0, 10, 20, 0})));
}

TEST(dot_general_prints_only_nonempty_dimension_lists) {
  Attr dot = make("dot_dimension_numbers", AttrKind::Dot);
  dot.lists = {{}, {}, {1}, {0}};
  Graph g{{t(F32, {2, 3}), t(F32, {3, 1})}, {node("dot_general", {0, 1}, {t(F32, {2, 1})}, {dot})}, {2}};
  CHECK(printModule(g).find("#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>") !=
        std::string::npos);
  CHECK(run<float>(g, {{1, 2, 3, 4, 5, 6}, {1, 1, 1}}) == std::vector<float>({6, 15}));
}

TEST(compare_prints_its_direction) {
  Attr dir = make("comparison_direction", AttrKind::Enum);
  dir.text = "LT";
  Graph g{{t(F32, {2}), t(F32, {2})}, {node("compare", {0, 1}, {t(PRED, {2})}, {dir})}, {2}};
  CHECK(printModule(g).find("{comparison_direction = #stablehlo<comparison_direction LT>}") != std::string::npos);
}

TEST(scatter_and_sort_bodies_are_regions) {
  Attr numbers = make("scatter_dimension_numbers", AttrKind::Text);
  numbers.text = "#stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>";
  for (const char* body : {"replace", "add"}) {
    Graph g{{t(I32, {4}), t(I32, {3, 1}), t(I32, {3})}, {node("scatter", {0, 1, 2}, {t(I32, {4})}, {numbers}, body)}, {3}};
    std::vector<int32_t> want = std::string(body) == "add" ? std::vector<int32_t>{1, 41, 1, 21} : std::vector<int32_t>{1, 30, 1, 20};
    CHECK(run<int32_t>(g, {{1, 1, 1, 1}, {1, 3, 1}, {10, 20, 30}}) == want);
  }
  Attr dim = make("dimension", AttrKind::Int);
  dim.value = 0;
  Attr stable = make("is_stable", AttrKind::Text);
  stable.text = "true";
  for (const char* body : {"sort_ascending", "sort_descending"}) {
    Graph g{{t(F32, {5}), t(F32, {5})}, {node("sort", {0, 1}, {t(F32, {5}), t(F32, {5})}, {dim, stable}, body)}, {3}};
    CHECK(printModule(g).find("is_stable = true") != std::string::npos);
    std::vector<float> want = std::string(body) == "sort_ascending" ? std::vector<float>{2, 4, 0, 3, 1} : std::vector<float>{1, 0, 3, 4, 2};
    CHECK(run<float>(g, {{3, NAN, -1, 3, 0}, {0, 1, 2, 3, 4}}) == want);
  }
}

Node withRegions(Node n, std::vector<Graph> regions) {
  n.regions = std::move(regions);
  return n;
}

// case(index, x): branch 0 negates x (read from above), branch 1 returns it; an index out of range runs the last.
Graph caseGraph() {
  Graph negate{{t(I32, {2})}, {node("negate", {0}, {t(I32, {2})})}, {1}};
  Graph same{{t(I32, {2})}, {}, {0}};
  return {{t(I32, {}), t(I32, {2})}, {withRegions(node("case", {0, 1}, {t(I32, {2})}), {negate, same})}, {2}};
}

// while (x < 100) x = x + x.
Graph doublingLoop() {
  Attr lt = make("comparison_direction", AttrKind::Enum);
  lt.text = "LT";
  Graph cond{{t(I32, {})},
             {node("constant", {}, {t(I32, {})}, {dense<int32_t>({100})}), node("compare", {0, 1}, {t(PRED, {})}, {lt})},
             {2}};
  Graph body{{t(I32, {})}, {node("add", {0, 0}, {t(I32, {})})}, {1}};
  return {{t(I32, {})}, {withRegions(node("while", {0}, {t(I32, {})}), {cond, body})}, {1}};
}

TEST(case_and_while_print_their_regions_and_run) {
  std::string text = printModule(caseGraph());
  CHECK(text.find(R"(%0 = "stablehlo.case"(%arg0) ({
      %c0r0_0 = "stablehlo.negate"(%arg1) : (tensor<2xi32>) -> tensor<2xi32>
      "stablehlo.return"(%c0r0_0) : (tensor<2xi32>) -> ()
    }, {
      "stablehlo.return"(%arg1) : (tensor<2xi32>) -> ()
    }) : (tensor<i32>) -> tensor<2xi32>)") != std::string::npos);
  CHECK(run<int32_t>(caseGraph(), {{0}, {3, -4}}) == std::vector<int32_t>({-3, 4}));
  CHECK(run<int32_t>(caseGraph(), {{1}, {3, -4}}) == std::vector<int32_t>({3, -4}));
  CHECK(run<int32_t>(caseGraph(), {{7}, {3, -4}}) == std::vector<int32_t>({3, -4}));
  CHECK(printModule(doublingLoop()).find("^bb0(%c0r1_a0: tensor<i32>):") != std::string::npos);
  CHECK(run<int32_t>(doublingLoop(), {{3}}) == std::vector<int32_t>({192}));
  CHECK(run<int32_t>(doublingLoop(), {{500}}) == std::vector<int32_t>({500}));
}

TEST(malformed_graphs_are_usage_errors) {
  Graph badBody = doublingLoop();
  badBody.nodes[0].regions[1].nodes[0].results[0] = t(F32, {});
  CHECK_EQ(codeOf(badBody), kUsageError);
  Graph noRegions = doublingLoop();
  noRegions.nodes[0].regions.clear();
  CHECK_EQ(codeOf(noRegions), kUsageError);
  Graph floatIndex = caseGraph();
  floatIndex.inputs[0] = t(F32, {});
  CHECK_EQ(codeOf(floatIndex), kUsageError);
  CHECK_EQ(codeOf(Graph{{t(F32, {2})}, {node("negate", {3}, {t(F32, {2})})}, {1}}), kUsageError);
  CHECK_EQ(codeOf(Graph{{t(99, {2})}, {}, {0}}), kUsageError);
  CHECK_EQ(codeOf(Graph{{t(F32, {2})}, {}, {}}), kUsageError);
  CHECK_EQ(codeOf(Graph{{}, {node("constant", {}, {t(F32, {3})}, {dense<float>({1, 2})})}, {0}}), kUsageError);
  CHECK_EQ(codeOf(Graph{{t(F32, {2})}, {node("reduce", {0, 0}, {t(F32, {})}, {}, "bogus")}, {1}}), kUsageError);
  CHECK_EQ(codeOf(Graph{{t(F32, {2})}, {node("sort", {0}, {t(F32, {2})})}, {1}}), kUsageError);
}

TEST_MAIN()
