// The runtime against our CPU plugin (CPU_PLUGIN_PATH): loading, devices, buffers, compile, execute.
#include <cstring>

#include "check.h"
#include "pjrt_c_api.h"
#include "runtime.h"
#include "test_modules.h"

using namespace tpjrt;
using tpjrt::test::kAddModule;

namespace {

std::shared_ptr<Plugin> cpuPlugin() { return Plugin::load(CPU_PLUGIN_PATH); }

std::shared_ptr<Client> cpuClient() {
  static std::shared_ptr<Client> client = Client::create(cpuPlugin(), {});
  return client;
}

template <class F>
int codeOf(F&& f) {
  try {
    f();
  } catch (const RuntimeError& e) {
    return e.code();
  }
  return 0;
}

const NamedValue* findAttribute(const std::vector<NamedValue>& values, const std::string& name) {
  for (const NamedValue& v : values)
    if (v.name == name) return &v;
  return nullptr;
}

// Element k of a test array: bytes that are valid for every type (finite floats, 0/1 for PRED).
void fillElement(unsigned char* out, BufferType type, size_t width, size_t k) {
  for (size_t b = 0; b < width; ++b) out[b] = static_cast<unsigned char>((k * 7 + b + 1) % 0x3f);
  if (type == PJRT_Buffer_Type_PRED) out[0] = static_cast<unsigned char>(k % 2);
}

std::unique_ptr<Buffer> f32Buffer(const std::vector<float>& values) {
  return cpuClient()->bufferFromHost(values.data(), PJRT_Buffer_Type_F32, {static_cast<int64_t>(values.size())}, {}, 0);
}

std::vector<float> f32Values(const Buffer& buffer) {
  std::vector<float> out(buffer.hostSizeInBytes() / sizeof(float));
  buffer.toHost(out.data(), out.size() * sizeof(float));
  return out;
}

}  // namespace

TEST(load_checks_version_and_caches_by_path) {
  auto plugin = cpuPlugin();
  CHECK_EQ(plugin->majorVersion(), 0);
  CHECK(plugin->minorVersion() >= Plugin::kMinMinorVersion);
  CHECK(plugin->numSlots() >= 90);
  CHECK(Plugin::load(CPU_PLUGIN_PATH).get() == plugin.get());
}

TEST(load_reports_a_missing_library) {
  CHECK_EQ(codeOf([] { Plugin::load("/nonexistent/libpjrt_nothing.so"); }), kPluginLoadError);
  CHECK_THROWS(Plugin::load("/nonexistent/libpjrt_nothing.so"), "cannot load PJRT plugin");
  CHECK_EQ(codeOf([] { Plugin::load("libc.so.6"); }), kPluginLoadError);
}

TEST(require_slot_names_what_is_missing) {
  auto plugin = cpuPlugin();
  CHECK_THROWS(plugin->requireSlot(5000, 0, "PJRT_Imaginary"), "PJRT_Imaginary");
  CHECK_THROWS(plugin->requireSlot(0, 100000, "PJRT_Error_Destroy"), "needs PJRT API 0.100000");
  CHECK(plugin->hasSlot(PJRT_Client_Create_SLOT, PJRT_Client_Create_SINCE_MINOR));
}

TEST(attributes_include_the_stablehlo_version) {
  const NamedValue* version = findAttribute(cpuPlugin()->attributes(), "stablehlo_current_version");
  CHECK(version != nullptr);
  if (version) {
    const auto* list = std::get_if<std::vector<int64_t>>(&version->value);
    CHECK(list != nullptr && list->size() == 3);
  }
}

TEST(client_reports_platform_and_devices) {
  auto client = cpuClient();
  CHECK_EQ(client->platformName(), std::string("cpu"));
  CHECK(!client->devices().empty());
  for (size_t i = 0; i < client->devices().size(); ++i) {
    const DeviceInfo& d = client->devices()[i];
    CHECK_EQ(d.index, static_cast<int>(i));
    CHECK(d.addressable);
    CHECK(!d.kind.empty());
    CHECK(client->deviceHandle(d.index) != nullptr);
  }
  CHECK_EQ(codeOf([&] { client->deviceHandle(1000); }), kUsageError);
  auto stats = client->memoryStats(0);
  if (stats) CHECK(stats->bytesInUse >= 0);
}

