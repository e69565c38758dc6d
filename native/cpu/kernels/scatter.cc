// scatter. Every update element is paired with the result element it lands on (a window whose start
// puts any part of it outside the input is skipped whole, as XLA does). The update computation then
// runs in rounds: round r applies, in one lane-mode evaluation of the body, the r-th update of every
// target, so the result equals applying the updates one by one in row-major update order. Two common
// bodies of a one-input scatter take fewer rounds: "return the update" keeps only the last update of
// each target, and one order-free binary op (add, multiply, maximum, …) first combines the updates
// of each target pairwise, log2(duplicates) rounds (so float sums may round differently from a
// one-by-one order, which the spec leaves unspecified anyway).
//
// Fast path for those two bodies (add, multiply, maximum or minimum as the op) on one input: every
// update element's target is computed first; where the targets form whole rows of the input (the
// trailing dimensions from some dimension on: an embedding gradient or index_add), rows move as
// units, else single elements do. "Return the update" copies them in update order; an op groups the
// updates of each target row (stably, by a counting sort) and combines them with typed loops in the
// very pairing the rounds above use, splitting the target rows over the thread pool.
#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

#include "base/thread_pool.h"

#include "ir/dimension_numbers.h"
#include "kernels/index_windows.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

struct Pair {
  int64_t target;  // element of the inputs/results
  int64_t update;  // element of the updates
};

// (target, update) pairs in row-major update order, out-of-bounds windows left out.
std::vector<Pair> pairUp(const ScatterDims& s, const Literal& input, const Literal& indices, const Literal& updates) {
  const auto& dims = input.type.dims;
  const auto& updateShape = updates.type.dims;
  const size_t rank = dims.size();
  WindowStarts starts(indices, s.indexVectorDim, s.scatterDimsToOperandDims, s.inputBatchingDims,
                      s.scatterIndicesBatchingDims, rank);
  std::vector<int64_t> windowDims;  // input dimensions the update windows span, in order
  for (int64_t d = 0; d < int64_t(rank); ++d)
    if (!contains(s.insertedWindowDims, d) && !contains(s.inputBatchingDims, d)) windowDims.push_back(d);
  std::vector<int64_t> scatterDims;  // update dimensions of the batch space
  for (int64_t d = 0; d < int64_t(updateShape.size()); ++d)
    if (!contains(s.updateWindowDims, d)) scatterDims.push_back(d);
  if (windowDims.size() != s.updateWindowDims.size() || scatterDims.size() != starts.batchShape().size())
    fail("dimension numbers do not fit the inputs and updates", ErrorCode::Internal);
  std::vector<int64_t> windowSize(rank, 1);
  for (size_t k = 0; k < windowDims.size(); ++k) windowSize[size_t(windowDims[k])] = updateShape[size_t(s.updateWindowDims[k])];

  std::vector<Pair> pairs;
  const int64_t count = numElements(updates.type);
  if (count == 0) return pairs;
  const auto strides = rowMajorStrides(dims);
  std::vector<int64_t> index(updateShape.size(), 0), batch(scatterDims.size()), start;
  bool haveStart = false, valid = false;
  for (int64_t u = 0; u < count; ++u, nextIndex(index, updateShape)) {
    bool batchChanged = !haveStart;
    for (size_t k = 0; k < scatterDims.size(); ++k) {
      int64_t b = index[size_t(scatterDims[k])];
      batchChanged = batchChanged || b != batch[k];
      batch[k] = b;
    }
    if (batchChanged) {
      start = starts.start(batch);
      haveStart = true;
      valid = true;
      for (size_t d = 0; d < rank; ++d)
        valid = valid && start[d] >= 0 && start[d] <= dims[d] - windowSize[d];
    }
    if (!valid) continue;
    int64_t target = 0;
    for (size_t d = 0; d < rank; ++d) target += start[d] * strides[d];
    for (size_t k = 0; k < windowDims.size(); ++k)
      target += index[size_t(s.updateWindowDims[k])] * strides[size_t(windowDims[k])];
    pairs.push_back({target, u});
  }
  return pairs;
}

enum class BodyKind { General, Replace, OrderFree };

