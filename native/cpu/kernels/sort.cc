// sort: a bottom-up merge sort of every 1-d slice along `dimension` at once. All merges of one pass
// advance in lockstep, so each step is one lane-mode evaluation of the comparator over every merge
// still running. When a pass has few merges (the last passes of a long slice), each merge is first cut
// into pieces of about equal length by binary searches on the "merge path" (also in lockstep), so
// the lane count stays high and the number of comparator evaluations stays near length / kLanes per
// pass. A merge takes the right run's element only when it is strictly less, so the sort is stable;
// a comparator that is not a strict weak order gives some permutation, never an out-of-bounds access.
#include <algorithm>

#include "base/thread_pool.h"
#include "kernels/kernels.h"
#include "kernels/sort_native.h"

namespace tpjrt::cpu {

namespace {

constexpr int64_t kLanes = 4096;  // pieces per pass to aim for

// perm[s · length + p]: the position of the element that lands at position p of slice s.
using Permutation = IndexArray;

struct Merge {
  int64_t slice, base;  // base: flat offset of the slice's first element
  int64_t i, iEnd, j, jEnd, k;  // positions within the slice: left run [i, iEnd), right [j, jEnd), output k
};

struct Comparison {
  int64_t base, lhs, rhs;  // flat offset of the slice; element positions along the sorted dimension
};

// out[l] = x[c.base + c.(lhs or rhs) · stride] for every comparison, `W` bytes per element.
template <size_t W>
void pickLanes(const uint8_t* x, const std::vector<Comparison>& cs, bool lhs, int64_t stride, uint8_t* out) {
  struct E { uint8_t b[W]; };
  const E* in = reinterpret_cast<const E*>(x);
  E* o = reinterpret_cast<E*>(out);
  for (size_t l = 0; l < cs.size(); ++l) o[l] = in[cs[l].base + (lhs ? cs[l].lhs : cs[l].rhs) * stride];
}

void pickLanes(const Literal& x, const std::vector<Comparison>& cs, bool lhs, int64_t stride, Literal& out) {
  switch (byteWidth(x.type.element)) {
    case 1: return pickLanes<1>(x.bytes.data(), cs, lhs, stride, out.bytes.mutableData());
    case 2: return pickLanes<2>(x.bytes.data(), cs, lhs, stride, out.bytes.mutableData());
    case 4: return pickLanes<4>(x.bytes.data(), cs, lhs, stride, out.bytes.mutableData());
    default: return pickLanes<8>(x.bytes.data(), cs, lhs, stride, out.bytes.mutableData());
  }
}

// Whether the comparator reads operand x (its block arguments 2x and 2x+1).
std::vector<bool> usedOperands(const Op& op, size_t n) {
  std::vector<bool> used(n, false);
  if (op.regions.size() != 1 || n == 0) return std::vector<bool>(n, true);
  used[0] = true;  // the interpreter takes the lane count from the first argument
  const Region& r = op.regions[0];
  for (const Op& inner : r.ops)
    for (int id : inner.operands)
      for (size_t a = 0; a < r.args.size() && a < 2 * n; ++a)
        if (r.args[a] == id) used[a / 2] = true;
  return used;
}

class Sorter {
 public:
  Sorter(const Op& op, const Operands& in, const ReduceBody& less) : in_(in), less_(less), used_(usedOperands(op, in.size())) {
    const auto& dims = in[0]->type.dims;
    const int64_t rank = int64_t(dims.size());
    int64_t dim = intAttr(op, "dimension");
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) fail("dimension out of range");
    outer_ = 1;
    inner_ = 1;
    for (int64_t d = 0; d < dim; ++d) outer_ *= dims[size_t(d)];
    for (int64_t d = dim + 1; d < rank; ++d) inner_ *= dims[size_t(d)];
    length_ = dims[size_t(dim)];
  }

  int64_t outer() const { return outer_; }
  int64_t inner() const { return inner_; }
  int64_t length() const { return length_; }
  int64_t base(int64_t slice) const { return (slice / inner_) * length_ * inner_ + slice % inner_; }

