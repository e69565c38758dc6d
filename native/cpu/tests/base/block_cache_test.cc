// The block cache hands a freed large block to the next request of its size, keeps nothing small or
// beyond its limit, and literal storage goes through it.
#include <vector>

#include "base/block_cache.h"
#include "base/error.h"
#include "check.h"
#include "ir/ir.h"

using namespace tpjrt::cpu;

TEST(a_freed_large_block_is_reused_for_the_same_size_only) {
  const size_t size = kCachedBlockMin * 3;
  const size_t before = cachedBlockBytes();
  void* a = allocateBlock(size);
  releaseBlock(a, size);
  CHECK_EQ(cachedBlockBytes(), before + size);
  void* other = allocateBlock(size + 4096);  // another size: not the cached block
  CHECK(other != a);
  void* again = allocateBlock(size);
  CHECK(again == a);
  CHECK_EQ(cachedBlockBytes(), before);
  releaseBlock(other, size + 4096);
  releaseBlock(again, size);
}

TEST(small_and_huge_blocks_are_not_kept_and_the_total_is_bounded) {
  const size_t before = cachedBlockBytes();
  void* small = allocateBlock(kCachedBlockMin - 1);
  releaseBlock(small, kCachedBlockMin - 1);
  CHECK_EQ(cachedBlockBytes(), before);
  void* huge = allocateBlock(kCachedBlockMax + 1);
  releaseBlock(huge, kCachedBlockMax + 1);
  CHECK_EQ(cachedBlockBytes(), before);
  std::vector<void*> blocks;
  for (size_t held = 0; held <= kBlockCacheLimit; held += kCachedBlockMax) blocks.push_back(allocateBlock(kCachedBlockMax));
  for (void* b : blocks) releaseBlock(b, kCachedBlockMax);
  CHECK(cachedBlockBytes() <= kBlockCacheLimit);
  CHECK(cachedBlockBytes() >= kBlockCacheLimit - kCachedBlockMax);
  allocateBlock(0);
  releaseBlock(nullptr, 0);
}

TEST(a_full_cache_makes_room_for_a_block_of_another_size) {
  std::vector<void*> blocks;
  for (size_t held = 0; held <= kBlockCacheLimit; held += kCachedBlockMax) blocks.push_back(allocateBlock(kCachedBlockMax));
  for (void* b : blocks) releaseBlock(b, kCachedBlockMax);  // the cache is full of the largest blocks
  const size_t size = kCachedBlockMin * 7, full = cachedBlockBytes();
  CHECK(full + size > kBlockCacheLimit);
  void* a = allocateBlock(size);
  releaseBlock(a, size);
  CHECK_EQ(cachedBlockBytes(), full - kCachedBlockMax + size);  // kept, in place of one large block
  CHECK(allocateBlock(size) == a);
  CHECK_EQ(cachedBlockBytes(), full - kCachedBlockMax);
  releaseBlock(a, size);
}

TEST(literal_bytes_come_from_the_cache) {
  const size_t size = kCachedBlockMin * 5;
  const void* block = nullptr;
  {
    Bytes bytes(size);
    block = bytes.data();
  }
  Bytes again(size, 7);
  CHECK(again.data() == block);
  CHECK(again[size - 1] == 7);
}

TEST(large_blocks_are_whole_huge_pages) {
  for (size_t size : {kHugePageMin, kHugePageMin + 1, size_t(3) * kHugePageMin + 12345}) {
    auto* block = static_cast<uint8_t*>(allocateBlock(size));
    CHECK(reinterpret_cast<uintptr_t>(block) % (size_t(2) << 20) == 0);
    block[0] = 1;
    block[size - 1] = 2;  // the whole size is writable
    CHECK(block[0] == 1 && block[size - 1] == 2);
    releaseBlock(block, size);
  }
}

TEST(blocks_from_256_bytes_start_on_a_cache_line) {
  for (size_t size : {kAlignedBlockMin, size_t(1000), kCachedBlockMin + 8, size_t(1) << 20, kHugePageMin - 4}) {
    for (int i = 0; i < 4; ++i) {  // several, so that malloc's own 16-byte alignment would show
      void* block = allocateBlock(size);
      CHECK(reinterpret_cast<uintptr_t>(block) % kCacheLine == 0);
      static_cast<uint8_t*>(block)[size - 1] = 1;
      releaseBlock(block, size);
    }
  }
  const ScratchBlock scratch(24);  // below the minimum: given kAlignedBlockMin bytes, aligned too
  CHECK(reinterpret_cast<uintptr_t>(scratch.as<float>()) % kCacheLine == 0);
  scratch.as<uint8_t>()[kAlignedBlockMin - 1] = 1;
}

// 2^48 bytes (256 TiB) is more than a process can map (x86-64 gives it 2^47), whatever the system's
// overcommit policy: the allocation fails with RESOURCE_EXHAUSTED naming the size, after giving the
// cache's blocks back, and the process lives on.
TEST(a_block_larger_than_memory_fails_with_resource_exhausted) {
  std::vector<void*> blocks;
  for (int i = 0; i < 3; ++i) blocks.push_back(allocateBlock(kCachedBlockMax));
  for (void* b : blocks) releaseBlock(b, kCachedBlockMax);
  CHECK(cachedBlockBytes() > 0);
  bool threw = false;
  try {
    allocateBlock(size_t(1) << 48);
  } catch (const CpuError& e) {
    threw = true;
    CHECK(e.code() == ErrorCode::ResourceExhausted);
    CHECK_EQ(std::string(e.what()), std::string("out of memory: could not allocate 256.0 TiB (281474976710656 bytes)"));
  }
  CHECK(threw);
  CHECK_EQ(cachedBlockBytes(), size_t(0));  // emptied before the second try
  CHECK_THROWS(Bytes(size_t(1) << 48), "out of memory: could not allocate 256.0 TiB");
  void* after = allocateBlock(kCachedBlockMin);
  CHECK(after != nullptr);
  releaseBlock(after, kCachedBlockMin);
}

TEST(byte_counts_read_as_people_read_them) {
  CHECK_EQ(byteCount(1), std::string("1 byte"));
  CHECK_EQ(byteCount(1023), std::string("1023 bytes"));
  CHECK_EQ(byteCount(1024), std::string("1.0 KiB (1024 bytes)"));
  CHECK_EQ(byteCount(size_t(16384) * 16385 * 4), std::string("1.0 GiB (1073807360 bytes)"));
  CHECK_EQ(byteCount(size_t(3) << 29), std::string("1.5 GiB (1610612736 bytes)"));
}

TEST_MAIN()