// Recognizes `return %update` and `return op(%current, %update)` (either order) for an order-free op.
BodyKind classify(const Op& op) {
  if (op.regions.size() != 1) return BodyKind::General;
  const Region& r = op.regions[0];
  if (r.args.size() != 2) return BodyKind::General;
  const Op& last = r.ops.back();
  if (last.operands.size() != 1) return BodyKind::General;
  if (r.ops.size() == 1 && last.operands[0] == r.args[1]) return BodyKind::Replace;
  if (r.ops.size() != 2) return BodyKind::General;
  const Op& c = r.ops[0];
  static const char* const kOrderFree[] = {"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum",
                                           "stablehlo.and", "stablehlo.or", "stablehlo.xor"};
  const bool known = std::any_of(std::begin(kOrderFree), std::end(kOrderFree), [&](const char* n) { return c.name == n; });
  const bool bothArgs = c.operands.size() == 2 && ((c.operands[0] == r.args[0] && c.operands[1] == r.args[1]) ||
                                                  (c.operands[0] == r.args[1] && c.operands[1] == r.args[0]));
  return known && bothArgs && c.results.size() == 1 && last.operands[0] == c.results[0] ? BodyKind::OrderFree : BodyKind::General;
}

Value pick(const Literal& from, const std::vector<int64_t>& at) {
  const size_t width = byteWidth(from.type.element);
  Literal out = uninitializedLiteral({from.type.element, {int64_t(at.size())}});
  uint8_t* to = out.bytes.mutableData();
  for (size_t i = 0; i < at.size(); ++i) std::memcpy(to + i * width, from.bytes.data() + size_t(at[i]) * width, width);
  return std::make_shared<const Literal>(std::move(out));
}

// The last update of each target only, in their order.
std::vector<Pair> lastPerTarget(const std::vector<Pair>& pairs) {
  std::unordered_map<int64_t, size_t> last;
  for (size_t p = 0; p < pairs.size(); ++p) last[pairs[p].target] = p;
  std::vector<Pair> out;
  for (size_t p = 0; p < pairs.size(); ++p)
    if (last[pairs[p].target] == p) out.push_back(pairs[p]);
  return out;
}

// Combines the updates of each target with the (order-free) body until one per target is left;
// returns the combined values and one pair per target pointing into them.
std::vector<Pair> combineDuplicates(const std::vector<Pair>& pairs, const Literal& updates, const ReduceBody& body, Literal& combined) {
  std::vector<int64_t> all;
  for (const Pair& p : pairs) all.push_back(p.update);
  combined = *pick(updates, all);
  const size_t width = byteWidth(combined.type.element);
  std::unordered_map<int64_t, size_t> group;  // target → index in lists
  std::vector<int64_t> targets;
  std::vector<std::vector<int64_t>> lists;  // positions in `combined`, per target
  for (size_t p = 0; p < pairs.size(); ++p) {
    auto [it, fresh] = group.try_emplace(pairs[p].target, lists.size());
    if (fresh) {
      lists.emplace_back();
      targets.push_back(pairs[p].target);
    }
    lists[it->second].push_back(int64_t(p));
  }
  while (true) {
    std::vector<int64_t> as, bs;
    for (const auto& l : lists)
      for (size_t k = 0; k + 1 < l.size(); k += 2) {
        as.push_back(l[k]);
        bs.push_back(l[k + 1]);
      }
    if (as.empty()) break;
    std::vector<Value> outs = body({pick(combined, as), pick(combined, bs)});
    if (outs.size() != 1 || !outs[0] || outs[0]->type.element != combined.type.element || numElements(outs[0]->type) != int64_t(as.size()))
      fail("update computation returned a value of the wrong type");
    for (size_t k = 0; k < as.size(); ++k)
      std::memcpy(combined.bytes.mutableData() + size_t(as[k]) * width, outs[0]->bytes.data() + k * width, width);
    for (auto& l : lists) {
      std::vector<int64_t> kept;
      for (size_t k = 0; k < l.size(); k += 2) kept.push_back(l[k]);  // a pair's result sits at its first position
      l = std::move(kept);
    }
  }
  std::vector<Pair> out;
  for (size_t g = 0; g < lists.size(); ++g) out.push_back({targets[g], lists[g][0]});
  return out;
}


// --- fast path ---------------------------------------------------------------------------------------

