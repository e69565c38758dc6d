#include "exec/position_steps.h"

#include <algorithm>
#include <cstring>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

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
  try {
    if (op.name == "stablehlo.iota") {
      const int64_t dim = intAttr(op, "iota_dimension");
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
    if (x.element != result.element) return std::nullopt;
    // Runs along the last dim as long as they can be: merged where the operand is contiguous (or
    // broadcast) across neighbours; the result is written row-major.
    StridedBox box = simplifyBox(result.dims, broadcastStrides(x.dims, i64ArrayAttr(op, "broadcast_dimensions"), result.dims),
                                 rowMajorStrides(result.dims));
    step.dims = box.dims.empty() ? std::vector<int64_t>{1} : std::move(box.dims);
    step.strides = box.src.empty() ? std::vector<int64_t>{0} : std::move(box.src);
    return step;
  } catch (const CpuError&) {
    return std::nullopt;  // the op's own kernel reports it, with its line
  }
}

int64_t PositionStep::sourceOf(int64_t offset) const {
  int64_t from = 0;
  for (size_t d = dims.size(); d-- > 0;) {
    from += (offset % dims[d]) * strides[d];
    offset /= dims[d];
  }
  return from;
}

void PositionStep::run(const uint8_t* in, int64_t offset, uint8_t* out, int64_t n) const {
  const size_t rank = dims.size(), width = byteWidth(element);
  if (rank == 0 || n <= 0) return;
  // the multi-index of `offset`; on the stack for the ranks merged dims leave (this runs once a tile)
  int64_t small[8];
  std::vector<int64_t> large(rank > 8 ? rank : 0);
  int64_t* index = rank > 8 ? large.data() : small;
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
      if (strides[rank - 1] == 0 || strides[rank - 1] == 1) {  // one value repeated, or a contiguous run
        const void* from = src;
        const bool repeated = strides[rank - 1] == 0;
        copyLoop(width)(&from, &repeated, out, run);
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
