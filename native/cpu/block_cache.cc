#include "block_cache.h"

#include <cstdlib>
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
  void* block = std::malloc(bytes);
  if (!block) throw std::bad_alloc();
  return block;
}

void releaseBlock(void* block, size_t bytes) noexcept {
  if (!block) return;
  if (cacheable(bytes)) {
    BlockCache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
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
