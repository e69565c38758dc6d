// Plugin::compileForTopology: ahead-of-time compile for a device topology, no device needed.
#include "compile_options.h"
#include "executable_queries.h"

namespace tpjrt {
namespace {

class TopologyGuard {
 public:
  TopologyGuard(const Plugin& plugin, PJRT_TopologyDescription* topology) : plugin_(plugin), topology_(topology) {}
  ~TopologyGuard() {
    if (topology_ == nullptr || !TPJRT_HAS(plugin_, PJRT_TopologyDescription_Destroy)) return;
    auto args = TPJRT_ARGS(PJRT_TopologyDescription_Destroy);
    args.topology = topology_;
    detail::takeError(plugin_, plugin_.api()->PJRT_TopologyDescription_Destroy(&args));
  }
  TopologyGuard(const TopologyGuard&) = delete;
  TopologyGuard& operator=(const TopologyGuard&) = delete;

 private:
  const Plugin& plugin_;
  PJRT_TopologyDescription* topology_;
};

class ExecutableGuard {
 public:
  ExecutableGuard(const Plugin& plugin, PJRT_Executable* executable) : plugin_(plugin), executable_(executable) {}
  ~ExecutableGuard() { detail::destroyExecutable(plugin_, executable_); }
  ExecutableGuard(const ExecutableGuard&) = delete;
  ExecutableGuard& operator=(const ExecutableGuard&) = delete;

 private:
  const Plugin& plugin_;
  PJRT_Executable* executable_;
};

}  // namespace

AotResult Plugin::compileForTopology(const std::string& topologyName, const std::vector<NamedValue>& topologyOptions,
                                     const std::string& mlir, const CompileOptions& options) const {
  std::string encoded = encodeCompileOptions(options);
  detail::NamedValueArray values(topologyOptions);
  auto create = TPJRT_ARGS(PJRT_TopologyDescription_Create);
  create.topology_name = topologyName.data();
  create.topology_name_size = topologyName.size();
  create.create_options = values.data();
  create.num_options = values.size();
  TPJRT_CALL(*this, PJRT_TopologyDescription_Create, create);
  TopologyGuard topologyGuard(*this, create.topology);

  auto program = detail::mlirProgram(mlir);
  auto compile = TPJRT_ARGS(PJRT_Compile);
  compile.topology = create.topology;
  compile.program = &program;
  compile.compile_options = encoded.data();
  compile.compile_options_size = encoded.size();
  compile.client = nullptr;
  TPJRT_CALL(*this, PJRT_Compile, compile);
  ExecutableGuard executableGuard(*this, compile.executable);

  AotResult result;
  result.outputTypes = detail::outputTypes(*this, compile.executable);
  result.outputDims = detail::outputDims(*this, compile.executable);
  result.memory = detail::compiledMemoryStats(*this, compile.executable);
  result.cost = detail::costAnalysis(*this, compile.executable);
  result.fingerprint = detail::fingerprint(*this, compile.executable);
  result.serialized = detail::serialize(*this, compile.executable);
  return result;
}

}  // namespace tpjrt
