#include "base/block_cache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <mutex>
#include <unordered_map>
#include <vector>

#include "base/error.h"

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

constexpr size_t kHugePage = size_t(2) << 20;
// x rounded up to a whole number of huge pages (a size, or an address).
uintptr_t roundUpToHugePage(uintptr_t x) { return (x + kHugePage - 1) / kHugePage * kHugePage; }

// A block of whole 2 MiB pages in a mapping of its own, which the kernel is asked to back with huge
// pages where it does so on request (transparent_hugepage=madvise): a large array then streams through
// memory with one TLB entry per 2 MiB instead of per 4 KiB. Its own mapping, not malloc's: the advice
// must not reach the heap, where malloc would later put small blocks whose first touch then zeroes a
// whole 2 MiB page.
void* hugePageBlock(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const size_t size = roundUpToHugePage(bytes), mapped = size + kHugePage;
  void* map = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return nullptr;
  // Keeps the 2 MiB-aligned `size` bytes inside the mapping and unmaps the rest on either side.
  const uintptr_t start = reinterpret_cast<uintptr_t>(map), aligned = roundUpToHugePage(start);
  if (aligned > start) munmap(map, aligned - start);
  if (const size_t tail = start + mapped - (aligned + size)) munmap(reinterpret_cast<void*>(aligned + size), tail);
  void* block = reinterpret_cast<void*>(aligned);
  madvise(block, size, MADV_HUGEPAGE);  // a hint: failing changes nothing
  return block;
#else
  return std::aligned_alloc(kHugePage, roundUpToHugePage(bytes));
#endif
}

// Gives a block back to the system, the way allocateBlock took it.
void freeBlock(void* block, size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= kHugePageMin) return void(munmap(block, roundUpToHugePage(bytes)));
#endif
  std::free(block);
}

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
    freeBlock(most->second.back(), most->first);
    most->second.pop_back();
    c.held -= most->first;
  }
}

// Frees every kept block; whether there were any.
bool emptyCache() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  const bool any = c.held > 0;
  for (auto& [size, blocks] : c.free) {
    for (void* block : blocks) freeBlock(block, size);
    blocks.clear();
  }
  c.held = 0;
  return any;
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
  auto fresh = [bytes] {
    if (bytes >= kHugePageMin) return hugePageBlock(bytes);
    if (bytes >= kAlignedBlockMin) return std::aligned_alloc(kCacheLine, (bytes + kCacheLine - 1) / kCacheLine * kCacheLine);
    return std::malloc(bytes);
  };
  void* block = fresh();
  if (!block && emptyCache()) block = fresh();
  if (!block) fail("out of memory: could not allocate " + byteCount(bytes), ErrorCode::ResourceExhausted);
  return block;
}

std::string byteCount(size_t bytes) {
  static const char* const kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) value /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return std::string(text) + " (" + std::to_string(bytes) + " bytes)";
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
  freeBlock(block, bytes);
}

size_t cachedBlockBytes() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.held;
}

}  // namespace tpjrt::cpu
