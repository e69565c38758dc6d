// PJRT_Event. The plugin's own work is synchronous, so the events it hands out are created ready;
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
  std::mutex mu;
  std::condition_variable becameReady;
  bool ready = false;
  std::optional<std::pair<PJRT_Error_Code, std::string>> failure;
  std::vector<std::pair<PJRT_Event_OnReadyCallback, void*>> callbacks;  // waiting for readiness
};

namespace tpjrt::cpu {

PJRT_Event* newReadyEvent();
PJRT_Event* newFailedEvent(PJRT_Error_Code code, const std::string& message);

}  // namespace tpjrt::cpu
