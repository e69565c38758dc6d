// reduce_window and select_and_scatter. Both evaluate their regions over vectors of lanes, like reduce:
// reduce_window runs its body once per window offset over all output elements at once (lanes that
// fall on padding read the init value); select_and_scatter runs select once per window offset over
// all source elements, then scatter in rounds over the operand elements that were selected.
// A reduce_window of one input whose body is one add, multiply, maximum or minimum of its two
// arguments (kernels/one_op_body.h) runs as typed loops instead, in the same order per output element (typed scans for prefix
// windows, typed windows otherwise), and so does a prefix window with cummax's (values, indices) body.
#include <algorithm>
#include <optional>

#include "base/thread_pool.h"
#include "ir/window_geometry.h"
#include "kernels/isa_loops.h"
#include "kernels/kernels.h"
#include "kernels/one_op_body.h"
#include "kernels/reduce_arg.h"

namespace tpjrt::cpu {

namespace {

// `count` lanes of x's elements at `sources` (-1 reads `fill`, a 0-d literal).
Value gather(const Literal& x, const std::vector<int64_t>& sources, const Literal& fill) {
  const size_t width = byteWidth(x.type.element);
  Literal out = uninitializedLiteral({x.type.element, {int64_t(sources.size())}});
  uint8_t* to = out.bytes.mutableData();
  for (size_t j = 0; j < sources.size(); ++j) {
    const uint8_t* from = sources[j] < 0 ? fill.bytes.data() : x.bytes.data() + size_t(sources[j]) * width;
    std::memcpy(to + j * width, from, width);
  }
  return std::make_shared<const Literal>(std::move(out));
}

void checkLanes(const std::vector<Value>& outs, const std::vector<ElementType>& types, int64_t count, const char* what) {
  if (outs.size() != types.size()) fail(std::string(what) + " returned the wrong number of values");
  for (size_t i = 0; i < outs.size(); ++i)
    if (!outs[i] || outs[i]->type.element != types[i] || numElements(outs[i]->type) != count)
      fail(std::string(what) + " returned a value of the wrong type");
}

// --- typed loops for single-op bodies ----------------------------------------------------------

// The op of a one-input body of add, multiply, maximum or minimum when the element type has typed
// loops; empty for any other body.
std::optional<BinaryOp> typedCombiner(const Op& op, const Operands& in) {
  if (in.size() != 2 || !hasTypedLoop(in[0]->type.element)) return std::nullopt;
  const auto kind = oneOpBody(op);
  return kind && !isBitwise(*kind) ? kind : std::nullopt;
}

// The scan of x seen as [outer, len, inner] along its middle dimension, for outer indices [begin, end):
// out[o, j, i] = body(out[o, j - 1, i], x[o, j, i]), starting from init.
// With inner 1, each row is a chain of dependent steps: kChains rows take turns, kBlock elements at a
// time, so that the chains of neighbouring rows overlap in the CPU without all the rows' cache lines
// (4 KiB apart for rows of 1024 floats: one cache set) being live at once.
inline constexpr int64_t kChains = 8;
inline constexpr int64_t kBlock = 16;

template <class S, BinaryOp kOp>
TPJRT_LOOP_BODY void scanRows(const S* x, S* out, S init, int64_t len, int64_t begin, int64_t end) {
  using C = ComputeOf<S>;
  for (int64_t r = begin; r < end; r += kChains) {
    const int64_t rows = std::min(kChains, end - r);
    C acc[kChains];
    for (int64_t c = 0; c < kChains; ++c) acc[c] = Num<S>::load(init);
    for (int64_t j0 = 0; j0 < len; j0 += kBlock) {
      const int64_t j1 = std::min(len, j0 + kBlock);
      for (int64_t c = 0; c < rows; ++c) {
        const S* in = x + (r + c) * len;
        S* o = out + (r + c) * len;
        C a = acc[c];
        for (int64_t j = j0; j < j1; ++j) {
          a = combineRounded<S, kOp>(a, Num<S>::load(in[j]));
          o[j] = Num<S>::store(a);
        }
        acc[c] = a;
      }
    }
  }
}

// Columns [first, first + width) of one outer index (x and out point at its [len, inner] block).
template <class S, BinaryOp kOp>
TPJRT_LOOP_BODY void scanColumns(const S* x, S* out, S init, int64_t len, int64_t inner, int64_t first, int64_t width) {
  for (int64_t i = first; i < first + width; ++i) out[i] = Num<S>::store(combineRounded<S, kOp>(Num<S>::load(init), Num<S>::load(x[i])));
  for (int64_t j = 1; j < len; ++j) {
    const S* in = x + j * inner;
    const S* prev = out + (j - 1) * inner;
    S* o = out + j * inner;
    for (int64_t i = first; i < first + width; ++i) o[i] = Num<S>::store(combineRounded<S, kOp>(Num<S>::load(prev[i]), Num<S>::load(in[i])));
  }
}

// Few outer indices with long inner runs are split into pieces of at least kColumnPiece columns.
inline constexpr int64_t kColumnPiece = 256;

template <class S, BinaryOp kOp>
void typedScan(const S* x, S* out, S init, int64_t outer, int64_t len, int64_t inner) {
  const int64_t perOuter = std::max<int64_t>(1, len * inner);
  if (inner == 1) {
    const auto rows = isaVersion<&scanRows<S, kOp>>();
    parallelRange(outer, std::max<int64_t>(kChains, kParallelElements / perOuter),
                  [&](int64_t b, int64_t e) { rows(x, out, init, len, b, e); });
    return;
  }
  const int64_t pieces = outer >= 8 ? 1 : std::max<int64_t>(1, inner / kColumnPiece);
  const int64_t width = (inner + pieces - 1) / pieces;
  const auto columns = isaVersion<&scanColumns<S, kOp>>();
  parallelRange(outer * pieces, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(1, len * width)),
                [&](int64_t b, int64_t e) {
                  for (int64_t u = b; u < e; ++u) {
                    const int64_t o = u / pieces, first = u % pieces * width;
                    columns(x + o * perOuter, out + o * perOuter, init, len, inner, first, std::min(width, inner - first));
                  }
                });
}

// cummax and its kin: a scan over (values, indices) with the arg body (kernels/reduce_arg.h).

// The scan of (values, indices) seen as [outer, len, inner]; a piece of lanes walks each run of
// neighbouring lanes (one outer index) a row at a time, reading its accumulators from the previous row.
template <class V, class I>
void argScan(const Operands& in, ArgBody body, int64_t outer, int64_t len, int64_t inner, Literal& outValues,
             Literal& outIndices) {
  const V* x = elements<V>(*in[0]);
  const I* ix = elements<I>(*in[1]);
  const V initValue = elements<V>(*in[2])[0];
  const I initIndex = elements<I>(*in[3])[0];
  V* ov = elements<V>(outValues);
  I* oi = elements<I>(outIndices);
  parallelRange(outer * inner, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(len, 1)), [&](int64_t b, int64_t e) {
    for (int64_t start = b; start < e;) {
      const int64_t count = std::min(inner - start % inner, e - start);
      const int64_t base = start / inner * len * inner + start % inner;
      if (inner == 1) {  // one row: the accumulator stays in registers
        V a0 = initValue;
        I a1 = initIndex;
        for (int64_t j = base; j < base + len; ++j) {
          if (!keepsAccumulator(a0, a1, x[j], ix[j], body)) {
            a0 = x[j];
            a1 = ix[j];
          }
          ov[j] = a0;
          oi[j] = a1;
        }
        start += 1;
        continue;
      }
      for (int64_t j = 0; j < len; ++j) {
        const int64_t row = base + j * inner;
        for (int64_t i = 0; i < count; ++i) {
          V a0 = j == 0 ? initValue : ov[row - inner + i];
          I a1 = j == 0 ? initIndex : oi[row - inner + i];
          if (!keepsAccumulator(a0, a1, x[row + i], ix[row + i], body)) {
            a0 = x[row + i];
            a1 = ix[row + i];
          }
          ov[row + i] = a0;
          oi[row + i] = a1;
        }
      }
      start += count;
    }
  });
}

