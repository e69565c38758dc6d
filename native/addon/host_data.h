// Reading an ArrayBufferView argument and checking it covers the bytes a host-to-device copy reads.
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpjrt::addon {

struct HostBytes {
  const void* data;
  size_t byteLength;
};

HostBytes hostBytesFrom(Napi::Value value, const char* call);

// Dense: byteLength must equal product(dims) × elementSize. Strided: every byte the copy touches
// must lie inside the view (strides must be non-negative).
void checkHostExtent(Napi::Env env, const char* call, const HostBytes& bytes, size_t elementSize,
                     const std::vector<int64_t>& dims, const std::vector<int64_t>& byteStrides);

}  // namespace tpjrt::addon
