// reduce_window and select_and_scatter. Both evaluate their regions over vectors of lanes, like reduce:
// reduce_window runs its body once per window offset over all output elements at once (lanes that
// fall on padding read the init value); select_and_scatter runs select once per window offset over
// all source elements, then scatter in rounds over the operand elements that were selected.
#include <algorithm>
#include <optional>

#include "ir/window_geometry.h"
#include "kernels/kernels.h"

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
  const int64_t len = dims[size_t(along)], lanes = outer * inner;
  std::vector<Literal> results;
  std::vector<Value> accs;
  for (size_t i = 0; i < n; ++i) {
    results.push_back(makeLiteral(op.resultTypes[i]));
    accs.push_back(std::make_shared<const Literal>(splatLiteral(*in[n + i], lanes)));
  }
  for (int64_t j = 0; j < len; ++j) {
    std::vector<Value> args = accs;
    for (size_t i = 0; i < n; ++i) args.push_back(slab(*in[i], outer, len, inner, j));
    accs = body(args);
    checkLanes(accs, types, lanes, "reduce_window body");
    for (size_t i = 0; i < n; ++i)
      copyBox(accs[i]->bytes.data(), 0, {inner, 1}, results[i].bytes.mutableData(), j * inner, {len * inner, 1}, {outer, inner},
              byteWidth(types[i]));
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
