#include "block_cache.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tpjrt::cpu {

namespace {

struct BlockCache {
  std::mutex mu;
  std::unordered_map<size_t, std::vector<void*>> free;  // by size
  size_t held = 0;
};

BlockCache& cache() {
  static auto* instance = new BlockCache;  // never destroyed: literals may be freed during exit
  return *instance;
}

bool cacheable(size_t bytes) { return bytes >= kCachedBlockMin && bytes <= kCachedBlockMax; }

#if defined(__linux__) && defined(MADV_HUGEPAGE)
// Blocks from kHugeBlockMin on get a mapping of their own, aligned to 2 MiB and advised to use
// transparent huge pages where the system leaves that to each program (`madvise` mode): one TLB entry
// and one page fault per 2 MiB instead of 512. Their own mapping, not malloc's: advice on malloc's
// heap outlives the block, and the small blocks later carved from it each faulted (and zeroed) a
// whole 2 MiB page.
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeBlockMin = 2 * kHugePage;

size_t mappedSize(size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

void* systemAllocate(size_t bytes) {
  if (bytes < kHugeBlockMin) return std::malloc(bytes);
  const size_t size = mappedSize(bytes), span = size + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw), aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  if (start + span > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), start + span - aligned - size);
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // a hint: its failure changes nothing
  return reinterpret_cast<void*>(aligned);
}

void systemFree(void* block, size_t bytes) {
  if (bytes < kHugeBlockMin) return std::free(block);
  munmap(block, mappedSize(bytes));
}
#else
void* systemAllocate(size_t bytes) { return std::malloc(bytes); }
void systemFree(void* block, size_t) { std::free(block); }
#endif

// Frees kept blocks of other sizes, those holding the most bytes first, until `bytes` more fit: what
// a workload frees now is likelier to be asked for again than what an earlier one left.
void evictForRoom(BlockCache& c, size_t bytes) {
  while (c.held + bytes > kBlockCacheLimit) {
    auto most = c.free.end();
    for (auto it = c.free.begin(); it != c.free.end(); ++it)
      if (it->first != bytes && !it->second.empty() &&
          (most == c.free.end() || it->first * it->second.size() > most->first * most->second.size()))
        most = it;
    if (most == c.free.end()) return;
    systemFree(most->second.back(), most->first);
    most->second.pop_back();
    c.held -= most->first;
  }
}

}  // namespace

void* allocateBlock(size_t bytes) {
  if (bytes == 0) return nullptr;
  if (cacheable(bytes)) {
    BlockCache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.free.find(bytes);
    if (it != c.free.end() && !it->second.empty()) {
      void* block = it->second.back();
      it->second.pop_back();
      c.held -= bytes;
      return block;
    }
  }
  void* block = systemAllocate(bytes);
  if (!block) throw std::bad_alloc();
  return block;
}

void releaseBlock(void* block, size_t bytes) noexcept {
  if (!block) return;
  if (cacheable(bytes)) {
    BlockCache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    evictForRoom(c, bytes);
    if (c.held + bytes <= kBlockCacheLimit) {
      try {
        c.free[bytes].push_back(block);
        c.held += bytes;
        return;
      } catch (...) {
        // no room to remember it: free it below
      }
    }
  }
  systemFree(block, bytes);
}

size_t cachedBlockBytes() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.held;
}

}  // namespace tpjrt::cpu