// The target of every update element in row-major order, -1 where its window does not fit.
IndexArray elementTargets(const ScatterDims& s, const Literal& input, const Literal& indices, const Literal& updates) {
  const auto& dims = input.type.dims;
  const auto& updateShape = updates.type.dims;
  WindowStarts starts(indices, s.indexVectorDim, s.scatterDimsToOperandDims, s.inputBatchingDims, s.scatterIndicesBatchingDims,
                      dims.size());
  std::vector<int64_t> windowDims, scatterDims;
  for (int64_t d = 0; d < int64_t(dims.size()); ++d)
    if (!contains(s.insertedWindowDims, d) && !contains(s.inputBatchingDims, d)) windowDims.push_back(d);
  for (int64_t d = 0; d < int64_t(updateShape.size()); ++d)
    if (!contains(s.updateWindowDims, d)) scatterDims.push_back(d);
  if (windowDims.size() != s.updateWindowDims.size() || scatterDims.size() != starts.batchShape().size())
    fail("dimension numbers do not fit the inputs and updates", ErrorCode::Internal);
  std::vector<int64_t> windowSize(dims.size(), 1);
  for (size_t k = 0; k < windowDims.size(); ++k) windowSize[size_t(windowDims[k])] = updateShape[size_t(s.updateWindowDims[k])];

  IndexArray offsets = starts.startOffsets(dims, windowSize, WindowStarts::OutOfBounds::Skip);
  if (s.updateWindowDims.empty()) return offsets;  // every update element is a batch point of its own
  const SpaceToOperand map(updateShape, scatterDims, s.updateWindowDims, windowDims, dims);
  const int64_t run = map.run();
  IndexArray targets(size_t(numElements(updates.type)));
  parallelRange(map.runs(), std::max<int64_t>(1, kParallelElements / run), [&](int64_t begin, int64_t end) {
    map.forRuns(begin, end, [&](int64_t r, int64_t batch, int64_t window) {
      const int64_t start = offsets[size_t(batch)];
      int64_t* to = targets.data() + r * run;
      for (int64_t e = 0; e < run; ++e) to[e] = start < 0 ? -1 : start + window + e;
    });
  });
  return targets;
}

// Whether consecutive pieces of `length` targets are each one whole row of that length (or skipped).
bool formsRows(const IndexArray& targets, int64_t length) {
  if (length <= 1 || targets.size() % size_t(length) != 0) return false;
  for (size_t j = 0; j < targets.size(); j += size_t(length)) {
    const int64_t first = targets[j];
    if (first >= 0 && first % length != 0) return false;
    for (int64_t e = 1; e < length; ++e)
      if (targets[j + size_t(e)] != (first < 0 ? -1 : first + e)) return false;
  }
  return true;
}

// The longest row (trailing dimensions of the input) whose pieces the updates land on whole; 1 if none.
int64_t rowLength(const IndexArray& targets, const std::vector<int64_t>& dims) {
  std::vector<int64_t> lengths;
  int64_t length = 1;
  for (size_t d = dims.size(); d-- > 1;) lengths.push_back(length *= dims[d]);
  for (auto it = lengths.rbegin(); it != lengths.rend(); ++it)
    if (formsRows(targets, *it)) return *it;
  return 1;
}

// The update rows (pieces of `length` update elements) that land on each target row, in update order:
// rows[first[t]] … rows[first[t + 1] - 1] for target row t.
struct RowsByTarget {
  IndexArray first, rows;
};
RowsByTarget groupByTarget(const IndexArray& targets, int64_t length, int64_t targetRows) {
  RowsByTarget g;
  g.first.assign(size_t(targetRows) + 1, 0);
  const size_t updateRows = targets.size() / size_t(length);
  for (size_t u = 0; u < updateRows; ++u)
    if (targets[u * size_t(length)] >= 0) ++g.first[size_t(targets[u * size_t(length)] / length) + 1];
  for (size_t t = 0; t < size_t(targetRows); ++t) g.first[t + 1] += g.first[t];
  IndexArray next(g.first.begin(), g.first.end() - 1);
  g.rows.resize(size_t(g.first.back()));
  for (size_t u = 0; u < updateRows; ++u)
    if (targets[u * size_t(length)] >= 0) g.rows[size_t(next[size_t(targets[u * size_t(length)] / length)]++)] = int64_t(u);
  return g;
}

