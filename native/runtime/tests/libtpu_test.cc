// The runtime against the real TPU plugin, libtpu, named by TPJRT_LIBTPU_PATH. It loads without
// a TPU chip: we check its attributes, its "no TPU" error, and an ahead-of-time TPU compile.
#include <cstdlib>
#include <cstring>

#include "check.h"
#include "pjrt_c_api.h"
#include "runtime.h"
#include "test_modules.h"

using namespace tpjrt;
using tpjrt::test::kAddModule;

namespace {

const char* libtpuPath() {
  // As JAX does on a machine without TPU chips: otherwise libtpu spends minutes querying the GCE
  // metadata server.
  setenv("TPU_SKIP_MDS_QUERY", "1", 0);
  const char* path = std::getenv("TPJRT_LIBTPU_PATH");
  return path && *path ? path : nullptr;
}

bool skipped(const char* test) {
  if (libtpuPath()) return false;
  std::printf("SKIP %s: TPJRT_LIBTPU_PATH is not set (point it at libtpu.so, e.g. from the pip package libtpu)\n", test);
  return true;
}

void checkAddOutputs(const AotResult& result) {
  CHECK(result.outputTypes == std::vector<BufferType>({PJRT_Buffer_Type_F32}));
  CHECK(result.outputDims == std::vector<std::vector<int64_t>>({{4}}));
  CHECK(!result.serialized.empty());
}

}  // namespace

TEST(libtpu_loads_and_reports_stablehlo_1_17_0) {
  if (skipped("libtpu_loads_and_reports_stablehlo_1_17_0")) return;
  auto plugin = Plugin::load(libtpuPath());
  CHECK_EQ(plugin->majorVersion(), 0);
  CHECK(plugin->minorVersion() >= PJRT_API_MINOR);
  CHECK(plugin->numSlots() >= PJRT_Api_NUM_SLOTS);
  const NamedValue* version = nullptr;
  for (const NamedValue& v : plugin->attributes())
    if (v.name == "stablehlo_current_version") version = &v;
  CHECK(version != nullptr);
  if (version) CHECK(std::get<std::vector<int64_t>>(version->value) == std::vector<int64_t>({1, 17, 0}));
}

TEST(libtpu_without_a_chip_says_no_tpu) {
  if (skipped("libtpu_without_a_chip_says_no_tpu")) return;
  auto plugin = Plugin::load(libtpuPath());
  try {
    auto client = Client::create(plugin, {});
    std::printf("NOTE a TPU is present: %zu devices (%s)\n", client->devices().size(), client->platformName().c_str());
  } catch (const RuntimeError& e) {
    CHECK_EQ(e.code(), static_cast<int>(PJRT_Error_Code_NOT_FOUND));
    CHECK(std::strstr(e.what(), "No jellyfish device found") != nullptr);
    CHECK_EQ(e.call(), std::string("PJRT_Client_Create"));
  }
}

TEST(libtpu_rejects_a_gpu_option) {
  if (skipped("libtpu_rejects_a_gpu_option")) return;
  auto plugin = Plugin::load(libtpuPath());
  CHECK_THROWS(Client::create(plugin, {{"visible_devices", std::vector<int64_t>{0}}}), "Unexpected option name");
}

TEST(libtpu_compiles_for_a_v5e_2x2_topology) {
  if (skipped("libtpu_compiles_for_a_v5e_2x2_topology")) return;
  auto plugin = Plugin::load(libtpuPath());
  AotResult result = plugin->compileForTopology("v5e:2x2", {}, kAddModule, CompileOptions{});
  checkAddOutputs(result);
  std::printf("  v5e:2x2: %zu serialized bytes, %zu memory stats, %zu cost entries, fingerprint %s\n",
              result.serialized.size(), result.memory.size(), result.cost.size(),
              result.fingerprint ? "yes" : "no");
  for (const auto& [name, value] : result.memory) std::printf("    memory %s = %lld\n", name.c_str(), (long long)value);
  for (const auto& [name, value] : result.cost) std::printf("    cost %s = %g\n", name.c_str(), value);
  CHECK(result.memory.count("argument_size_in_bytes") == 1);
  if (result.memory.count("argument_size_in_bytes")) CHECK(result.memory.at("argument_size_in_bytes") >= 32);
}

TEST(libtpu_compiles_for_a_single_chip_with_host_bounds) {
  if (skipped("libtpu_compiles_for_a_single_chip_with_host_bounds")) return;
  auto plugin = Plugin::load(libtpuPath());
  AotResult result = plugin->compileForTopology(
      "v5e:1x1", {{"chips_per_host_bounds", std::vector<int64_t>{1, 1, 1}}}, kAddModule, CompileOptions{});
  checkAddOutputs(result);
}

TEST(libtpu_reports_a_bad_module) {
  if (skipped("libtpu_reports_a_bad_module")) return;
  auto plugin = Plugin::load(libtpuPath());
  try {
    plugin->compileForTopology("v5e:2x2", {}, "module { nonsense }", CompileOptions{});
    CHECK(false);
  } catch (const RuntimeError& e) {
    CHECK(e.code() > 0 && e.code() <= 16);  // libtpu 0.0.42.1 answers UNKNOWN (2) for a parse failure
    CHECK_EQ(e.call(), std::string("PJRT_Compile"));
    CHECK(std::strlen(e.what()) > 0);
  }
}

TEST_MAIN()
