// scatter. Every update element is paired with the result element it lands on (a window whose start
// puts any part of it outside the input is skipped whole, as XLA does), and the updates apply one by
// one in row-major update order, as XLA's CPU backend and PyTorch apply them: the update computation
// runs in rounds, round r applying, in one lane-mode evaluation of the body, the r-th update of every
// target. A body that returns the update keeps the last update of each target, in one round.
//
// Fast path for a one-input scatter whose body returns the update or is one op (add, multiply,
// maximum, minimum, and, or, xor: kernels/one_op_body.h) of a type with typed loops: the start of
// every run of updates that lands on consecutive targets is computed first (whole rows of the input's
// trailing dimensions for an embedding gradient or index_add, single elements for a scatter along a
// dimension), then the runs apply in update order: whole rows split into column pieces over the
// thread pool; otherwise blocks of updates run in parallel when their targets do not overlap, else on
// one thread. torch.scatter's form with batching dimensions (AlongDim) applies each update straight
// from its index, blocks of batching coordinates in parallel.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "base/thread_pool.h"

#include "ir/dimension_numbers.h"
#include "kernels/index_windows.h"
#include "kernels/kernels.h"
#include "kernels/one_op_body.h"

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

// Whether the body is `return %update`.
bool returnsUpdate(const Op& op) {
  if (op.regions.size() != 1) return false;
  const Region& r = op.regions[0];
  return r.args.size() == 2 && r.ops.size() == 1 && r.ops[0].operands.size() == 1 && r.ops[0].operands[0] == r.args[1];
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

// --- fast path ---------------------------------------------------------------------------------------

// Where the updates land, in row-major update order: pieces of `length` consecutive update elements,
// piece p on the targets [start[p], start[p] + length) (start -1: its window does not fit). With
// `rows`, every piece is one whole row of the input's trailing dimensions, so two pieces either
// coincide or do not overlap.
struct Pieces {
  IndexArray start;
  int64_t length = 1;
  bool rows = false;
};

// The longest row of the input's trailing dimensions that divides `run` and starts every piece.
int64_t alignedRow(const IndexArray& starts, int64_t run, const std::vector<int64_t>& dims) {
  std::vector<int64_t> lengths;
  int64_t length = 1;
  for (size_t d = dims.size(); d-- > 1;) lengths.push_back(length *= dims[d]);
  for (auto it = lengths.rbegin(); it != lengths.rend(); ++it)
    if (run % *it == 0 && std::all_of(starts.begin(), starts.end(), [&](int64_t t) { return t < 0 || t % *it == 0; })) return *it;
  return 0;
}

Pieces piecesOf(const ScatterDims& s, const Literal& input, const Literal& indices, const Literal& updates) {
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

  Pieces pieces;
  IndexArray offsets = starts.startOffsets(dims, windowSize, WindowStarts::OutOfBounds::Skip);
  if (s.updateWindowDims.empty()) {  // every update element is a batch point of its own
    pieces.start = std::move(offsets);
    return pieces;
  }
  const SpaceToOperand map(updateShape, scatterDims, s.updateWindowDims, windowDims, dims);
  IndexArray runs(size_t(map.runs()));
  parallelRange(map.runs(), std::max<int64_t>(1, kParallelElements / map.run()), [&](int64_t begin, int64_t end) {
    map.forRuns(begin, end, [&](int64_t r, int64_t batch, int64_t window) {
      const int64_t start = offsets[size_t(batch)];
      runs[size_t(r)] = start < 0 ? -1 : start + window;
    });
  });
  const int64_t row = alignedRow(runs, map.run(), dims);
  pieces.rows = row > 1;
  pieces.length = row > 1 ? row : map.run();
  const int64_t split = map.run() / pieces.length;  // pieces per run
  if (split == 1) {
    pieces.start = std::move(runs);
    return pieces;
  }
  pieces.start.resize(runs.size() * size_t(split));
  for (size_t r = 0; r < runs.size(); ++r)
    for (int64_t k = 0; k < split; ++k) pieces.start[r * size_t(split) + size_t(k)] = runs[r] < 0 ? -1 : runs[r] + k * pieces.length;
  return pieces;
}

// Whether blocks of `blockPieces` pieces (of `length` updates each) land on target spans that do not
// overlap, so that the blocks can run in parallel and each target still sees its updates in order.
bool blocksAreDisjoint(const IndexArray& starts, int64_t length, int64_t blockPieces) {
  const int64_t pieces = int64_t(starts.size());
  const int64_t blocks = (pieces + blockPieces - 1) / blockPieces;
  std::vector<std::pair<int64_t, int64_t>> spans(size_t(blocks), {INT64_MAX, -1});  // first and last target
  parallelRange(blocks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      int64_t first = INT64_MAX, last = -1;
      for (int64_t p = b * blockPieces; p < std::min(pieces, (b + 1) * blockPieces); ++p) {
        const int64_t t = starts[size_t(p)];
        first = std::min(first, t < 0 ? INT64_MAX : t);
        last = std::max(last, t);
      }
      spans[size_t(b)] = {first, last < 0 ? -1 : last + length - 1};
    }
  });
  std::erase_if(spans, [](const auto& span) { return span.second < 0; });
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i)
    if (spans[i].first <= spans[i - 1].second) return false;
  return true;
}

