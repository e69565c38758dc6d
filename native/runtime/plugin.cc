// Plugin loading. The version floor is PJRT 0.40: below it the table lacks
// PJRT_Executable_GetCompiledMemoryStats (0.40), which compileForTopology uses, and plugins older
// than ~0.35 are a different ABI in practice (slot 93 changed meaning under 0.33, the
// Executable_Fingerprint slot arrived at 0.35). Newer functions are gated per slot.
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <mutex>

#include "pjrt_call.h"

namespace tpjrt {
namespace {

// Every plugin we accept has at least the base set, slots 0–89.
constexpr size_t kBaseSlots = 90;
// Far beyond any real table; a larger struct_size means GetPjrtApi returned garbage.
constexpr size_t kMaxPlausibleSlots = 4096;

std::string canonicalPath(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

std::string dlerrorText() {
  const char* text = dlerror();
  return text ? text : "unknown dynamic loader error";
}

void checkTable(const std::string& path, const PJRT_Api* api) {
  auto fail = [&](const std::string& why) { throw RuntimeError(kPluginLoadError, "GetPjrtApi", path + ": " + why); };
  if (api == nullptr) fail("GetPjrtApi returned NULL");
  int major = api->pjrt_api_version.major_version, minor = api->pjrt_api_version.minor_version;
  std::string version = std::to_string(major) + "." + std::to_string(minor);
  if (major != PJRT_API_MAJOR)
    fail("PJRT API version " + version + " has a different major version than ours (" + std::to_string(PJRT_API_MAJOR) +
         "." + std::to_string(PJRT_API_MINOR) + ")");
  if (minor < Plugin::kMinMinorVersion)
    fail("PJRT API version " + version + " is older than the oldest we support (0." +
         std::to_string(Plugin::kMinMinorVersion) + "); install a newer plugin");
  size_t size = api->struct_size;
  if (size < PJRT_Api_FIRST_SLOT_OFFSET + 8 * kBaseSlots || size > PJRT_Api_FIRST_SLOT_OFFSET + 8 * kMaxPlausibleSlots)
    fail("its PJRT_Api table has an implausible struct_size " + std::to_string(size));
}

std::mutex& cacheMutex() {
  static std::mutex m;
  return m;
}
// Plugins stay loaded for the life of the process: PJRT_Plugin_Initialize may run only once and
// plugins such as libtpu do not support being unloaded.
std::map<std::string, std::shared_ptr<Plugin>>& cache() {
  static auto* plugins = new std::map<std::string, std::shared_ptr<Plugin>>();
  return *plugins;
}

}  // namespace

Plugin::Plugin(std::string path, void* library, const PJRT_Api* api)
    : path_(std::move(path)), library_(library), api_(api) {}

Plugin::~Plugin() = default;

std::shared_ptr<Plugin> Plugin::load(const std::string& path) {
  if (path.empty()) throw RuntimeError(kUsageError, "dlopen", "plugin path is empty");
  std::string key = canonicalPath(path);
  std::lock_guard<std::mutex> lock(cacheMutex());
  auto found = cache().find(key);
  if (found != cache().end()) return found->second;

  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) throw RuntimeError(kPluginLoadError, "dlopen", "cannot load PJRT plugin " + path + ": " + dlerrorText());
  using GetApi = const PJRT_Api* (*)();
  auto getApi = reinterpret_cast<GetApi>(dlsym(library, "GetPjrtApi"));
  if (getApi == nullptr) {
    std::string why = dlerrorText();
    dlclose(library);
    throw RuntimeError(kPluginLoadError, "dlsym", path + " is not a PJRT plugin (no GetPjrtApi symbol): " + why);
  }
  const PJRT_Api* api = getApi();
  try {
    checkTable(path, api);
  } catch (...) {
    dlclose(library);
    throw;
  }
  std::shared_ptr<Plugin> plugin(new Plugin(path, library, api));
  auto init = TPJRT_ARGS(PJRT_Plugin_Initialize);
  TPJRT_CALL(*plugin, PJRT_Plugin_Initialize, init);
  if (TPJRT_HAS(*plugin, PJRT_Plugin_Attributes)) {
    auto args = TPJRT_ARGS(PJRT_Plugin_Attributes);
    TPJRT_CALL(*plugin, PJRT_Plugin_Attributes, args);
    plugin->attributes_ = detail::readNamedValues(args.attributes, args.num_attributes);
  }
  cache()[key] = plugin;
  return plugin;
}

std::optional<bool> Plugin::setFlushDenormal(bool on) const {
  using SetFlushDenormal = bool (*)(bool);
  auto set = reinterpret_cast<SetFlushDenormal>(dlsym(library_, "TorchPjrtCpu_SetFlushDenormal"));
  if (set == nullptr) return std::nullopt;
  return set(on);
}

int Plugin::majorVersion() const { return api_->pjrt_api_version.major_version; }
int Plugin::minorVersion() const { return api_->pjrt_api_version.minor_version; }
size_t Plugin::numSlots() const { return (api_->struct_size - PJRT_Api_FIRST_SLOT_OFFSET) / 8; }

bool Plugin::hasSlot(size_t slot, int sinceMinor) const { return PJRT_Api_HasSlot(api_, slot, sinceMinor); }

void Plugin::requireSlot(size_t slot, int sinceMinor, const char* name) const {
  if (hasSlot(slot, sinceMinor)) return;
  std::string why;
  if (slot >= numSlots())
    why = "its function table has " + std::to_string(numSlots()) + " slots and " + name + " is slot " + std::to_string(slot);
  else if (minorVersion() < sinceMinor)
    why = std::string(name) + " needs PJRT API 0." + std::to_string(sinceMinor) + " and the plugin implements 0." +
          std::to_string(minorVersion());
  else
    why = std::string("the plugin leaves ") + name + " unset";
  throw RuntimeError(kPluginLoadError, name, "PJRT plugin " + path_ + " cannot do " + name + ": " + why);
}

}  // namespace tpjrt
