#include "host_memory.h"

#include <cstdint>
#include <cstdlib>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tpjrt {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;

uintptr_t roundUpToHugePage(uintptr_t x) { return (x + kHugePage - 1) / kHugePage * kHugePage; }

bool ownMapping(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  return bytes >= kHugePage;
#else
  (void)bytes;
  return false;
#endif
}

}  // namespace

void* allocateHostMemory(size_t bytes) {
  if (!ownMapping(bytes)) return std::malloc(bytes > 0 ? bytes : 1);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Maps one huge page more than needed, then unmaps what lies outside the aligned range.
  const size_t size = roundUpToHugePage(bytes), mapped = size + kHugePage;
  void* map = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(map), aligned = roundUpToHugePage(start);
  if (aligned > start) munmap(map, aligned - start);
  if (const size_t tail = start + mapped - (aligned + size)) munmap(reinterpret_cast<void*>(aligned + size), tail);
  void* data = reinterpret_cast<void*>(aligned);
  madvise(data, size, MADV_HUGEPAGE);  // a hint: failing changes nothing
  return data;
#endif
}

void freeHostMemory(void* data, size_t bytes) noexcept {
  if (!data) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (ownMapping(bytes)) return void(munmap(data, roundUpToHugePage(bytes)));
#endif
  std::free(data);
}

}  // namespace tpjrt