// The geometry of a window slid over an operand, arranged for folding output rows (every dimension
// but the last) one at a time with an accumulator per output along the last dimension.
struct WindowPlan {
  std::vector<int64_t> rowDims, rowWindow;       // output and window sizes of the dimensions but the last
  std::vector<std::vector<int64_t>> rowSource;   // per such dimension d, [output][offset]: element offset
                                                 // of the operand row read (index · stride), -1 on padding
  int64_t outW = 1, lastWindow = 1, stride = 1;  // along the last dimension
  std::vector<int64_t> lastSource;               // [offset][output]: operand index read, -1 on padding
  bool affine = false;                           // no base dilation along the last dimension: per offset,
  std::vector<int64_t> lo, hi;                   // outputs [lo, hi) read lastSource[lo] + (ow - lo) · stride
};

WindowPlan planWindow(const std::vector<int64_t>& inDims, const std::vector<int64_t>& outDims, const Window& w) {
  WindowPlan p;
  const size_t last = inDims.size() - 1;
  const auto strides = rowMajorStrides(inDims);
  for (size_t d = 0; d < last; ++d) {
    p.rowDims.push_back(outDims[d]);
    p.rowWindow.push_back(w.size[d]);
    std::vector<int64_t> source;
    for (int64_t o = 0; o < outDims[d]; ++o)
      for (int64_t k = 0; k < w.size[d]; ++k) {
        const int64_t q = windowSource(w, d, o, k, inDims[d]);
        source.push_back(q < 0 ? -1 : q * strides[d]);
      }
    p.rowSource.push_back(std::move(source));
  }
  p.outW = outDims[last];
  p.lastWindow = w.size[last];
  p.stride = w.stride[last];
  p.affine = w.baseDilation[last] == 1;
  for (int64_t k = 0; k < p.lastWindow; ++k) {
    int64_t lo = p.outW, hi = p.outW;
    for (int64_t o = 0; o < p.outW; ++o) {
      const int64_t q = windowSource(w, last, o, k, inDims[last]);
      p.lastSource.push_back(q);
      if (q >= 0) {
        lo = std::min(lo, o);
        hi = o + 1;
      }
    }
    p.lo.push_back(lo);
    p.hi.push_back(std::max(lo, hi));
  }
  return p;
}

