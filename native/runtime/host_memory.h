// Host memory for reads from a device. A read of 2 MiB or more lands in a mapping of its own, 2 MiB
// aligned and advised for huge pages, so that its first touch faults once per 2 MiB rather than once
// per 4 KiB (on a virtual machine a fault costs microseconds: 64 MB of 4 KiB faults took 190 ms).
// Smaller reads use malloc.
#pragma once

#include <cstddef>

namespace tpjrt {

// nullptr when the system refuses; `bytes` may be 0.
void* allocateHostMemory(size_t bytes);
// Frees what allocateHostMemory(bytes) returned.
void freeHostMemory(void* data, size_t bytes) noexcept;

}  // namespace tpjrt
