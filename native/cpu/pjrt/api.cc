// The PJRT_Api table of the CPU plugin and its exported symbols: GetPjrtApi, and
// TorchPjrtCpu_SetFlushDenormal (torch.setFlushDenormal, which PJRT has no call for; the runtime looks
// it up where a plugin has it).
#include <type_traits>

#include "base/float_mode.h"
#include "pjrt/error.h"
#include "pjrt/slots.h"

namespace tpjrt::cpu {
namespace {

#define TPJRT_SLOT_NAME(slot, name, since) #name,
constexpr const char* kSlotNames[] = {PJRT_API_SLOTS(TPJRT_SLOT_NAME)};
#undef TPJRT_SLOT_NAME

template <size_t Slot, class Args>
PJRT_Error* unimplementedSlot(Args*) {
  return newError(PJRT_Error_Code_UNIMPLEMENTED,
                  std::string(kSlotNames[Slot]) + " is not implemented by the torch-pjrt cpu plugin");
}

// Error_Destroy and Error_Message return void and are always implemented, so they get no stub.
template <size_t Slot, class Result, class Args>
void setStub(Result (*&slot)(Args*)) {
  if constexpr (std::is_same_v<Result, PJRT_Error*>) slot = &unimplementedSlot<Slot, Args>;
}

PJRT_Api makeApi() {
  PJRT_Api api{};
  api.struct_size = PJRT_Api_STRUCT_SIZE;
  api.extension_start = nullptr;
  api.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
  api.pjrt_api_version.extension_start = nullptr;
  api.pjrt_api_version.major_version = PJRT_API_MAJOR;
  api.pjrt_api_version.minor_version = PJRT_API_MINOR;
#define TPJRT_SET_STUB(slot, name, since) setStub<slot>(api.name);
  PJRT_API_SLOTS(TPJRT_SET_STUB)
#undef TPJRT_SET_STUB
  fillErrorSlots(api);
  fillPluginSlots(api);
  fillEventSlots(api);
  fillClientSlots(api);
  fillDeviceSlots(api);
  fillBufferSlots(api);
  fillHostTransferSlots(api);
  fillCompileSlots(api);
  fillExecutableSlots(api);
  fillExecuteSlots(api);
  return api;
}

}  // namespace
}  // namespace tpjrt::cpu

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi(void) {
  static const PJRT_Api api = tpjrt::cpu::makeApi();
  return &api;
}

// Whether this CPU can flush subnormals (float_mode.h); the choice applies to programs run after it.
extern "C" __attribute__((visibility("default"))) bool TorchPjrtCpu_SetFlushDenormal(bool on) {
  return tpjrt::cpu::setFlushDenormal(on);
}
