// Each pjrt/*.cc file fills the PJRT_Api slots it implements; pjrt/api.cc calls them all after
// giving every slot an UNIMPLEMENTED stub.
#pragma once

#include "pjrt_c_api.h"

namespace tpjrt::cpu {

void fillErrorSlots(PJRT_Api& api);
void fillPluginSlots(PJRT_Api& api);
void fillEventSlots(PJRT_Api& api);
void fillClientSlots(PJRT_Api& api);
void fillDeviceSlots(PJRT_Api& api);
void fillBufferSlots(PJRT_Api& api);
void fillHostTransferSlots(PJRT_Api& api);
void fillCompileSlots(PJRT_Api& api);
void fillExecutableSlots(PJRT_Api& api);
void fillExecuteSlots(PJRT_Api& api);

}  // namespace tpjrt::cpu
