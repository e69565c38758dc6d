// reduce. A body that is one commutative binary op (add, multiply, maximum, minimum, and, or, xor) on
// one input runs as a typed, vectorisable loop: over contiguous rows when the reduced dimensions are
// innermost, else over columns of the input in place (see columnPlan). Any other body is evaluated by the interpreter over whole vectors of
// output lanes at a time: step k feeds the k-th reduced slice of every input to all lanes at once —
// except the argmax/argmin body, which has a typed loop of its own (kernels/reduce_arg.cc).
#include <algorithm>
#include <memory>
#include <optional>

#include "base/thread_pool.h"
#include "kernels/isa_loops.h"
#include "kernels/one_op_body.h"
#include "kernels/reduce_arg.h"

namespace tpjrt::cpu {

namespace {

// Folds one contiguous row of k elements into `init`. Types computed in their storage type use kLanes
// independent accumulators combined at the end, so that the loop vectorises (float sums then add in a
// different order than a left fold, as XLA's vectorised reductions do).
template <class S, BinaryOp kOp>
TPJRT_LOOP_BODY S foldRow(const S* row, S init, int64_t k) {
  using C = ComputeOf<S>;
  C acc = Num<S>::load(init);
  int64_t r = 0;
  if constexpr (std::is_same_v<C, S>) {
    constexpr int64_t kLanes = 64 / sizeof(S);  // two AVX2 vectors: two chains of adds in flight
    if (k >= 2 * kLanes) {
      C lanes[kLanes];
      for (int64_t l = 0; l < kLanes; ++l) lanes[l] = row[l];
      for (r = kLanes; r + kLanes <= k; r += kLanes)
#pragma GCC unroll 1  // left as a loop, the lanes are vectorised (with selects for maximum and minimum)
        for (int64_t l = 0; l < kLanes; ++l) lanes[l] = combine<kOp>(lanes[l], row[r + l]);
      for (int64_t width = kLanes / 2; width > 0; width /= 2)
        for (int64_t l = 0; l < width; ++l) lanes[l] = combine<kOp>(lanes[l], lanes[l + width]);
      acc = combine<kOp>(acc, lanes[0]);
    }
  }
  for (; r < k; ++r) acc = combineRounded<S, kOp>(acc, Num<S>::load(row[r]));
  return Num<S>::store(acc);
}

template <class S, BinaryOp kOp>
TPJRT_LOOP_BODY void foldRowRange(const S* x, S init, int64_t k, S* out, int64_t begin, int64_t end) {
  for (int64_t j = begin; j < end; ++j) out[j] = foldRow<S, kOp>(x + j * k, init, k);
}

// The reduction of a single-op body, over an input seen as groups of dimensions that are all kept or
// all reduced (neighbours of one kind merged). When the last group is kept, the outputs of one run of
// it are accumulated together: each reduced index in row-major order (the generic path's order per
// output) adds a contiguous run of the input, which is read in place.
struct FoldShape {
  int64_t runLength = 1;                 // the last kept group's size (1: the last group is reduced)
  std::vector<int64_t> keptStarts;       // input offset of each output run, in output order
  std::vector<int64_t> reducedOffsets;   // offset of each reduced index, row-major
};

// Fewer runs than this are split into pieces of columns (a bias gradient folds one long run), each
// of at least kColumnPiece elements, so that the pool shares them; every column still folds its rows
// in order, so the results are the same.
inline constexpr int64_t kFewRuns = 8;
inline constexpr int64_t kColumnPiece = 128;

// Folds one row of n elements into the column accumulators acc.
template <class S, BinaryOp kOp>
TPJRT_LOOP_BODY void foldIntoColumns(ComputeOf<S>* acc, const S* row, int64_t n) {
  for (int64_t j = 0; j < n; ++j) acc[j] = combineRounded<S, kOp>(acc[j], Num<S>::load(row[j]));
}

template <class S, BinaryOp kOp>
void foldColumns(const S* x, S init, const FoldShape& f, S* out) {
  using C = ComputeOf<S>;
  const auto fold = isaVersion<&foldIntoColumns<S, kOp>>();
  // Otherwise runs go to the pool whole: reading only part of each input row defeats the hardware prefetcher.
  const int64_t run = f.runLength, runs = int64_t(f.keptStarts.size());
  const int64_t pieces = runs < kFewRuns ? std::max<int64_t>(1, run / kColumnPiece) : 1;
  const int64_t width = (run + pieces - 1) / pieces;
  const int64_t perPiece = std::max<int64_t>(1, width * int64_t(f.reducedOffsets.size()));
  parallelRange(runs * pieces, std::max<int64_t>(1, kParallelElements / perPiece), [&](int64_t begin, int64_t end) {
    const ScratchBlock buffer(size_t(width) * sizeof(C));
    C* acc = buffer.as<C>();
    for (int64_t unit = begin; unit < end; ++unit) {
      const int64_t lane = unit / pieces, first = unit % pieces * width, n = std::min(width, run - first);
      std::fill_n(acc, n, Num<S>::load(init));
      const S* base = x + f.keptStarts[size_t(lane)] + first;
      for (int64_t r : f.reducedOffsets) fold(acc, base + r, n);
      S* o = out + lane * run + first;
      for (int64_t j = 0; j < n; ++j) o[j] = Num<S>::store(acc[j]);
    }
  });
}

// Rows at least this long, when there are few of them, are folded in pieces of this many elements
// (each piece from its own first element, the pieces then combined in order), so that a full reduction
// uses the pool too. The pieces depend only on k, so results do not depend on the thread count.
inline constexpr int64_t kRowPiece = kParallelElements;
inline constexpr int64_t kFewRows = 8;

template <class S, BinaryOp kOp>
void foldRows(const S* x, S init, int64_t n, int64_t k, S* out) {
  if (n < kFewRows && k >= 2 * kRowPiece) {
    const int64_t pieces = (k + kRowPiece - 1) / kRowPiece;
    std::vector<S> partial(size_t(n * pieces));
    parallelRange(n * pieces, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const int64_t begin = i % pieces * kRowPiece, length = std::min(kRowPiece, k - begin);
        const S* piece = x + i / pieces * k + begin;
        partial[size_t(i)] = i % pieces == 0 ? foldRow<S, kOp>(piece, init, length) : foldRow<S, kOp>(piece + 1, piece[0], length - 1);
      }
    });
    for (int64_t j = 0; j < n; ++j) {
      auto acc = Num<S>::load(partial[size_t(j * pieces)]);
      for (int64_t p = 1; p < pieces; ++p)
        acc = combineRounded<S, kOp>(acc, Num<S>::load(partial[size_t(j * pieces + p)]));
      out[j] = Num<S>::store(acc);
    }
    return;
  }
  const auto rows = isaVersion<&foldRowRange<S, kOp>>();
  parallelRange(n, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(k, 1)),
                [&](int64_t b, int64_t e) { rows(x, init, k, out, b, e); });
}