// target = f(target, the updates combined pairwise level by level, an odd one carried up), as the
// rounds of the generic path pair them: a binary counter of partial rows, folded from the top at the end.
template <class S, class F>
void combineRow(S* target, const S* updates, const int64_t* rows, int64_t count, int64_t length, F f, std::vector<S>& scratch) {
  if (count == 1) {
    const S* u = updates + rows[0] * length;
    for (int64_t j = 0; j < length; ++j) target[j] = f(target[j], u[j]);
    return;
  }
  struct Partial {
    const S* data;
    int64_t size;
  };
  Partial stack[66];
  int depth = 0;
  const size_t need = size_t(std::bit_width(uint64_t(count)) + 1) * size_t(length);
  if (scratch.size() < need) scratch.resize(need);
  auto mergeTop = [&] {
    const Partial later = stack[--depth];
    Partial& earlier = stack[depth - 1];
    S* to = scratch.data() + size_t(depth - 1) * size_t(length);
    for (int64_t j = 0; j < length; ++j) to[j] = f(earlier.data[j], later.data[j]);
    earlier = {to, earlier.size + later.size};
  };
  for (int64_t i = 0; i < count; ++i) {
    stack[depth++] = {updates + rows[i] * length, 1};
    while (depth >= 2 && stack[depth - 1].size == stack[depth - 2].size) mergeTop();
  }
  while (depth > 1) mergeTop();
  for (int64_t j = 0; j < length; ++j) target[j] = f(target[j], stack[0].data[j]);
}

template <class S, class F>
void combineRows(Literal& result, const Literal& updates, const IndexArray& targets, int64_t length, F f) {
  const int64_t targetRows = numElements(result.type) / length;
  const RowsByTarget g = groupByTarget(targets, length, targetRows);
  S* out = elements<S>(result);
  const S* from = elements<S>(updates);
  parallelRange(targetRows, std::max<int64_t>(1, kParallelElements / length), [&](int64_t begin, int64_t end) {
    std::vector<S> scratch;
    for (int64_t t = begin; t < end; ++t) {
      const int64_t count = g.first[size_t(t) + 1] - g.first[size_t(t)];
      if (count > 0) combineRow(out + t * length, from, g.rows.data() + g.first[size_t(t)], count, length, f, scratch);
    }
  });
}

void replaceRows(Literal& result, const Literal& updates, const IndexArray& targets, int64_t length) {
  const size_t bytes = size_t(length) * byteWidth(result.type.element);
  uint8_t* out = result.bytes.mutableData();
  const uint8_t* from = updates.bytes.data();
  for (size_t u = 0; u < targets.size(); u += size_t(length))
    if (targets[u] >= 0) std::memcpy(out + size_t(targets[u]) * byteWidth(result.type.element), from + u * byteWidth(result.type.element), bytes);
}

enum class Combiner { None, Add, Multiply, Maximum, Minimum };

Combiner combinerOf(const Op& op) {
  const std::string& name = op.regions[0].ops[0].name;
  if (name == "stablehlo.add") return Combiner::Add;
  if (name == "stablehlo.multiply") return Combiner::Multiply;
  if (name == "stablehlo.maximum") return Combiner::Maximum;
  if (name == "stablehlo.minimum") return Combiner::Minimum;
  return Combiner::None;
}

// Calls fn with S's combine function for `c`, computed as the element-wise kernels compute it; false
// for types without one here (pred, the narrow types).
template <class S, class Fn>
bool withCombine(Combiner c, Fn&& fn) {
  if constexpr (kIsFloat<S>) {
    using N = Num<S>;
    switch (c) {
      case Combiner::Add: fn([](S a, S b) { return N::store(N::load(a) + N::load(b)); }); return true;
      case Combiner::Multiply: fn([](S a, S b) { return N::store(N::load(a) * N::load(b)); }); return true;
      case Combiner::Maximum: fn([](S a, S b) { return N::store(maxValue(N::load(a), N::load(b))); }); return true;
      case Combiner::Minimum: fn([](S a, S b) { return N::store(minValue(N::load(a), N::load(b))); }); return true;
      default: return false;
    }
  } else if constexpr (kIsInt<S>) {
    using W = Wide<S>;
    switch (c) {
      case Combiner::Add: fn([](S a, S b) { return S(W(a) + W(b)); }); return true;
      case Combiner::Multiply: fn([](S a, S b) { return S(W(a) * W(b)); }); return true;
      case Combiner::Maximum: fn([](S a, S b) { return maxValue(a, b); }); return true;
      case Combiner::Minimum: fn([](S a, S b) { return minValue(a, b); }); return true;
      default: return false;
    }
  }
  return false;
}