// Applies the updates in row-major update order, target = f(target, update). `slice` pieces are one
// index of the updates' first dimension, the unit blocks of updates are made of.
template <class S, class F>
void applyInOrder(Literal& result, const Literal& updates, const Pieces& at, int64_t slice, F f) {
  S* out = elements<S>(result);
  const S* from = elements<S>(updates);
  const int64_t pieces = int64_t(at.start.size()), length = at.length;
  auto apply = [&](int64_t firstPiece, int64_t endPiece, int64_t firstColumn, int64_t endColumn) {
    for (int64_t p = firstPiece; p < endPiece; ++p) {
      const int64_t t = at.start[size_t(p)];
      if (t < 0) continue;
      S* to = out + t;
      const S* u = from + p * length;
      for (int64_t c = firstColumn; c < endColumn; ++c) to[c] = f(to[c], u[c]);
    }
  };
  constexpr int64_t kMinColumns = 64;
  if (at.rows && length >= 2 * kMinColumns) {  // columns of whole rows never meet
    parallelRange(length, std::max(kMinColumns, kParallelElements / std::max<int64_t>(1, pieces)),
                  [&](int64_t c0, int64_t c1) { apply(0, pieces, c0, c1); });
    return;
  }
  const int64_t perBlock = std::max<int64_t>(1, kParallelElements / (length * slice)) * slice;
  if (pieces <= perBlock || !blocksAreDisjoint(at.start, length, perBlock)) {
    apply(0, pieces, 0, length);
    return;
  }
  parallelRange((pieces + perBlock - 1) / perBlock, 1, [&](int64_t b0, int64_t b1) {
    apply(b0 * perBlock, std::min(pieces, b1 * perBlock), 0, length);
  });
}

// torch.scatter's form (AlongDim): update [o, m, i] applies to result [o, index[o, m, i], i], skipped
// when the index is out of range. Targets of different (o, i) never meet, so blocks of those run in
// parallel, each taking its updates in m order (the row-major order within a target).
template <class S, class F>
void applyAlong(Literal& result, const Literal& updates, const Literal& indices, const AlongDim& a, F f) {
  S* out = elements<S>(result);
  const S* from = elements<S>(updates);
  withTypedIndices(indices, [&](const auto* index) {
    const int64_t inner = a.inner, size = a.size;
    parallelRange(a.outer * inner, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(1, a.count)),
                  [&](int64_t begin, int64_t end) {
                    for (int64_t p = begin; p < end;) {
                      const int64_t o = p / inner, i0 = p % inner, i1 = std::min(inner, i0 + (end - p));
                      S* to = out + o * size * inner;
                      const S* u = from + o * a.count * inner;
                      const auto* ix = index + o * a.count * inner;
                      for (int64_t m = 0; m < a.count; ++m, u += inner, ix += inner)
                        for (int64_t i = i0; i < i1; ++i) {
                          const int64_t t = ix[i];
                          if (t >= 0 && t < size) to[t * inner + i] = f(to[t * inner + i], u[i]);
                        }
                      p += i1 - i0;
                    }
                  });
  });
}