  // Writes every input permuted by `perm` into its result.
  void gatherInto(std::vector<Literal>& results, const Permutation& perm) const {
    for (size_t x = 0; x < in_.size(); ++x) {
      if (!withStorageWidth(byteWidth(results[x].type.element),
                            [&](auto tag) { gatherTyped<decltype(tag)>(*in_[x], results[x], perm); }))
        fail("unsupported element width", ErrorCode::Internal);
    }
  }

  // perm[s * length + p]: the element at position p of slice s after sorting.
  Permutation run() {
    const int64_t slices = outer_ * inner_;
    Permutation perm(size_t(slices * length_)), next(perm.size());
    for (int64_t s = 0; s < slices; ++s)
      for (int64_t p = 0; p < length_; ++p) perm[size_t(s * length_ + p)] = p;
    for (int64_t w = 1; w < length_; w *= 2) {
      std::vector<Merge> merges;
      for (int64_t s = 0; s < slices; ++s)
        for (int64_t lo = 0; lo < length_; lo += 2 * w) {
          int64_t mid = std::min(lo + w, length_), hi = std::min(lo + 2 * w, length_);
          merges.push_back({s, base(s), lo, mid, mid, hi, lo});
        }
      const int64_t piece = std::max<int64_t>(1, (slices * length_ + kLanes - 1) / kLanes);
      if (2 * w > piece) merges = cut(merges, perm, piece);
      mergeAll(merges, perm, next);
      perm.swap(next);
    }
    return perm;
  }

 private:
  template <class T>
  void gatherTyped(const Literal& from, Literal& to, const Permutation& perm) const {
    const T* x = reinterpret_cast<const T*>(from.bytes.data());
    T* out = reinterpret_cast<T*>(to.bytes.mutableData());
    parallelRange(outer_ * inner_, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(length_, 1)), [&](int64_t s0, int64_t s1) {
      for (int64_t s = s0; s < s1; ++s) {
        const int64_t b = base(s);
        const int64_t* order = perm.data() + s * length_;
        for (int64_t p = 0; p < length_; ++p) out[b + p * inner_] = x[b + order[p] * inner_];
      }
    });
  }

  std::vector<bool> compare(const std::vector<Comparison>& cs) {
    const int64_t lanes = int64_t(cs.size());
    std::vector<Value> args;
    for (size_t i = 0; i < in_.size(); ++i) {
      const Literal& x = *in_[i];
      if (!used_[i]) {  // the comparator never reads it: an empty placeholder
        Value none = std::make_shared<const Literal>(makeLiteral({x.type.element, {0}}));
        args.insert(args.end(), {none, none});
        continue;
      }
      Literal lhs = makeLiteral({x.type.element, {lanes}}), rhs = makeLiteral({x.type.element, {lanes}});
      pickLanes(x, cs, true, inner_, lhs);
      pickLanes(x, cs, false, inner_, rhs);
      args.push_back(std::make_shared<const Literal>(std::move(lhs)));
      args.push_back(std::make_shared<const Literal>(std::move(rhs)));
    }
    std::vector<Value> out = less_(args);
    if (out.size() != 1 || !out[0] || out[0]->type.element != ElementType::Pred || numElements(out[0]->type) != lanes)
      fail("comparator must return one i1 per comparison");
    std::vector<bool> result(static_cast<size_t>(lanes));
    for (int64_t l = 0; l < lanes; ++l) result[size_t(l)] = out[0]->bytes[size_t(l)] != 0;
    return result;
  }