// With columns.runLength > 1 the input is folded in place by columns; otherwise x is [n, k] (n rows of
// k reduced elements each).
template <class S, BinaryOp kOp>
void foldTyped(const S* x, S init, const FoldShape& columns, int64_t n, int64_t k, S* out) {
  if (columns.runLength > 1) foldColumns<S, kOp>(x, init, columns, out);
  else foldRows<S, kOp>(x, init, n, k, out);
}

// All offsets index · strides over the row-major space `dims`.
std::vector<int64_t> offsetsOf(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
  std::vector<int64_t> out{0};
  for (size_t d = 0; d < dims.size(); ++d) {
    std::vector<int64_t> next;
    next.reserve(out.size() * size_t(dims[d]));
    for (int64_t base : out)
      for (int64_t i = 0; i < dims[d]; ++i) next.push_back(base + i * strides[d]);
    out = std::move(next);
  }
  return out;
}

// The column plan for `shape` reduced over `reduced`, or runLength 1 when the rows path fits better:
// the last non-trivial dimension is reduced, or the last kept run is short and other kept dimensions
// lie before it (a transpose to rows then costs less than many short runs).
FoldShape columnPlan(const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  constexpr int64_t kMinRun = 16;
  std::vector<int64_t> dims, strides;
  std::vector<bool> kinds;
  const auto all = rowMajorStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!dims.empty() && kinds.back() == reduced[d]) {
      dims.back() *= shape[d];
      strides.back() = all[d];
      continue;
    }
    dims.push_back(shape[d]);
    strides.push_back(all[d]);
    kinds.push_back(reduced[d]);
  }
  FoldShape f;
  if (dims.empty() || kinds.back()) return f;
  std::vector<int64_t> keptDims, keptStrides, reducedDims, reducedStrides;
  for (size_t g = 0; g + 1 < dims.size(); ++g) {
    (kinds[g] ? reducedDims : keptDims).push_back(dims[g]);
    (kinds[g] ? reducedStrides : keptStrides).push_back(strides[g]);
  }
  if (reducedDims.empty() || (dims.back() < kMinRun && !keptDims.empty())) return f;
  f.runLength = dims.back();
  f.keptStarts = offsetsOf(keptDims, keptStrides);
  f.reducedOffsets = offsetsOf(reducedDims, reducedStrides);
  return f;
}

Value lanesOf(const Literal& x, int64_t firstElement, int64_t count) {
  const size_t width = byteWidth(x.type.element);
  Literal out = makeLiteral({x.type.element, {count}});
  std::memcpy(out.bytes.mutableData(), x.bytes.data() + size_t(firstElement) * width, size_t(count) * width);
  return std::make_shared<const Literal>(std::move(out));
}