template <class S, BinaryOp kOp, int64_t kStride>
TPJRT_LOOP_BODY void foldRun(ComputeOf<S>* acc, const S* src, int64_t n, int64_t stride) {
  if constexpr (kStride > 0) stride = kStride;
  for (int64_t i = 0; i < n; ++i) acc[i] = combineRounded<S, kOp>(acc[i], Num<S>::load(src[i * stride]));
}

// Output rows [begin, end): each output folds init, then its window's elements in row-major window order,
// padding reading init, as the generic path does.
template <class S, BinaryOp kOp>
TPJRT_LOOP_BODY void foldWindowRows(const WindowPlan* plan, const S* x, S init, S* out, int64_t begin, int64_t end) {
  using C = ComputeOf<S>;
  const WindowPlan& p = *plan;
  const size_t rank = p.rowDims.size();
  const int64_t outW = p.outW;
  const C pad = Num<S>::load(init);
  std::vector<C> buffer(static_cast<size_t>(outW));
  C* acc = buffer.data();
  std::vector<int64_t> o(rank), k(rank);
  for (size_t d = rank, r = size_t(begin); d-- > 0;) {
    o[d] = int64_t(r % size_t(p.rowDims[d]));
    r /= size_t(p.rowDims[d]);
  }
  for (int64_t row = begin; row < end; ++row) {
    std::fill_n(acc, outW, pad);
    std::fill(k.begin(), k.end(), 0);
    for (;;) {
      int64_t base = 0;
      bool inside = true;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t q = p.rowSource[d][size_t(o[d] * p.rowWindow[d] + k[d])];
        inside = inside && q >= 0;
        base += q;
      }
      for (int64_t kl = 0; kl < p.lastWindow; ++kl) {
        const int64_t* source = p.lastSource.data() + kl * outW;
        if (!inside) {
          for (int64_t i = 0; i < outW; ++i) acc[i] = combineRounded<S, kOp>(acc[i], pad);
        } else if (p.affine) {
          const int64_t lo = p.lo[size_t(kl)], hi = p.hi[size_t(kl)];
          for (int64_t i = 0; i < lo; ++i) acc[i] = combineRounded<S, kOp>(acc[i], pad);
          if (hi > lo) {
            const S* src = x + base + source[lo];
            C* a = acc + lo;
            if (p.stride == 1) foldRun<S, kOp, 1>(a, src, hi - lo, 1);
            else if (p.stride == 2) foldRun<S, kOp, 2>(a, src, hi - lo, 2);
            else foldRun<S, kOp, 0>(a, src, hi - lo, p.stride);
          }
          for (int64_t i = hi; i < outW; ++i) acc[i] = combineRounded<S, kOp>(acc[i], pad);
        } else {
          for (int64_t i = 0; i < outW; ++i)
            acc[i] = combineRounded<S, kOp>(acc[i], source[i] < 0 ? pad : Num<S>::load(x[base + source[i]]));
        }
      }
      size_t d = rank;
      while (d > 0 && ++k[d - 1] == p.rowWindow[d - 1]) k[--d] = 0;
      if (d == 0) break;
    }
    S* to = out + row * outW;
    for (int64_t i = 0; i < outW; ++i) to[i] = Num<S>::store(acc[i]);
    for (size_t d = rank; d > 0 && ++o[d - 1] == p.rowDims[d - 1];) o[--d] = 0;
  }
}