  // Cuts every merge into pieces of about `piece` outputs. For an output offset k the split takes i
  // elements from the left run and k - i from the right: the smallest i for which the left run's
  // element i does not belong before the right run's element k - i - 1.
  std::vector<Merge> cut(const std::vector<Merge>& merges, const Permutation& perm, int64_t piece) {
    struct Search {
      size_t merge;
      int64_t k, lo, hi;  // k and the bounds of i, relative to the merge's start
    };
    std::vector<Search> searches;
    for (size_t m = 0; m < merges.size(); ++m) {
      const Merge& g = merges[m];
      const int64_t la = g.iEnd - g.i, lb = g.jEnd - g.j;
      for (int64_t k = piece; k < la + lb; k += piece) searches.push_back({m, k, std::max<int64_t>(0, k - lb), std::min(k, la)});
    }
    while (true) {
      std::vector<Comparison> cs;
      std::vector<size_t> asking;
      for (size_t q = 0; q < searches.size(); ++q) {
        Search& s = searches[q];
        if (s.lo >= s.hi) continue;
        const Merge& g = merges[s.merge];
        const int64_t i = (s.lo + s.hi) / 2, j = s.k - i;
        // i < hi <= min(k, la), so i < la and j > 0: both elements exist.
        const int64_t row = g.slice * length_;  // the slice's entries in perm
        cs.push_back({g.base, perm[size_t(row + g.j + j - 1)], perm[size_t(row + g.i + i)]});
        asking.push_back(q);
      }
      if (cs.empty()) break;
      std::vector<bool> rightFirst = compare(cs);
      for (size_t a = 0; a < asking.size(); ++a) {
        Search& s = searches[asking[a]];
        const int64_t i = (s.lo + s.hi) / 2;
        if (rightFirst[a]) s.hi = i;  // right element k-i-1 goes before left element i: i is enough
        else s.lo = i + 1;
      }
    }
    std::vector<Merge> pieces;
    size_t q = 0;
    for (size_t m = 0; m < merges.size(); ++m) {
      const Merge& g = merges[m];
      int64_t k0 = 0, i0 = 0;
      auto emit = [&](int64_t k1, int64_t i1) {
        pieces.push_back({g.slice, g.base, g.i + i0, g.i + i1, g.j + (k0 - i0), g.j + (k1 - i1), g.k + k0});
        k0 = k1;
        i0 = i1;
      };
      for (; q < searches.size() && searches[q].merge == m; ++q) emit(searches[q].k, searches[q].lo);
      emit((g.iEnd - g.i) + (g.jEnd - g.j), g.iEnd - g.i);
    }
    return pieces;
  }

  void mergeAll(std::vector<Merge>& merges, const Permutation& perm, Permutation& next) {
    auto take = [&](Merge& m, int64_t& from) {
      next[size_t(m.slice * length_ + m.k++)] = perm[size_t(m.slice * length_ + from++)];
    };
    std::vector<Merge*> active;
    for (Merge& m : merges) active.push_back(&m);
    while (true) {
      std::vector<Merge*> running;
      std::vector<Comparison> cs;
      for (Merge* m : active) {
        if (m->i < m->iEnd && m->j < m->jEnd) {
          running.push_back(m);
          const int64_t row = m->slice * length_;  // the slice's entries in perm
          cs.push_back({m->base, perm[size_t(row + m->j)], perm[size_t(row + m->i)]});
        } else {  // one run is used up: the rest of the other follows in order
          while (m->i < m->iEnd) take(*m, m->i);
          while (m->j < m->jEnd) take(*m, m->j);
        }
      }
      if (running.empty()) break;
      std::vector<bool> rightFirst = compare(cs);
      for (size_t l = 0; l < running.size(); ++l) {
        Merge& m = *running[l];
        if (rightFirst[l]) take(m, m.j);
        else take(m, m.i);
      }
      active = std::move(running);
    }
  }

  const Operands& in_;
  const ReduceBody& less_;
  std::vector<bool> used_;
  int64_t outer_ = 1, inner_ = 1, length_ = 0;
};

}  // namespace

std::vector<Literal> sortKernel(const Op& op, const Operands& in, const ReduceBody& less, int64_t prefix) {
  const size_t n = in.size();
  if (n == 0 || op.resultTypes.size() != n) fail("expects N inputs and N results");
  for (const Literal* x : in)
    if (x->type.dims != in[0]->type.dims) fail("inputs must have one shape");
  Sorter sorter(op, in, less);
  const auto& dims = in[0]->type.dims;
  std::vector<Literal> results;
  for (size_t x = 0; x < n; ++x) {
    Literal out = uninitializedLiteral(op.resultTypes[x]);
    if (out.type.dims != dims || out.type.element != in[x]->type.element) fail("result types must match the inputs");
    results.push_back(std::move(out));
  }
  // a partial sort (RegionPlan::sortedPrefix) writes only its prefix: nothing reads past it
  if (!sortRecognised(op, in, results, sorter.outer(), sorter.length(), sorter.inner(), prefix))
    sorter.gatherInto(results, sorter.run());
  return results;
}

}  // namespace tpjrt::cpu
