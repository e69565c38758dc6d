// Graph aliases → main's `tf.aliasing_output` argument attributes, and what the runtime does with them
// on our CPU plugin (CPU_PLUGIN_PATH): runs donate aliased arguments unless told not to; serialized
// executables load again and keep them.
#include <string>

#include "check.h"
#include "runtime.h"
#include "stablehlo_printer.h"

using namespace tpjrt;
using namespace tpjrt::lower;

namespace {

constexpr int F32 = 11, I32 = 4;

TensorType t(int element, std::vector<int64_t> dims) { return {element, std::move(dims)}; }

Node node(std::string op, std::vector<int> operands, std::vector<TensorType> results) {
  return {std::move(op), std::move(operands), std::move(results), {}, ""};
}

// out0 = a + b (may take a's buffer), out1 = a - b.
Graph sumAndDifference(std::vector<Alias> aliases) {
  Graph g;
  g.inputs = {t(F32, {4}), t(F32, {4})};
  g.nodes = {node("add", {0, 1}, {t(F32, {4})}), node("subtract", {0, 1}, {t(F32, {4})})};
  g.outputs = {2, 3};
  g.aliases = std::move(aliases);
  return g;
}

std::string usageMessage(const Graph& g) {
  try {
    printModule(g);
  } catch (const RuntimeError& e) {
    if (e.code() == kUsageError) return e.what();
    return "code " + std::to_string(e.code()) + ": " + e.what();
  }
  return "(printed)";
}

bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

std::shared_ptr<Client> cpuClient() {
  static std::shared_ptr<Client> client = Client::create(Plugin::load(CPU_PLUGIN_PATH), {});
  return client;
}

std::unique_ptr<Buffer> upload(const std::vector<float>& values) {
  return cpuClient()->bufferFromHost(values.data(), F32, {int64_t(values.size())}, {}, 0);
}

std::vector<float> download(const Buffer& buffer) {
  std::vector<float> values(buffer.hostSizeInBytes() / sizeof(float));
  buffer.toHost(values.data(), values.size() * sizeof(float));
  return values;
}

int64_t bytesInUse() { return cpuClient()->memoryStats(0)->bytesInUse; }

}  // namespace

TEST(aliases_print_as_tf_aliasing_output_on_main_arguments) {
  CHECK_EQ(printModule(sumAndDifference({{0, 0}})), std::string(R"("builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.subtract"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) {arg_attrs = [{tf.aliasing_output = 0 : i32}, {}], function_type = (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>), sym_name = "main", sym_visibility = "public"} : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
)"));
  std::string crossed = printModule(sumAndDifference({{1, 0}, {0, 1}}));
  CHECK(contains(crossed, "{arg_attrs = [{tf.aliasing_output = 1 : i32}, {tf.aliasing_output = 0 : i32}], function_type"));
  CHECK(!contains(printModule(sumAndDifference({})), "arg_attrs"));
}

TEST(bad_aliases_are_usage_errors_naming_both_sides) {
  CHECK(contains(usageMessage(sumAndDifference({{2, 0}})), "alias 0 (output 2, input 0): the graph has 2 outputs"));
  CHECK(contains(usageMessage(sumAndDifference({{0, -1}})), "alias 0 (output 0, input -1): the graph has 2 inputs"));
  CHECK(contains(usageMessage(sumAndDifference({{0, 0}, {1, 0}})),
                 "alias 1 (output 1, input 0): input 0 is already reused by alias 0"));
  CHECK(contains(usageMessage(sumAndDifference({{0, 0}, {0, 1}})),
                 "alias 1 (output 0, input 1): output 0 already reuses an input (alias 0)"));
  Graph g;
  g.inputs = {t(F32, {4}), t(I32, {2, 2})};
  g.nodes = {node("negate", {0}, {t(F32, {4})})};
  g.outputs = {2};
  g.aliases = {{0, 1}};
  CHECK(contains(usageMessage(g),
                 "alias 0 (output 0, input 1): output 0 is tensor<4xf32> but input 1 is tensor<2x2xi32>; an output can "
                 "reuse only an input of its dtype and shape"));
}

TEST(runs_donate_aliased_arguments_unless_told_not_to) {
  auto exe = cpuClient()->compile(printModule(sumAndDifference({{0, 0}})), CompileOptions{});
  CHECK(exe->mayDonate());
  auto plain = cpuClient()->compile(printModule(sumAndDifference({})), CompileOptions{});
  CHECK(!plain->mayDonate());
  int64_t start = bytesInUse();
  {
    auto a = upload({1, 2, 3, 4});
    auto b = upload({10, 20, 30, 40});
    const Buffer* args[] = {a.get(), b.get()};
    auto kept = exe->execute(args, 2, {0});
    CHECK(!a->isDeleted());
    CHECK(download(*a) == std::vector<float>({1, 2, 3, 4}));
    CHECK(download(*kept[0]) == std::vector<float>({11, 22, 33, 44}));
    int64_t before = bytesInUse();
    auto out = exe->execute(std::vector<const Buffer*>{a.get(), b.get()});
    CHECK(a->isDeleted());
    CHECK(!b->isDeleted());
    CHECK(download(*out[0]) == std::vector<float>({11, 22, 33, 44}));
    CHECK(download(*out[1]) == std::vector<float>({-9, -18, -27, -36}));
    CHECK_EQ(bytesInUse(), before + 16);  // only the difference is new
    CHECK_THROWS(download(*a), "has been deleted or donated");
    try {
      download(*a);
    } catch (const RuntimeError& e) {
      CHECK_EQ(e.code(), 3);  // INVALID_ARGUMENT
    }
  }
  CHECK_EQ(bytesInUse(), start);
}

TEST(serialized_executables_load_and_run_with_their_aliases) {
  auto exe = cpuClient()->compile(printModule(sumAndDifference({{0, 0}})), CompileOptions{});
  std::string bytes = exe->serialize();
  CHECK(!bytes.empty());
  auto loaded = cpuClient()->deserializeAndLoad(bytes, CompileOptions{});
  CHECK(loaded->fingerprint() == exe->fingerprint());
  CHECK(loaded->outputTypes() == exe->outputTypes());
  CHECK(loaded->outputDims() == exe->outputDims());
  CHECK(loaded->mayDonate());
  auto a = upload({1, 2, 3, 4});
  auto b = upload({0.5f, 0.25f, 2, -1});
  auto out = loaded->execute(std::vector<const Buffer*>{a.get(), b.get()});
  CHECK(a->isDeleted());
  CHECK(download(*out[0]) == std::vector<float>({1.5f, 2.25f, 5, 3}));
  CHECK(download(*out[1]) == std::vector<float>({0.5f, 1.75f, 1, 5}));
  for (std::string bad : {std::string(), std::string("not an executable"), bytes.substr(0, 40)}) {
    CHECK_THROWS(cpuClient()->deserializeAndLoad(bad, CompileOptions{}), "was not made by the torch-pjrt cpu plugin");
    try {
      cpuClient()->deserializeAndLoad(bad, CompileOptions{});
    } catch (const RuntimeError& e) {
      CHECK_EQ(e.code(), 3);  // INVALID_ARGUMENT
      CHECK_EQ(e.call(), std::string("PJRT_Executable_DeserializeAndLoad"));
    }
  }
}

TEST_MAIN()
