#include "position_steps.h"

#include <algorithm>
#include <cstring>

#include "kernels.h"

namespace tpjrt::cpu {

namespace {

const std::vector<int64_t>* intsAttr(const Op& op, const char* name) {
  auto it = op.attrs.find(name);
  if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::I64Array) return nullptr;
  return &it->second->ints;
}

// Merges neighbouring dims a and a+1 when a's stride is its neighbour's stride times its size (a
// contiguous or an all-broadcast pair), so that runs along the last dim are as long as they can be.
void mergeDims(std::vector<int64_t>& dims, std::vector<int64_t>& strides) {
  std::vector<int64_t> d{dims.empty() ? 1 : dims[0]}, s{strides.empty() ? 0 : strides[0]};
  for (size_t i = 1; i < dims.size(); ++i) {
    if (s.back() == strides[i] * dims[i]) {
      d.back() *= dims[i];
      s.back() = strides[i];
    } else {
      d.push_back(dims[i]);
      s.push_back(strides[i]);
    }
  }
  dims = std::move(d);
  strides = std::move(s);
}

// `count` copies of the element at `src`.
template <class T>
void repeat(uint8_t* out, const uint8_t* src, int64_t count) {
  T v;
  std::memcpy(&v, src, sizeof v);
  std::fill_n(reinterpret_cast<T*>(out), count, v);
}

void repeatElement(uint8_t* out, const uint8_t* src, int64_t count, size_t width) {
  switch (width) {
    case 1: return repeat<uint8_t>(out, src, count);
    case 2: return repeat<uint16_t>(out, src, count);
    case 4: return repeat<uint32_t>(out, src, count);
    case 8: return repeat<uint64_t>(out, src, count);
    default:
      for (int64_t i = 0; i < count; ++i) std::memcpy(out + size_t(i) * width, src, width);
  }
}

// The value `v` in element type S, `count` times.
template <class S>
void fillIndex(uint8_t* out, int64_t count, int64_t v) {
  std::fill_n(reinterpret_cast<S*>(out), count, Num<S>::store(convertValue<S>(v)));
}

template <class S>
void rampIndex(uint8_t* out, int64_t count, int64_t first) {
  S* o = reinterpret_cast<S*>(out);
  for (int64_t i = 0; i < count; ++i) o[i] = Num<S>::store(convertValue<S>(first + i));
}

}  // namespace

std::optional<PositionStep> positionStepFor(const Op& op) {
  if (op.resultTypes.size() != 1 || op.results.size() != 1) return std::nullopt;
  const TensorType& result = op.resultTypes[0];
  PositionStep step;
  step.element = result.element;
  if (op.name == "stablehlo.iota") {
    auto it = op.attrs.find("iota_dimension");
    if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Int) return std::nullopt;
    const int64_t dim = it->second->i;
    if (dim < 0 || size_t(dim) >= result.dims.size() || !op.operands.empty()) return std::nullopt;
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < size_t(dim); ++d) outer *= result.dims[d];
    for (size_t d = size_t(dim) + 1; d < result.dims.size(); ++d) inner *= result.dims[d];
    step.kind = PositionStep::Kind::Iota;
    step.dims = {outer, result.dims[size_t(dim)]};
    if (inner != 1) step.dims.push_back(inner);
    step.iotaDim = 1;
    return step;
  }
  if (op.name != "stablehlo.broadcast_in_dim" || op.operandTypes.size() != 1) return std::nullopt;
  const TensorType& x = op.operandTypes[0];
  const std::vector<int64_t>* map = intsAttr(op, "broadcast_dimensions");
  if (!map || map->size() != x.dims.size() || x.element != result.element) return std::nullopt;
  const std::vector<int64_t> xStrides = rowMajorStrides(x.dims);
  step.dims = result.dims;
  step.strides.assign(result.dims.size(), 0);
  for (size_t i = 0; i < map->size(); ++i) {
    const int64_t to = (*map)[i];
    if (to < 0 || size_t(to) >= result.dims.size()) return std::nullopt;
    if (x.dims[i] == result.dims[size_t(to)]) step.strides[size_t(to)] = xStrides[i];
    else if (x.dims[i] != 1) return std::nullopt;
  }
  mergeDims(step.dims, step.strides);
  return step;
}

void PositionStep::run(const uint8_t* in, int64_t offset, uint8_t* out, int64_t n) const {
  const size_t rank = dims.size(), width = byteWidth(element);
  if (rank == 0 || n <= 0) return;
  std::vector<int64_t> index(rank);  // the multi-index of `offset`
  for (size_t d = rank, rest = size_t(offset); d-- > 0;) {
    index[d] = int64_t(rest % size_t(dims[d]));
    rest /= size_t(dims[d]);
  }
  const int64_t inner = dims[rank - 1];
  while (n > 0) {
    const int64_t run = std::min(inner - index[rank - 1], n);
    if (kind == Kind::Broadcast) {
      int64_t from = 0;
      for (size_t d = 0; d < rank; ++d) from += index[d] * strides[d];
      const uint8_t* src = in + size_t(from) * width;
      if (strides[rank - 1] == 1) {
        std::memcpy(out, src, size_t(run) * width);
      } else if (strides[rank - 1] == 0) {
        repeatElement(out, src, run, width);
      } else {
        for (int64_t i = 0; i < run; ++i) std::memcpy(out + size_t(i) * width, src + size_t(i * strides[rank - 1]) * width, width);
      }
    } else {
      dispatchType(element, [&](auto tag) {
        using S = decltype(tag);
        if (iotaDim == rank - 1) rampIndex<S>(out, run, index[rank - 1]);
        else fillIndex<S>(out, run, index[iotaDim]);
      });
    }
    out += size_t(run) * width;
    n -= run;
    index[rank - 1] += run;
    for (size_t d = rank - 1; d > 0 && index[d] == dims[d]; --d) {
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

}  // namespace tpjrt::cpu
