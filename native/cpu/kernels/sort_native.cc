// sort with a comparator the plugin recognises, run as a stable sort of each slice in C++ instead of
// merges that evaluate the comparator region in lockstep (kernels/sort.cc). Two comparators on the
// first operand pair are recognised, exactly as written (any other shape takes the general path):
//   integers and i1:  compare(a, b) LT or GT
//   f32 and f64:      or(compare(a, b) LT, and(compare(b, b) NE, compare(a, a) EQ))   NaN last
//                     or(compare(a, b) GT, and(compare(a, a) NE, compare(b, b) EQ))   NaN first
// (the second is what torch-pjrt's sort emits; both are strict weak orders, NaNs equivalent).
//
// Each key becomes an unsigned integer whose order is the comparator's (equivalent keys, such as two
// NaNs or -0 and +0, become equal), and that integer joined with the element's position above it
// (key · 2^b + position) gives every element a distinct entry: the entries in increasing order are
// the stable order. A sort that only needs its first k positions (topk: RegionPlan::sortedPrefix)
// selects them with nth_element and sorts those k; for a small k, only among the few candidates that
// the least keys of blocks of 16 leave (see SliceSort::sort).
#include "kernels/sort_native.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "base/thread_pool.h"
#include "kernels/body_reader.h"
#include "kernels/isa_loops.h"

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

// The ascending key of v: a < b (NaN largest) exactly when key(a) < key(b); ~key orders descending.
template <class K, class S>
K orderKey(S v) {
  K key;
  if constexpr (std::is_floating_point_v<S>) {
    using U = std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>;
    constexpr U sign = U(1) << (8 * sizeof(U) - 1), inf = std::bit_cast<U>(std::numeric_limits<S>::infinity());
    const U bits = std::bit_cast<U>(v), magnitude = bits & ~sign;
    key = magnitude > inf ? ~U(0)                   // every NaN, after +inf
          : magnitude == 0 ? sign                   // -0 as +0
          : (bits & sign) ? ~bits : (bits | sign);  // negatives reversed below the positives
  } else if constexpr (kIsPred<S>) {
    key = v.v;
  } else if constexpr (std::is_signed_v<S>) {
    key = K(v) ^ (K(1) << (8 * sizeof(K) - 1));  // sign-extended, then the sign flipped
  } else {
    key = K(v);
  }
  return key;
}

template <class T>
using Scratch = std::vector<T, NoInitAllocator<T>>;

constexpr int64_t kBlock = 16;  // keys per block of a prefix's selection

// Keys of one slice (elements `stride` apart) with `flip` applied, and the least key of each whole block.
template <class K, class S>
TPJRT_LOOP_BODY void loadKeys(const S* x, int64_t stride, int64_t length, K flip, K* keys, K* least) {
  if (stride == 1) {
    for (int64_t p = 0; p < length; ++p) keys[p] = orderKey<K>(x[p]) ^ flip;
  } else {
    for (int64_t p = 0; p < length; ++p) keys[p] = orderKey<K>(x[p * stride]) ^ flip;
  }
  for (int64_t b = 0; b < length / kBlock; ++b) {
    K m = keys[b * kBlock];
    for (int64_t j = 1; j < kBlock; ++j) m = std::min(m, keys[b * kBlock + j]);
    least[b] = m;
  }
}

// One slice's sort on keys of K bits through entries of twice that: the key above, the position below.
template <class K>
struct SliceSort {
  using E = std::conditional_t<sizeof(K) == 4, uint64_t, unsigned __int128>;
  static constexpr int kShift = 8 * sizeof(K);
  static E entry(K key, int64_t position) { return (E(key) << kShift) | E(position); }

  // Writes to order[0, ordered) the positions of the first `ordered` elements of the stable order of the
  // keys (`least` as loadKeys leaves it). A short prefix (at most a quarter of the blocks, so that few
  // candidates remain) is taken from candidates: with `bound` the ordered-th smallest of the blocks'
  // least keys, at least `ordered` keys are at most `bound`, so a key above it is not in the prefix, nor
  // is any key of a block whose least key is above it.
  void sort(const K* keys, const K* least, int64_t length, int64_t ordered, int64_t* order) {
    entries.resize(size_t(length));
    E* e = entries.data();
    int64_t n = 0;
    const int64_t blocks = length / kBlock;
    if (ordered < length && ordered * 4 <= blocks) {
      bounds.assign(least, least + blocks);
      std::nth_element(bounds.begin(), bounds.begin() + (ordered - 1), bounds.end());
      const K bound = bounds[size_t(ordered - 1)];
      for (int64_t b = 0; b < blocks; ++b)
        if (least[b] <= bound)
          for (int64_t p = b * kBlock; p < (b + 1) * kBlock; ++p)
            if (keys[p] <= bound) e[n++] = entry(keys[p], p);
      for (int64_t p = blocks * kBlock; p < length; ++p) e[n++] = entry(keys[p], p);  // the last partial block
    } else {
      for (; n < length; ++n) e[n] = entry(keys[n], n);
    }
    if (ordered < n) std::nth_element(e, e + ordered, e + n);
    std::sort(e, e + ordered);
    for (int64_t p = 0; p < ordered; ++p) order[p] = int64_t(K(e[p]));
  }