Literal typedWindow(BinaryOp op, const Literal& x, const Literal& init, const Window& w, const TensorType& result) {
  Literal out = uninitializedLiteral(result);
  const WindowPlan plan = planWindow(x.type.dims, result.dims, w);
  int64_t windowElements = 1;
  for (int64_t s : w.size) windowElements *= s;
  const int64_t rows = numElements(result) / plan.outW;
  const int64_t minRows = std::max<int64_t>(1, kParallelElements / std::max<int64_t>(1, plan.outW * windowElements));
  dispatchType(x.type.element, [&](auto tag) {
    using S = decltype(tag);
    if constexpr (!kIsPred<S>) {
      withBinaryOp<false>(op, [&](auto kind) {
        const auto fold = isaVersion<&foldWindowRows<S, decltype(kind)::value>>();
        const S* in = elements<S>(x);
        S* to = elements<S>(out);
        const S first = elements<S>(init)[0];
        parallelRange(rows, minRows, [&](int64_t b, int64_t e) { fold(&plan, in, first, to, b, e); });
      });
    }
  });
  return out;
}

// The dimension a prefix window runs along (cumsum and its kin: the window covers the whole
// dimension, padded low by its length - 1, so output j folds inputs 0..j), or -1 for other windows.
int prefixDimension(const Window& w, const std::vector<int64_t>& dims) {
  int along = -1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (w.stride[d] != 1 || w.baseDilation[d] != 1 || w.windowDilation[d] != 1 || w.padHigh[d] != 0) return -1;
    if (w.size[d] == 1 && w.padLow[d] == 0) continue;
    if (along >= 0 || w.size[d] != dims[d] || w.padLow[d] != dims[d] - 1) return -1;
    along = int(d);
  }
  return along;
}

// Lanes [j · inner + …] of x seen as [outer, n, inner]: element (o, j, i) for every o and i.
Value slab(const Literal& x, int64_t outer, int64_t n, int64_t inner, int64_t j) {
  Literal out = makeLiteral({x.type.element, {outer * inner}});
  copyBox(x.bytes.data(), j * inner, {n * inner, 1}, out.bytes.mutableData(), 0, {inner, 1}, {outer, inner}, byteWidth(x.type.element));
  return std::make_shared<const Literal>(std::move(out));
}

