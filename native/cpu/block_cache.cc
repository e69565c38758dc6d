#include "block_cache.h"

#include <cstdlib>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

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
    std::free(most->second.back());
    most->second.pop_back();
    c.held -= most->first;
  }
}

// A block of whole 2 MiB pages, which the kernel is asked to back with huge pages where it does so on
// request (transparent_hugepage=madvise): a large array then streams through memory with one TLB entry
// per 2 MiB instead of per 4 KiB. free() takes it back like any other block.
void* hugePageBlock(size_t bytes) {
  constexpr size_t kHugePage = size_t(2) << 20;
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* block = std::aligned_alloc(kHugePage, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (block) madvise(block, rounded, MADV_HUGEPAGE);  // a hint: failing changes nothing
#endif
  return block;
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
  void* block = bytes >= kHugePageMin ? hugePageBlock(bytes) : std::malloc(bytes);
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
  std::free(block);
}

size_t cachedBlockBytes() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.held;
}

}  // namespace tpjrt::cpu
