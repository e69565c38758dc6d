#include "state.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

namespace tpjrt::addon {
namespace {

std::atomic<int64_t> gExternalBytes{0};
std::atomic<int64_t> gReportedBytes{0};
std::mutex gClientsMutex;
std::vector<std::weak_ptr<Client>> gClients;

void pruneExpiredClients() {
  gClients.erase(std::remove_if(gClients.begin(), gClients.end(), [](const auto& c) { return c.expired(); }),
                 gClients.end());
}

}  // namespace

AddonState& state(Napi::Env env) {
  AddonState* s = env.GetInstanceData<AddonState>();
  if (s == nullptr) {
    s = new AddonState();
    env.SetInstanceData(s);
  }
  return *s;
}

void countExternalBytes(int64_t delta) { gExternalBytes += delta; }

void reportExternalBytes(napi_env env, int64_t delta) {
  gReportedBytes += delta;
  // V8 needs no byte-exact account: small changes are reported once they add up (one environment
  // per thread, so the sum is this environment's).
  constexpr int64_t kReportStep = 64 << 10;
  thread_local int64_t unreported = 0;
  unreported += delta;
  if (unreported > -kReportStep && unreported < kReportStep) return;
  int64_t ignored;
  napi_adjust_external_memory(env, unreported, &ignored);
  unreported = 0;
}

int64_t externalBytes() { return gExternalBytes.load(); }
int64_t reportedBytes() { return gReportedBytes.load(); }

void trackClient(const std::shared_ptr<Client>& client) {
  std::lock_guard<std::mutex> lock(gClientsMutex);
  pruneExpiredClients();
  gClients.push_back(client);
}

int64_t liveClients() {
  std::lock_guard<std::mutex> lock(gClientsMutex);
  pruneExpiredClients();
  return static_cast<int64_t>(gClients.size());
}

}  // namespace tpjrt::addon
