// scatter. Every update element is paired with the result element it lands on (a window whose start
// puts any part of it outside the input is skipped whole, as XLA does). The update computation then
// runs in rounds: round r applies, in one lane-mode evaluation of the body, the r-th update of every
// target, so the result equals applying the updates one by one in row-major update order. Two common
// bodies of a one-input scatter take fewer rounds: "return the update" keeps only the last update of
// each target, and one order-free binary op (add, multiply, maximum, …) first combines the updates
// of each target pairwise, log2(duplicates) rounds (so float sums may round differently from a
// one-by-one order, which the spec leaves unspecified anyway).
#include <algorithm>
#include <cstring>
#include <unordered_map>

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

}  // namespace

std::vector<Literal> scatterKernel(const Op& op, const Operands& in, const ReduceBody& body) {
  const size_t n = (in.size() - 1) / 2;
  if (n == 0 || in.size() != 2 * n + 1 || op.resultTypes.size() != n) fail("expects N inputs, indices, N updates");
  const ScatterDims s = scatterDims(op);
  std::vector<Literal> results;
  for (size_t i = 0; i < n; ++i) results.push_back(*in[i]);
  std::vector<Pair> pairs = pairUp(s, *in[0], *in[n], *in[n + 1]);
  std::vector<const Literal*> sources(in.begin() + std::ptrdiff_t(n + 1), in.end());
  Literal combined;
  const BodyKind kind = n == 1 ? classify(op) : BodyKind::General;
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