// Runs the body once over `count` lanes; `slices[i]` supplies input i's values starting at `first`.
void step(const ReduceBody& body, std::vector<Value>& accs, const std::vector<const Literal*>& slices, int64_t first,
          int64_t count) {
  std::vector<Value> args = accs;
  for (const Literal* s : slices) args.push_back(lanesOf(*s, first, count));
  auto outs = body(args);
  if (outs.size() != accs.size()) fail("reduce body returned the wrong number of values");
  for (size_t i = 0; i < outs.size(); ++i)
    if (!outs[i] || outs[i]->type.element != accs[i]->type.element || numElements(outs[i]->type) != count)
      fail("reduce body returned a value of the wrong type");
  accs = std::move(outs);
}

}  // namespace

std::vector<Literal> reduceKernel(const Op& op, const Operands& in, const ReduceBody& body) {
  const size_t n = in.size() / 2;
  if (n == 0 || in.size() != 2 * n || op.resultTypes.size() != n) fail("expects N inputs, N init values, N results");
  const auto& shape = in[0]->type.dims;
  for (size_t i = 0; i < n; ++i) {
    if (in[i]->type.dims != shape) fail("inputs must have one shape");
    if (numElements(in[n + i]->type) != 1 || in[n + i]->type.element != in[i]->type.element ||
        op.resultTypes[i].element != in[i]->type.element)
      fail("init values must be scalars of the input element types");
  }
  std::vector<bool> reduced(shape.size());
  std::vector<int64_t> reducedDims, keptDims;
  for (int64_t d : i64ArrayAttr(op, "dimensions")) {
    if (d < 0 || size_t(d) >= shape.size() || reduced[size_t(d)]) fail("dimensions out of range or repeated");
    reduced[size_t(d)] = true;
  }
  int64_t lanes = 1, depth = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    (reduced[d] ? reducedDims : keptDims).push_back(int64_t(d));
    (reduced[d] ? depth : lanes) *= shape[d];
  }
  for (size_t i = 0; i < n; ++i)
    if (numElements(op.resultTypes[i]) != lanes) fail("result shape does not match the kept dimensions");
  if (reducedDims.size() == 1)
    if (auto found = argReduce(op, in, reducedDims[0])) return std::move(*found);

  auto lanesFirst = reducedDims;
  lanesFirst.insert(lanesFirst.end(), keptDims.begin(), keptDims.end());
  const bool lanesLayoutIsFree = std::is_sorted(lanesFirst.begin(), lanesFirst.end());

  if (auto kind = oneOpBody(op); kind && n == 1) {
    Literal out = makeLiteral(op.resultTypes[0]);
    const FoldShape columns = lanes * depth == 0 ? FoldShape{} : columnPlan(shape, reduced);
    std::optional<Literal> permuted;
    if (columns.runLength == 1) {
      auto rowsFirst = keptDims;
      rowsFirst.insert(rowsFirst.end(), reducedDims.begin(), reducedDims.end());
      if (!std::is_sorted(rowsFirst.begin(), rowsFirst.end())) permuted = transposeLiteral(*in[0], rowsFirst);
    }
    const Literal& x = permuted ? *permuted : *in[0];
    dispatchType(x.type.element, [&](auto tag) {
      using S = decltype(tag);
      withBinaryOp(*kind, [&](auto k) {
        foldTyped<S, decltype(k)::value>(elements<S>(x), elements<S>(*in[1])[0], columns, lanes, depth, elements<S>(out));
      });
    });
    std::vector<Literal> results;
    results.push_back(std::move(out));
    return results;
  }

  std::vector<Literal> permuted;
  std::vector<const Literal*> inputs;
  for (size_t i = 0; i < n; ++i) {
    if (lanesLayoutIsFree) {
      inputs.push_back(in[i]);
    } else {
      permuted.push_back(transposeLiteral(*in[i], lanesFirst));
    }
  }
  if (!lanesLayoutIsFree)
    for (const Literal& p : permuted) inputs.push_back(&p);

  auto initAccs = [&](int64_t count) {
    std::vector<Value> accs;
    for (size_t i = 0; i < n; ++i) accs.push_back(std::make_shared<const Literal>(splatLiteral(*in[n + i], count)));
    return accs;
  };
  std::vector<Value> accs = initAccs(lanes);
  if (lanes > 0) {
    // Few lanes and a long reduction: first reduce `group` interleaved partial results per lane, then
    // combine them, so that the body runs ~depth/group + group times instead of depth times.
    constexpr int64_t kTargetLanes = 4096;
    const int64_t group = std::max<int64_t>(1, kTargetLanes / lanes);
    int64_t next = 0;
    if (group > 1 && depth >= 4 * group) {
      std::vector<Value> wide = initAccs(lanes * group);
      for (; next + group <= depth; next += group) step(body, wide, inputs, next * lanes, lanes * group);
      std::vector<const Literal*> partials;
      for (const Value& w : wide) partials.push_back(w.get());
      for (int64_t g = 0; g < group; ++g) step(body, accs, partials, g * lanes, lanes);
    }
    for (; next < depth; ++next) step(body, accs, inputs, next * lanes, lanes);
  }

  std::vector<Literal> results;
  for (size_t i = 0; i < n; ++i) results.push_back(Literal{op.resultTypes[i], accs[i]->bytes});
  return results;
}

}  // namespace tpjrt::cpu
