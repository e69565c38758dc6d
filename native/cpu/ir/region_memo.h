// A value derived once from a Region's ops, which no longer change once a module is compiled (the
// interpreter's plan): computed on first use and shared by every later run, on any thread. Copies and
// moves start empty, so an edited copy of a region never sees a stale value. T need only be complete
// where get() is called (ir/ir.h names the interpreter's plan without defining it).
#pragma once

#include <atomic>
#include <memory>
#include <utility>

namespace tpjrt::cpu {

struct MemoBase {
  virtual ~MemoBase() = default;
};
template <typename T>
struct MemoOf : MemoBase {
  explicit MemoOf(T v) : value(std::move(v)) {}
  const T value;
};

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
    if (const MemoBase* held = value_.load(std::memory_order_acquire)) return static_cast<const MemoOf<T>*>(held)->value;
    auto made = std::make_unique<const MemoOf<T>>(make());
    const MemoBase* expected = nullptr;
    if (value_.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel)) return made.release()->value;
    return static_cast<const MemoOf<T>*>(expected)->value;
  }

 private:
  void clear() { delete value_.exchange(nullptr); }
  mutable std::atomic<const MemoBase*> value_{nullptr};
};

}  // namespace tpjrt::cpu