TEST(buffers_round_trip_every_dtype_dense_and_strided) {
  const BufferType types[] = {PJRT_Buffer_Type_PRED, PJRT_Buffer_Type_S8,  PJRT_Buffer_Type_S16, PJRT_Buffer_Type_S32,
                              PJRT_Buffer_Type_S64,  PJRT_Buffer_Type_U8,  PJRT_Buffer_Type_U16, PJRT_Buffer_Type_U32,
                              PJRT_Buffer_Type_U64,  PJRT_Buffer_Type_F16, PJRT_Buffer_Type_BF16, PJRT_Buffer_Type_F32,
                              PJRT_Buffer_Type_F64};
  const int64_t rows = 2, cols = 3;
  auto client = cpuClient();
  for (BufferType type : types) {
    size_t w = byteWidthOf(type);
    CHECK(w > 0);
    std::vector<unsigned char> expected(rows * cols * w), columnMajor(rows * cols * w);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        size_t k = static_cast<size_t>(i * cols + j);
        fillElement(&expected[k * w], type, w, k);
        std::memcpy(&columnMajor[static_cast<size_t>(j * rows + i) * w], &expected[k * w], w);
      }
    auto dense = client->bufferFromHost(expected.data(), type, {rows, cols}, {}, 0);
    CHECK_EQ(dense->elementType(), type);
    CHECK(dense->dims() == std::vector<int64_t>({rows, cols}));
    CHECK_EQ(dense->hostSizeInBytes(), expected.size());
    std::vector<unsigned char> back(expected.size());
    dense->toHost(back.data(), back.size());
    CHECK(back == expected);

    std::vector<int64_t> strides = {static_cast<int64_t>(w), static_cast<int64_t>(rows * w)};
    auto strided = client->bufferFromHost(columnMajor.data(), type, {rows, cols}, strides, 0);
    std::vector<unsigned char> back2(expected.size());
    strided->toHost(back2.data(), back2.size());
    if (back2 != expected) std::fprintf(stderr, "  strided round trip differs for type %d\n", type);
    CHECK(back2 == expected);
  }
}

TEST(scalar_round_trip_and_size_checks) {
  auto client = cpuClient();
  double value = 2.5, back = 0;
  auto scalar = client->bufferFromHost(&value, PJRT_Buffer_Type_F64, {}, {}, 0);
  CHECK(scalar->dims().empty());
  scalar->toHost(&back, sizeof back);
  CHECK_EQ(back, 2.5);
  scalar->awaitReady();
  CHECK(scalar->onDeviceSizeInBytes() >= sizeof(double));
  CHECK_EQ(codeOf([&] { scalar->toHost(&back, 4); }), kUsageError);
  CHECK_EQ(codeOf([&] { client->bufferFromHost(&value, PJRT_Buffer_Type_C64, {}, {}, 0); }), kUsageError);
  CHECK_EQ(codeOf([&] { client->bufferFromHost(&value, PJRT_Buffer_Type_F64, {1}, {8, 8}, 0); }), kUsageError);
  CHECK_EQ(codeOf([&] { client->bufferFromHost(&value, PJRT_Buffer_Type_F64, {}, {}, 7); }), kUsageError);
}