// A prefix window as a scan: acc_j = body(acc_{j-1}, x_j), linear in the dimension's length where the
// window form is quadratic. The window form folds output j as init, then the init of each padded
// position, then x_0 … x_j; the scan leaves out the padded inits, which is the same value when folding
// init into init gives init back (0 + 0, 1 · 1, max(-inf, -inf)), checked here. Empty when it does not.
// A typed body runs as a typed scan; any other body runs over all lanes once per position along the
// dimension, with the dimension moved first when the runs of lanes would be short (a scan along the
// last dimension reads one element per row per step otherwise).
std::optional<std::vector<Literal>> prefixScan(const Op& op, const Operands& in, const std::vector<ElementType>& types,
                                               const ReduceBody& body, int along) {
  const size_t n = in.size() / 2;
  std::vector<Value> twice;
  for (int copy = 0; copy < 2; ++copy)
    for (size_t i = 0; i < n; ++i) twice.push_back(std::make_shared<const Literal>(splatLiteral(*in[n + i], 1)));
  const std::vector<Value> folded = body(twice);
  for (size_t i = 0; i < n; ++i)
    if (folded.size() != n || !folded[i] || folded[i]->bytes != in[n + i]->bytes) return std::nullopt;
  const auto& dims = in[0]->type.dims;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < along; ++d) outer *= dims[size_t(d)];
  for (size_t d = size_t(along) + 1; d < dims.size(); ++d) inner *= dims[d];
  const int64_t len = dims[size_t(along)];
  std::vector<Literal> results;

  if (const auto kind = typedCombiner(op, in)) {
    Literal out = uninitializedLiteral(op.resultTypes[0]);
    dispatchType(types[0], [&](auto tag) {
      using S = decltype(tag);
      if constexpr (!kIsPred<S>)
        withBinaryOp<false>(*kind, [&](auto k) {
          typedScan<S, decltype(k)::value>(elements<S>(*in[0]), elements<S>(out), elements<S>(*in[1])[0], outer, len, inner);
        });
    });
    results.push_back(std::move(out));
    return results;
  }

  if (const auto arg = argBodyOf(op, in)) {
    results.push_back(uninitializedLiteral(op.resultTypes[0]));
    results.push_back(uninitializedLiteral(op.resultTypes[1]));
    dispatchType(types[0], [&](auto valueTag) {
      using V = decltype(valueTag);
      if constexpr (kIsInt<V> || std::is_same_v<V, float> || std::is_same_v<V, double>) {
        if (types[1] == ElementType::S64) argScan<V, int64_t>(in, *arg, outer, len, inner, results[0], results[1]);
        else argScan<V, int32_t>(in, *arg, outer, len, inner, results[0], results[1]);
      }
    });
    return results;
  }

  constexpr int64_t kShortRun = 16;
  std::vector<int64_t> perm{along}, permutedDims{len};
  for (size_t d = 0; d < dims.size(); ++d)
    if (int(d) != along) {
      perm.push_back(int64_t(d));
      permutedDims.push_back(dims[d]);
    }
  const bool moveFirst = outer > 1 && inner < kShortRun;
  std::vector<Literal> moved;
  Operands xs(in.begin(), in.begin() + std::ptrdiff_t(n));
  if (moveFirst) {
    for (size_t i = 0; i < n; ++i) moved.push_back(transposeLiteral(*in[i], perm));
    for (size_t i = 0; i < n; ++i) xs[i] = &moved[i];
    inner *= outer;
    outer = 1;
  }
  const int64_t lanes = outer * inner;
  std::vector<Value> accs;
  for (size_t i = 0; i < n; ++i) {
    results.push_back(makeLiteral(op.resultTypes[i]));
    accs.push_back(std::make_shared<const Literal>(splatLiteral(*in[n + i], lanes)));
  }
  for (int64_t j = 0; j < len; ++j) {
    std::vector<Value> args = accs;
    for (size_t i = 0; i < n; ++i) args.push_back(slab(*xs[i], outer, len, inner, j));
    accs = body(args);
    checkLanes(accs, types, lanes, "reduce_window body");
    for (size_t i = 0; i < n; ++i)
      copyBox(accs[i]->bytes.data(), 0, {inner, 1}, results[i].bytes.mutableData(), j * inner, {len * inner, 1}, {outer, inner},
              byteWidth(types[i]));
  }
  if (moveFirst) {
    std::vector<int64_t> back(perm.size());
    for (size_t d = 0; d < perm.size(); ++d) back[size_t(perm[d])] = int64_t(d);
    for (size_t i = 0; i < n; ++i)
      results[i] = transposeLiteral(Literal{{types[i], permutedDims}, results[i].bytes}, back);
  }
  return results;
}

}  // namespace

