// PJRT_Event. The plugin's own work is synchronous, so the events it hands out for its own work are
// one shared event that is ready for good (nothing to allocate or lock, and destroying it is a no-op);
// events made by PJRT_Event_Create become ready when the caller sets them.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pjrt_c_api.h"

struct PJRT_Event {
  bool immortal = false;  // the shared ready event: never changes, never freed
  std::mutex mu;
  std::condition_variable becameReady;
  bool ready = false;
  std::optional<std::pair<PJRT_Error_Code, std::string>> failure;
  std::vector<std::pair<PJRT_Event_OnReadyCallback, void*>> callbacks;  // waiting for readiness
};

namespace tpjrt::cpu {

// The shared ready event (no failure).
PJRT_Event* newReadyEvent();
PJRT_Event* newFailedEvent(PJRT_Error_Code code, const std::string& message);

}  // namespace tpjrt::cpu