// Runs a one-input scatter whose body returns the update or is one op of a type with typed loops;
// false when it is not such a scatter.
bool scatterFast(const Op& op, const ScatterDims& s, const Literal& indices, const Literal& updates, Literal& result) {
  if (!indexFastPaths()) return false;
  const bool replace = returnsUpdate(op);
  const std::optional<BinaryOp> kind = replace ? std::nullopt : oneOpBody(op);
  const ElementType type = result.type.element;
  if (!replace && !(kind && hasTypedLoop(type))) return false;
  const int64_t count = numElements(updates.type);
  if (count == 0) return true;
  const std::optional<AlongDim> along =
      s.updateWindowDims.empty() ? alongDim(result.type.dims, indices, s.indexVectorDim, s.scatterDimsToOperandDims,
                                            s.insertedWindowDims, s.inputBatchingDims, s.scatterIndicesBatchingDims)
                                 : std::nullopt;
  std::optional<Pieces> at;
  if (!along) at = piecesOf(s, result, indices, updates);
  const int64_t slice = along || updates.type.dims.empty() ? 1 : std::max<int64_t>(1, count / updates.type.dims[0] / at->length);
  auto apply = [&](auto tag, auto f) {
    using S = decltype(tag);
    if (along) applyAlong<S>(result, updates, indices, *along, f);
    else applyInOrder<S>(result, updates, *at, slice, f);
  };
  if (replace)
    return withStorageWidth(byteWidth(type), [&](auto tag) {
      using U = decltype(tag);
      apply(tag, [](U, U update) { return update; });
    });
  dispatchType(type, [&](auto tag) {
    using S = decltype(tag);
    if constexpr (kIsFloat<S> || kIsInt<S>)
      withBinaryOp(*kind, [&](auto k) {
        apply(tag, [](S a, S b) { return Num<S>::store(combine<decltype(k)::value>(Num<S>::load(a), Num<S>::load(b))); });
      });
  });
  return true;
}

}  // namespace

std::vector<Literal> scatterKernel(const Op& op, std::vector<Literal> inputs, const Literal& indices,
                                   const Operands& updates, const ReduceBody& body) {
  const size_t n = inputs.size();
  if (n == 0 || updates.size() != n || op.resultTypes.size() != n) fail("expects N inputs, indices, N updates");
  const ScatterDims s = scatterDims(op);
  std::vector<Literal> results = std::move(inputs);
  if (n == 1 && scatterFast(op, s, indices, *updates[0], results[0])) {
    results[0].type = op.resultTypes[0];
    return results;
  }
  std::vector<Pair> pairs = pairUp(s, results[0], indices, *updates[0]);
  if (n == 1 && returnsUpdate(op)) pairs = lastPerTarget(pairs);

  std::unordered_map<int64_t, size_t> seen;  // target → updates applied so far
  std::vector<std::vector<size_t>> rounds;
  for (size_t p = 0; p < pairs.size(); ++p) {
    size_t r = seen[pairs[p].target]++;
    if (r == rounds.size()) rounds.emplace_back();
    rounds[r].push_back(p);
  }
  for (const auto& round : rounds) {
    std::vector<int64_t> targets, updateAt;
    for (size_t p : round) {
      targets.push_back(pairs[p].target);
      updateAt.push_back(pairs[p].update);
    }
    std::vector<Value> args;
    for (size_t i = 0; i < n; ++i) args.push_back(pick(results[i], targets));
    for (size_t i = 0; i < n; ++i) args.push_back(pick(*updates[i], updateAt));
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
