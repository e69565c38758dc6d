// A value derived once from a Region's ops, which no longer change once a module is compiled (the
// interpreter's release points and splat operands): computed on first use and shared by every later run, on any
// thread. Copies and moves start empty, so an edited copy of a region never sees a stale value.
#pragma once

#include <atomic>
#include <memory>

namespace tpjrt::cpu {

template <typename T>
class RegionMemo {
 public:
  RegionMemo() = default;
  RegionMemo(const RegionMemo&) {}
  RegionMemo(RegionMemo&&) noexcept {}
  RegionMemo& operator=(const RegionMemo&) {
    clear();
    return *this;
  }
  RegionMemo& operator=(RegionMemo&&) noexcept {
    clear();
    return *this;
  }
  ~RegionMemo() { clear(); }

  // The value, made by `make()` on first use (two threads may both make it; one copy is kept).
  template <typename Make>
  const T& get(Make&& make) const {
    if (const T* value = value_.load(std::memory_order_acquire)) return *value;
    auto made = std::make_unique<const T>(make());
    const T* expected = nullptr;
    if (value_.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel)) return *made.release();
    return *expected;
  }

 private:
  void clear() { delete value_.exchange(nullptr); }
  mutable std::atomic<const T*> value_{nullptr};
};

}  // namespace tpjrt::cpu