  Scratch<E> entries;
  Scratch<K> bounds;
};

// out[p] = x[order[p]] for p in [0, ordered) of `count` adjacent slices (stride `inner` between
// positions, 1 between the slices), order holding `ordered` positions per slice.
template <class T>
void gatherSlices(const T* x, T* out, const int64_t* order, int64_t ordered, int64_t count, int64_t inner) {
  for (int64_t p = 0; p < ordered; ++p)
    for (int64_t b = 0; b < count; ++b) out[p * inner + b] = x[order[b * ordered + p] * inner + b];
}

void gatherSlices(size_t width, const uint8_t* x, uint8_t* out, const int64_t* order, int64_t ordered, int64_t count,
                  int64_t inner) {
  const bool moved = withStorageWidth(width, [&](auto tag) {
    using T = decltype(tag);
    gatherSlices(reinterpret_cast<const T*>(x), reinterpret_cast<T*>(out), order, ordered, count, inner);
  });
  if (!moved) fail("unsupported element width", ErrorCode::Internal);
}

// The sort with keys of K bits: slices taken `block` adjacent ones at a time (neighbours along the
// inner dimensions share cache lines), each one's keys read into a contiguous row.
template <class K, class S>
void sortSlices(const Operands& in, std::vector<Literal>& results, int64_t outer, int64_t length, int64_t inner,
                int64_t ordered, bool descending) {
  std::vector<size_t> widths;
  std::vector<uint8_t*> outs;
  for (size_t r = 0; r < results.size(); ++r) {
    widths.push_back(byteWidth(results[r].type.element));
    outs.push_back(results[r].bytes.mutableData());
  }
  const S* x = elements<S>(*in[0]);
  const K flip = descending ? ~K(0) : K(0);
  const int64_t block = std::min<int64_t>(inner, 16), blocksPerOuter = (inner + block - 1) / block;
  const auto load = isaVersion<&loadKeys<K, S>>();
  parallelRange(outer * blocksPerOuter, std::max<int64_t>(1, kParallelElements / (length * block)), [&](int64_t g0, int64_t g1) {
    Scratch<K> keys(static_cast<size_t>(length)), least(static_cast<size_t>(length / kBlock));
    Scratch<int64_t> order(size_t(ordered * block));
    SliceSort<K> slice;
    for (int64_t g = g0; g < g1; ++g) {
      const int64_t first = (g % blocksPerOuter) * block, count = std::min(block, inner - first);
      const int64_t offset = (g / blocksPerOuter) * length * inner + first;  // of the block's first element
      for (int64_t b = 0; b < count; ++b) {
        load(x + offset + b, inner, length, flip, keys.data(), least.data());
        slice.sort(keys.data(), least.data(), length, ordered, order.data() + b * ordered);
      }
      for (size_t r = 0; r < outs.size(); ++r)
        gatherSlices(widths[r], in[r]->bytes.data() + size_t(offset) * widths[r], outs[r] + size_t(offset) * widths[r],
                     order.data(), ordered, count, inner);
    }
  });
}

}  // namespace

bool sortRecognised(const Op& op, const Operands& in, std::vector<Literal>& results, int64_t outer, int64_t length,
                    int64_t inner, int64_t prefix) {
  const ElementType type = in[0]->type.element;
  const std::optional<Recognised> order = recognise(op, type);
  if (!order) return false;
  if (outer * inner * length == 0) return true;
  const int64_t ordered = prefix > 0 ? std::min(prefix, length) : length;
  dispatchType(type, [&](auto tag) {
    using S = decltype(tag);
    if constexpr (kIsInt<S> || kIsPred<S> || std::is_same_v<S, float> || std::is_same_v<S, double>) {
      // entries of 64 bits hold a 32-bit key and a position below 2^32
      if (sizeof(S) <= 4 && uint64_t(length) <= std::numeric_limits<uint32_t>::max() + uint64_t(1))
        sortSlices<uint32_t, S>(in, results, outer, length, inner, ordered, order->descending);
      else
        sortSlices<uint64_t, S>(in, results, outer, length, inner, ordered, order->descending);
    }
  });
  return true;
}

}  // namespace tpjrt::cpu
