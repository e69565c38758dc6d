// Per-environment addon state (class constructors, the plugin object cache) and the process-wide
// counters behind liveCounts().
#pragma once

#include <napi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "buffer_table.h"

namespace tpjrt {
class Client;
}

namespace tpjrt::addon {

struct AddonState {
  Napi::FunctionReference pluginClass, clientClass, executableClass;
  BufferTable buffers;
  std::map<std::string, Napi::ObjectReference> plugins;  // by path; plugins are never unloaded
};

AddonState& state(Napi::Env env);

// Host bytes of live buffers, counted for liveCounts(); safe to call from finalizers.
void countExternalBytes(int64_t delta);
int64_t externalBytes();
// Host bytes V8 should weigh when it decides to collect garbage (napi_adjust_external_memory, in steps):
// only those of buffers that a collection could free (see BufferTable::reportToGc).
void reportExternalBytes(napi_env env, int64_t delta);
int64_t reportedBytes();

// Clients created through the addon that are still alive (a closed client lives on while its
// buffers or executables do).
void trackClient(const std::shared_ptr<Client>& client);
int64_t liveClients();

}  // namespace tpjrt::addon
