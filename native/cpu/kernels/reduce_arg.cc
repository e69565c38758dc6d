// reduce over (values, indices) with the argmax/argmin body the lowering prints, as a typed loop
// instead of the interpreter's lane-mode evaluation of the body (kernels/reduce.cc). The body, with
// a = (a0, a1) the accumulator and b = (b0, b1) the next element, exactly as written:
//   better = compare(a0, b0) GT (argmax) or LT (argmin); eq = compare(a0, b0) EQ;
//   first = compare(a1, b1) LT (GT in cummax's and cummin's scans, kernels/window.cc);
//   pick = or(better, and(eq, first))
//   integers:  return select(pick, a0, b0), select(pick, a1, b1)
//   floats:    anan = compare(a0, a0) NE; bnum = not(compare(b0, b0) NE);
//              choose = select(anan, or(bnum, first), and(bnum, pick))
//              return select(choose, a0, b0), select(choose, a1, b1)
// Any other body takes the general path. The loop folds each output's elements in the general path's
// order with the same choice, so the results are the same.
#include "kernels/reduce_arg.h"

#include <algorithm>

#include "base/thread_pool.h"
#include "kernels/body_reader.h"

namespace tpjrt::cpu {

namespace {

// Whether the body is the arg body above with `direction` (GT: max, LT: min) and the indices compared
// by `order` (LT: the earlier index wins a tie, GT: the later one).
bool isArgBody(const Region& r, const char* direction, const char* order, bool floating) {
  if (r.args.size() != 4) return false;
  const int a0 = r.args[0], a1 = r.args[1], b0 = r.args[2], b1 = r.args[3];
  BodyReader read{r};
  const int better = read.compare(a0, b0, direction), eq = read.compare(a0, b0, "EQ");
  const int first = read.compare(a1, b1, order), tie = read.binary("stablehlo.and", eq, first);
  const int pick = read.binary("stablehlo.or", better, tie);
  int choose = pick;
  if (floating) {
    const int anan = read.compare(a0, a0, "NE"), bnan = read.compare(b0, b0, "NE");
    const int bnum = read.unary("stablehlo.not", bnan);
    const int ifnan = read.binary("stablehlo.or", bnum, first), ifnum = read.binary("stablehlo.and", bnum, pick);
    choose = read.select(anan, ifnan, ifnum);
  }
  const int v = read.select(choose, a0, b0), i = read.select(choose, a1, b1);
  return read.returns({v, i});
}

// Folds x seen as [outer, len, inner] along len. Pieces of the output are contiguous runs of one
// outer index; each keeps its accumulators in the outputs and walks the input a row at a time.
template <class V, class I>
void argFold(const Literal& values, const Literal& indices, V init, I initIndex, int64_t outer, int64_t len, int64_t inner,
             ArgBody body, Literal& outValues, Literal& outIndices) {
  const V* x = elements<V>(values);
  const I* ix = elements<I>(indices);
  V* ov = reinterpret_cast<V*>(outValues.bytes.mutableData());
  I* oi = reinterpret_cast<I*>(outIndices.bytes.mutableData());
  auto fold = [body](V& a0, I& a1, V b0, I b1) {
    if (!keepsAccumulator(a0, a1, b0, b1, body)) {
      a0 = b0;
      a1 = b1;
    }
  };
  parallelRange(outer * inner, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(len, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t start = begin; start < end;) {
      const int64_t o = start / inner, i0 = start % inner, count = std::min(inner - i0, end - start);
      V* av = ov + start;
      I* ai = oi + start;
      std::fill_n(av, count, init);
      std::fill_n(ai, count, initIndex);
      if (inner == 1) {  // one contiguous row: a loop of its own is twice as fast
        const V* row = x + o * len;
        const I* rowIndex = ix + o * len;
        for (int64_t j = 0; j < len; ++j) fold(*av, *ai, row[j], rowIndex[j]);
        start += 1;
        continue;
      }
      for (int64_t j = 0; j < len; ++j) {
        const int64_t row = (o * len + j) * inner + i0;
        for (int64_t i = 0; i < count; ++i) fold(av[i], ai[i], x[row + i], ix[row + i]);
      }
      start += count;
    }
  });
}

}  // namespace

std::optional<ArgBody> argBodyOf(const Op& op, const Operands& in) {
  if (in.size() != 4 || op.regions.size() != 1) return std::nullopt;
  const ElementType value = in[0]->type.element, index = in[1]->type.element;
  const bool floating = value == ElementType::F32 || value == ElementType::F64;
  if ((!floating && !isInteger(value)) || (index != ElementType::S64 && index != ElementType::S32)) return std::nullopt;
  for (const bool max : {true, false})
    for (const bool later : {false, true})
      if (isArgBody(op.regions[0], max ? "GT" : "LT", later ? "GT" : "LT", floating)) return ArgBody{max, later};
  return std::nullopt;
}

std::optional<std::vector<Literal>> argReduce(const Op& op, const Operands& in, int64_t reducedDim) {
  if (op.resultTypes.size() != 2) return std::nullopt;
  const std::optional<ArgBody> body = argBodyOf(op, in);
  if (!body) return std::nullopt;
  const ElementType value = in[0]->type.element, index = in[1]->type.element;
  const auto& dims = in[0]->type.dims;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < reducedDim; ++d) outer *= dims[size_t(d)];
  for (size_t d = size_t(reducedDim) + 1; d < dims.size(); ++d) inner *= dims[d];
  std::vector<Literal> results;
  results.push_back(makeLiteral(op.resultTypes[0]));
  results.push_back(makeLiteral(op.resultTypes[1]));
  dispatchType(value, [&](auto valueTag) {
    using V = decltype(valueTag);
    if constexpr (kIsInt<V> || std::is_same_v<V, float> || std::is_same_v<V, double>) {
      const V init = elements<V>(*in[2])[0];
      auto run = [&](auto indexTag) {
        using I = decltype(indexTag);
        argFold<V, I>(*in[0], *in[1], init, elements<I>(*in[3])[0], outer, dims[size_t(reducedDim)], inner, *body,
                      results[0], results[1]);
      };
      if (index == ElementType::S64) run(int64_t());
      else run(int32_t());
    }
  });
  return results;
}

}  // namespace tpjrt::cpu