std::vector<Literal> reduceWindowKernel(const Op& op, const Operands& in, const ReduceBody& body) {
  const size_t n = in.size() / 2;
  if (n == 0 || in.size() != 2 * n || op.resultTypes.size() != n) fail("expects N inputs, N init values, N results");
  const auto& shape = in[0]->type.dims;
  const Window w = readWindow(op, shape.size());
  const auto outDims = windowOutputDims(shape, w);
  std::vector<ElementType> types;
  for (size_t i = 0; i < n; ++i) {
    if (in[i]->type.dims != shape) fail("inputs must have one shape");
    if (numElements(in[n + i]->type) != 1 || in[n + i]->type.element != in[i]->type.element)
      fail("init values must be scalars of the input element types");
    if (op.resultTypes[i] != TensorType{in[i]->type.element, outDims}) fail("result type does not match the window");
    types.push_back(in[i]->type.element);
  }
  const int64_t count = numElements(op.resultTypes[0]);
  if (const int along = prefixDimension(w, shape); along >= 0 && count > 0)
    if (auto scanned = prefixScan(op, in, types, body, along)) return std::move(*scanned);
  if (const auto kind = typedCombiner(op, in); kind && count > 0 && !shape.empty()) {
    std::vector<Literal> results;
    results.push_back(typedWindow(*kind, *in[0], *in[1], w, op.resultTypes[0]));
    return results;
  }
  std::vector<Value> accs;
  for (size_t i = 0; i < n; ++i) accs.push_back(std::make_shared<const Literal>(splatLiteral(*in[n + i], count)));
  if (count > 0) {
    forEachWindowOffset(shape, outDims, w, [&](const std::vector<int64_t>& sources) {
      std::vector<Value> args = accs;
      for (size_t i = 0; i < n; ++i) args.push_back(gather(*in[i], sources, *in[n + i]));
      accs = body(args);
      checkLanes(accs, types, count, "reduce_window body");
    });
  }
  std::vector<Literal> results;
  for (size_t i = 0; i < n; ++i) results.push_back(Literal{op.resultTypes[i], accs[i]->bytes});
  return results;
}

Literal selectAndScatterKernel(const Op& op, const Operands& in, const ReduceBody& select, const ReduceBody& scatter) {
  if (in.size() != 3) fail("expects operand, source and init value");
  const Literal& x = *in[0];
  const Literal& source = *in[1];
  const Literal& init = *in[2];
  const Window w = readWindow(op, x.type.dims.size());
  const auto outDims = windowOutputDims(x.type.dims, w);
  if (source.type.dims != outDims) fail("source " + typeString(source.type) + " does not match the windows over " + typeString(x.type));
  if (numElements(init.type) != 1 || init.type.element != x.type.element) fail("init value must be a 0-d of the operand's type");
  const int64_t count = numElements(source.type);

  // Select: per source element, the operand index of the chosen element of its window (-1: none yet).
  std::vector<int64_t> chosen(size_t(count), -1);
  if (count > 0) {
    forEachWindowOffset(x.type.dims, outDims, w, [&](const std::vector<int64_t>& sources) {
      Value current = gather(x, chosen, init), candidate = gather(x, sources, init);
      auto keep = select({current, candidate});
      checkLanes(keep, {ElementType::Pred}, count, "select_and_scatter select");
      const uint8_t* keepCurrent = keep[0]->bytes.data();
      for (size_t j = 0; j < chosen.size(); ++j)
        if (sources[j] >= 0 && (chosen[j] < 0 || !keepCurrent[j])) chosen[j] = sources[j];
    });
  }

  // Scatter: each operand element folds, in source order, the source values that chose it into init.
  Literal result = uninitializedLiteral(op.resultTypes.at(0));
  if (result.type != x.type) fail("result type must be the operand's");
  const size_t width = byteWidth(x.type.element);
  fillWith(result, init.bytes);
  std::vector<std::vector<int64_t>> byTarget(size_t(numElements(x.type)));
  for (size_t j = 0; j < chosen.size(); ++j)
    if (chosen[j] >= 0) byTarget[size_t(chosen[j])].push_back(int64_t(j));
  for (size_t round = 0;; ++round) {
    std::vector<int64_t> targets, values;
    for (size_t t = 0; t < byTarget.size(); ++t)
      if (byTarget[t].size() > round) {
        targets.push_back(int64_t(t));
        values.push_back(byTarget[t][round]);
      }
    if (targets.empty()) break;
    auto outs = scatter({gather(result, targets, init), gather(source, values, init)});
    checkLanes(outs, {x.type.element}, int64_t(targets.size()), "select_and_scatter scatter");
    for (size_t j = 0; j < targets.size(); ++j)
      std::memcpy(result.bytes.mutableData() + size_t(targets[j]) * width, outs[0]->bytes.data() + j * width, width);
  }
  return result;
}

}  // namespace tpjrt::cpu
