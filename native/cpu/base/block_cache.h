// Storage for literal bytes and kernels' scratch. Large blocks freed by one execute are kept for the
// next one of the same size, so the steady state of a model run neither maps fresh pages (and takes
// their page faults) nor returns them to the system. When the cache is full, blocks of other sizes make
// room for the one being freed. Small blocks go straight to malloc. Blocks of kHugePageMin or more are
// whole 2 MiB pages that the kernel is asked to back with huge pages, as numpy does for its large
// arrays. Blocks of kAlignedBlockMin or more start on a cache line: malloc's 16-byte alignment makes
// every 64-byte vector load and store straddle two lines, which took 13% off a fused tanh/logistic
// chain.
#pragma once

#include <cstddef>
#include <string>

namespace tpjrt::cpu {

inline constexpr size_t kCachedBlockMin = size_t(64) << 10;    // smaller blocks are not kept
inline constexpr size_t kCachedBlockMax = size_t(64) << 20;    // nor larger ones
inline constexpr size_t kBlockCacheLimit = size_t(256) << 20;  // bytes kept in all
inline constexpr size_t kHugePageMin = size_t(4) << 20;        // blocks this large get huge pages
inline constexpr size_t kAlignedBlockMin = 256;                // blocks this large start on a cache line
inline constexpr size_t kCacheLine = 64;

// `bytes` of uninitialised storage (nullptr only for 0 bytes). When the system has no more, the cache
// is emptied and the request tried once more; then it fails with CpuError RESOURCE_EXHAUSTED
// "out of memory: could not allocate <size>".
void* allocateBlock(size_t bytes);
// `bytes` as people read it: "1.0 GiB (1074790400 bytes)".
std::string byteCount(size_t bytes);
// Gives back a block from allocateBlock(bytes).
void releaseBlock(void* block, size_t bytes) noexcept;
// Bytes held in the cache now (for tests).
size_t cachedBlockBytes();

// A block of at least `bytes` (and kAlignedBlockMin) for a kernel's own use, given back on scope exit.
class ScratchBlock {
 public:
  explicit ScratchBlock(size_t bytes) : bytes_(bytes < kAlignedBlockMin ? kAlignedBlockMin : bytes), data_(allocateBlock(bytes_)) {}
  ~ScratchBlock() { releaseBlock(data_, bytes_); }
  ScratchBlock(const ScratchBlock&) = delete;
  ScratchBlock& operator=(const ScratchBlock&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(data_); }

 private:
  size_t bytes_;
  void* data_;
};

}  // namespace tpjrt::cpu