TEST(compile_and_execute_add) {
  auto client = cpuClient();
  auto executable = client->compile(kAddModule, CompileOptions{});
  CHECK_EQ(executable->numOutputs(), size_t{1});
  CHECK(executable->outputTypes() == std::vector<BufferType>({PJRT_Buffer_Type_F32}));
  CHECK(executable->outputDims() == std::vector<std::vector<int64_t>>({{4}}));
  auto a = f32Buffer({1, 2, 3, 4});
  auto b = f32Buffer({10, 20, 30, 40});
  auto out = executable->execute({a.get(), b.get()});
  CHECK_EQ(out.size(), size_t{1});
  if (out.size() == 1) {
    CHECK(out[0]->dims() == std::vector<int64_t>({4}));
    CHECK_EQ(out[0]->elementType(), PJRT_Buffer_Type_F32);
    CHECK(f32Values(*out[0]) == std::vector<float>({11, 22, 33, 44}));
  }
  auto again = executable->execute({out[0].get(), a.get()});
  CHECK(f32Values(*again.at(0)) == std::vector<float>({12, 24, 36, 48}));
}

// Execute only enqueues: a run that fails is reported by the reads of its outputs (the error names
// the executable's label), whenReady hands it to its callback, and synchronize waits without throwing.
TEST(a_failed_run_surfaces_at_the_reads_of_its_outputs) {
  auto client = cpuClient();
  CompileOptions options;
  options.label = "expand";
  auto executable = client->compile(R"(func.func public @main(%a: tensor<f32>) -> tensor<70368744177664xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<70368744177664xf32>
  return %0 : tensor<70368744177664xf32>
})",
                                    options);
  float one = 1;
  auto scalar = client->bufferFromHost(&one, PJRT_Buffer_Type_F32, {}, {}, 0);
  auto out = executable->execute({scalar.get()});  // does not throw
  client->synchronize(0);
  const std::string named = "running expand on cpu:0 failed: line 2: stablehlo.broadcast_in_dim: out of memory";
  std::string seen;
  int code = 0;
  out.at(0)->whenReady([&](const RuntimeError* error) {
    if (error) seen = error->what(), code = error->code();
  });
  CHECK_EQ(code, int(PJRT_Error_Code_RESOURCE_EXHAUSTED));
  CHECK(seen.find(named) != std::string::npos);
  try {
    out[0]->awaitReady();
    CHECK(false);
  } catch (const RuntimeError& e) {
    CHECK_EQ(e.code(), int(PJRT_Error_Code_RESOURCE_EXHAUSTED));
    CHECK(std::string(e.what()).find(named) != std::string::npos);
  }
  CHECK_EQ(codeOf([&] { client->synchronize(1); }), kUsageError);
}

TEST(a_bad_module_is_an_error_with_a_message) {
  auto client = cpuClient();
  try {
    client->compile("module { this is not stablehlo }", CompileOptions{});
    CHECK(false);
  } catch (const RuntimeError& e) {
    CHECK(e.code() > 0 && e.code() <= 16);
    CHECK(std::strlen(e.what()) > 0);
    CHECK_EQ(e.call(), std::string("PJRT_Client_Compile"));
  }
}

TEST(wrong_argument_count_is_an_error) {
  auto client = cpuClient();
  auto executable = client->compile(kAddModule, CompileOptions{});
  auto a = f32Buffer({1, 2, 3, 4});
  int64_t before = Buffer::liveCount();
  int code = codeOf([&] { executable->execute({a.get()}); });
  CHECK(code > 0 && code <= 16);
  CHECK_EQ(codeOf([&] { executable->execute({a.get(), nullptr}); }), kUsageError);
  CHECK_EQ(Buffer::liveCount(), before);
}

TEST(ten_thousand_buffers_leave_no_live_buffers) {
  auto client = cpuClient();
  int64_t buffersBefore = Buffer::liveCount(), executablesBefore = LoadedExecutable::liveCount();
  std::vector<float> values(16, 1.5f);
  for (int i = 0; i < 10000; ++i) {
    auto buffer = client->bufferFromHost(values.data(), PJRT_Buffer_Type_F32, {4, 4}, {}, 0);
    if (i == 0) CHECK_EQ(Buffer::liveCount(), buffersBefore + 1);
  }
  CHECK_EQ(Buffer::liveCount(), buffersBefore);
  { auto executable = client->compile(kAddModule, CompileOptions{}); }
  CHECK_EQ(LoadedExecutable::liveCount(), executablesBefore);
}

TEST_MAIN()
