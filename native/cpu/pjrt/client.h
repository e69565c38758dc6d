// The CPU plugin's client: its devices (one host memory each) and per-device accounting of live
// buffers. Buffers and executables share ownership of the client state, so destroying the client
// handle first never leaves them dangling.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "pjrt/device_queue.h"
#include "pjrt_c_api.h"

namespace tpjrt::cpu {
struct ClientState;

// Updated without a lock by every buffer made or freed; a reader sees each counter on its own.
struct DeviceStats {
  std::atomic<int64_t> bytesInUse{0};
  std::atomic<int64_t> peakBytesInUse{0};
  std::atomic<int64_t> numAllocs{0};  // allocations ever made
  std::atomic<int64_t> largestAllocSize{0};
  std::atomic<int64_t> liveBuffers{0};
};
}  // namespace tpjrt::cpu

struct PJRT_DeviceDescription {
  int id = 0;
  std::string debugString;
  std::string toString;
};

struct PJRT_Memory {
  int id = 0;
  PJRT_Device* device = nullptr;
  PJRT_Device* devices[1] = {nullptr};  // AddressableByDevices
  std::string debugString;
  std::string toString;
};

struct PJRT_Device {
  tpjrt::cpu::ClientState* client = nullptr;
  int id = 0;
  PJRT_DeviceDescription description;
  PJRT_Memory memory;
  PJRT_Memory* memories[1] = {nullptr};  // AddressableMemories
  tpjrt::cpu::DeviceStats stats;
  tpjrt::cpu::DeviceQueue queue;  // runs the device's executes
};

namespace tpjrt::cpu {

constexpr char kPlatformName[] = "cpu";
constexpr char kPlatformVersion[] = "torch-pjrt cpu 0.1";
constexpr char kDeviceKind[] = "cpu";
constexpr char kMemoryKind[] = "device";
constexpr int kMemoryKindId = 0;
constexpr int64_t kMaxDevices = 64;

struct ClientState {
  ClientState(int deviceCount, int threads);
  // Lets every device's queue finish first: queued work uses the pool.
  ~ClientState();
  ClientState(const ClientState&) = delete;
  ClientState& operator=(const ClientState&) = delete;

  std::vector<std::unique_ptr<PJRT_Device>> devices;
  std::vector<PJRT_Device*> deviceList;
  std::vector<PJRT_Memory*> memoryList;
  // Kernels split big work over it (see base/thread_pool.h); sized by the num_threads option.
  std::unique_ptr<ThreadPool> threadPool;

  PJRT_Device* deviceById(int64_t id) const;  // NULL when there is none
  // Throw INVALID_ARGUMENT unless the handle belongs to this client.
  void requireOwnDevice(const PJRT_Device* device, const char* what) const;
  void requireOwnMemory(const PJRT_Memory* memory, const char* what) const;

  void recordAllocation(PJRT_Device* device, int64_t bytes);
  void recordRelease(PJRT_Device* device, int64_t bytes);
};

// Throws INVALID_ARGUMENT "client is NULL" for a NULL handle.
ClientState& stateOf(PJRT_Client* client);

}  // namespace tpjrt::cpu

struct PJRT_Client {
  std::shared_ptr<tpjrt::cpu::ClientState> state;
};