bool hasTypedCombine(ElementType t, Combiner c) {
  using E = ElementType;
  static const E kTyped[] = {E::S8, E::S16, E::S32, E::S64, E::U8, E::U16, E::U32, E::U64, E::F16, E::BF16, E::F32, E::F64};
  if (std::find(std::begin(kTyped), std::end(kTyped), t) == std::end(kTyped)) return false;
  return dispatchType(t, [&](auto tag) { return withCombine<decltype(tag)>(c, [](auto) {}); });
}

// Runs a one-input scatter whose body is "return the update" or one typed op; false when it is not such a scatter.
bool scatterFast(const Op& op, const Operands& in, BodyKind kind, Literal& result) {
  if (kind == BodyKind::General || !indexFastPaths()) return false;
  const Combiner c = kind == BodyKind::OrderFree ? combinerOf(op) : Combiner::None;
  if (kind == BodyKind::OrderFree && !hasTypedCombine(result.type.element, c)) return false;
  const Literal& updates = *in[2];
  if (numElements(updates.type) == 0) return true;
  const IndexArray targets = elementTargets(scatterDims(op), *in[0], *in[1], updates);
  const int64_t length = rowLength(targets, result.type.dims);
  if (kind == BodyKind::Replace) {
    replaceRows(result, updates, targets, length);
    return true;
  }
  dispatchType(result.type.element, [&](auto tag) {
    using S = decltype(tag);
    withCombine<S>(c, [&](auto f) { combineRows<S>(result, updates, targets, length, f); });
  });
  return true;
}

}  // namespace

std::vector<Literal> scatterKernel(const Op& op, const Operands& in, const ReduceBody& body) {
  const size_t n = (in.size() - 1) / 2;
  if (n == 0 || in.size() != 2 * n + 1 || op.resultTypes.size() != n) fail("expects N inputs, indices, N updates");
  const ScatterDims s = scatterDims(op);
  std::vector<Literal> results;
  for (size_t i = 0; i < n; ++i) results.push_back(*in[i]);
  const BodyKind kind = n == 1 ? classify(op) : BodyKind::General;
  if (scatterFast(op, in, kind, results[0])) {
    results[0].type = op.resultTypes[0];
    return results;
  }
  std::vector<Pair> pairs = pairUp(s, *in[0], *in[n], *in[n + 1]);
  std::vector<const Literal*> sources(in.begin() + std::ptrdiff_t(n + 1), in.end());
  Literal combined;
  if (kind == BodyKind::Replace) pairs = lastPerTarget(pairs);
  if (kind == BodyKind::OrderFree) {
    pairs = combineDuplicates(pairs, *in[2], body, combined);
    sources = {&combined};
  }

  std::unordered_map<int64_t, size_t> seen;  // target → updates applied so far
  std::vector<std::vector<size_t>> rounds;
  for (size_t p = 0; p < pairs.size(); ++p) {
    size_t r = seen[pairs[p].target]++;
    if (r == rounds.size()) rounds.emplace_back();
    rounds[r].push_back(p);
  }
  for (const auto& round : rounds) {
    std::vector<int64_t> targets, updates;
    for (size_t p : round) {
      targets.push_back(pairs[p].target);
      updates.push_back(pairs[p].update);
    }
    std::vector<Value> args;
    for (size_t i = 0; i < n; ++i) args.push_back(pick(results[i], targets));
    for (size_t i = 0; i < n; ++i) args.push_back(pick(*sources[i], updates));
    std::vector<Value> outs = body(args);
    if (outs.size() != n) fail("update computation returned the wrong number of values");
    for (size_t i = 0; i < n; ++i) {
      const size_t width = byteWidth(results[i].type.element);
      if (!outs[i] || outs[i]->type.element != results[i].type.element || numElements(outs[i]->type) != int64_t(targets.size()))
        fail("update computation returned a value of the wrong type");
      for (size_t k = 0; k < targets.size(); ++k)
        std::memcpy(results[i].bytes.mutableData() + size_t(targets[k]) * width, outs[i]->bytes.data() + k * width, width);
    }
  }
  for (size_t i = 0; i < n; ++i) results[i].type = op.resultTypes[i];
  return results;
}

}  // namespace tpjrt::cpu
