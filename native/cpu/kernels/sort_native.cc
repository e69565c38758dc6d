// sort with a comparator the plugin recognises, run as a stable sort of each slice in C++ instead of
// merges that evaluate the comparator region in lockstep (kernels/sort.cc). Two comparators on the
// first operand pair are recognised, exactly as written (any other shape takes the general path):
//   integers and i1:  compare(a, b) LT or GT
//   f32 and f64:      or(compare(a, b) LT, and(compare(b, b) NE, compare(a, a) EQ))   NaN last
//                     or(compare(a, b) GT, and(compare(a, a) NE, compare(b, b) EQ))   NaN first
// (the second is what torch-pjrt's sort emits; both are strict weak orders, NaNs equivalent).
#include "kernels/sort_native.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/thread_pool.h"
#include "kernels/body_reader.h"

namespace tpjrt::cpu {

namespace {

struct Recognised {
  bool descending = false;
};

std::optional<Recognised> recognise(const Op& sort, ElementType key) {
  if (sort.regions.size() != 1 || sort.regions[0].args.size() < 2) return std::nullopt;
  const Region& r = sort.regions[0];
  const int a = r.args[0], b = r.args[1];
  if (key == ElementType::Pred || isInteger(key)) {
    for (int descending = 0; descending < 2; ++descending) {
      BodyReader read{r};
      if (read.returns({read.compare(a, b, descending ? "GT" : "LT")})) return Recognised{descending != 0};
    }
    return std::nullopt;
  }
  if (key != ElementType::F32 && key != ElementType::F64) return std::nullopt;
  for (int descending = 0; descending < 2; ++descending) {
    const int nanArg = descending ? a : b, numArg = descending ? b : a;
    BodyReader read{r};
    const int lt = read.compare(a, b, descending ? "GT" : "LT");
    const int nan = read.compare(nanArg, nanArg, "NE"), num = read.compare(numArg, numArg, "EQ");
    const int nanSide = read.binary("stablehlo.and", nan, num);
    if (read.returns({read.binary("stablehlo.or", lt, nanSide)})) return Recognised{descending != 0};
  }
  return std::nullopt;
}

// The comparator's "a goes before b" on keys of type S.
template <class S>
bool before(S a, S b, bool descending) {
  if constexpr (std::is_floating_point_v<S>) {
    if (descending) return a > b || (std::isnan(a) && !std::isnan(b));
    return a < b || (std::isnan(b) && !std::isnan(a));
  } else {
    return descending ? b < a : a < b;
  }
}

// Orders the positions [first, last) of a slice by `before`, stably; with 0 < prefix < last - first only
// the first prefix of them (a partial sort, ties broken by position as a stable order breaks them).
template <class Before>
void orderSlice(int64_t* first, int64_t* last, int64_t prefix, Before before) {
  if (prefix <= 0 || prefix >= last - first) return std::stable_sort(first, last, before);
  std::partial_sort(first, first + prefix, last, [&](int64_t i, int64_t j) { return before(i, j) || (!before(j, i) && i < j); });
}

}  // namespace

std::optional<Permutation> sortPermutation(const Op& op, const Literal& key, int64_t outer, int64_t length,
                                                    int64_t inner, int64_t prefix) {
  const std::optional<Recognised> order = recognise(op, key.type.element);
  if (!order) return std::nullopt;
  Permutation perm(size_t(outer * inner * length));
  dispatchType(key.type.element, [&](auto tag) {
    using S = decltype(tag);
    if constexpr (kIsInt<S> || std::is_same_v<S, float> || std::is_same_v<S, double>) {
      const S* x = elements<S>(key);
      parallelRange(outer * inner, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(length, 1)), [&](int64_t s0, int64_t s1) {
        for (int64_t s = s0; s < s1; ++s) {
          const S* slice = x + (s / inner) * length * inner + s % inner;
          int64_t* p = perm.data() + s * length;
          std::iota(p, p + length, int64_t(0));
          orderSlice(p, p + length, prefix, [&](int64_t i, int64_t j) { return before(slice[i * inner], slice[j * inner], order->descending); });
        }
      });
    } else if constexpr (kIsPred<S>) {
      const S* x = elements<S>(key);
      for (int64_t s = 0; s < outer * inner; ++s) {
        const S* slice = x + (s / inner) * length * inner + s % inner;
        int64_t* p = perm.data() + s * length;
        std::iota(p, p + length, int64_t(0));
        orderSlice(p, p + length, prefix, [&](int64_t i, int64_t j) { return before(slice[i * inner].v, slice[j * inner].v, order->descending); });
      }
    }
  });
  return perm;
}

}  // namespace tpjrt::cpu
