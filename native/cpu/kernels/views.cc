#include "kernels/views.h"

#include <utility>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

ViewLayout transposed(const Op& op, const Literal& x, const TensorType& result, ViewLayout from) {
  const auto& perm = i64ArrayAttr(op, "permutation");
  const auto& dims = x.type.dims;
  requireRank(perm, dims.size(), "permutation");
  std::vector<bool> seen(perm.size());
  ViewLayout to{from.offset, {}};
  for (size_t i = 0; i < perm.size(); ++i) {
    const int64_t p = perm[i];
    if (p < 0 || size_t(p) >= perm.size() || seen[size_t(p)]) fail("permutation is not a permutation");
    seen[size_t(p)] = true;
    if (result.dims[i] != dims[size_t(p)]) fail("result shape does not match the permuted operand");
    to.strides.push_back(from.strides[size_t(p)]);
  }
  return to;
}

// The slice's start and step attributes, checked against x and the result type.
std::pair<std::vector<int64_t>, std::vector<int64_t>> sliceBox(const Op& op, const Literal& x, const TensorType& result) {
  const auto& start = i64ArrayAttr(op, "start_indices");
  const auto& limit = i64ArrayAttr(op, "limit_indices");
  const auto& step = i64ArrayAttr(op, "strides");
  const auto& dims = x.type.dims;
  requireRank(start, dims.size(), "start_indices");
  requireRank(limit, dims.size(), "limit_indices");
  requireRank(step, dims.size(), "strides");
  for (size_t d = 0; d < dims.size(); ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > dims[d] || step[d] <= 0 ||
        result.dims[d] != (limit[d] - start[d] + step[d] - 1) / step[d])
      fail("slice bounds do not fit the operand");
  }
  return {start, step};
}

// The strides that read `from` (dims `have`) as dims `want` in the same row-major order, or false when
// some run of dimensions that is merged or split is not evenly strided.
bool regrouped(const std::vector<int64_t>& have, const ViewLayout& from, const std::vector<int64_t>& want,
               ViewLayout& to) {
  std::vector<int64_t> oldDims, oldStrides;
  for (size_t d = 0; d < have.size(); ++d) {
    if (have[d] == 1) continue;
    oldDims.push_back(have[d]);
    oldStrides.push_back(from.strides[d]);
  }
  to = ViewLayout{from.offset, std::vector<int64_t>(want.size(), 0)};
  size_t i = 0, j = 0;
  while (i < oldDims.size() || j < want.size()) {
    if (j < want.size() && want[j] == 1) {  // a size-1 dimension needs no stride
      ++j;
      continue;
    }
    if (i == oldDims.size() || j == want.size()) return false;
    // the smallest runs old[i, ni) and want[j, nj) with equal element counts
    size_t ni = i + 1, nj = j + 1;
    int64_t oldCount = oldDims[i], newCount = want[j];
    while (oldCount != newCount) {
      if (oldCount < newCount) {
        if (ni == oldDims.size()) return false;
        oldCount *= oldDims[ni++];
      } else {
        if (nj == want.size()) return false;
        newCount *= want[nj++];
      }
    }
    for (size_t k = i; k + 1 < ni; ++k)
      if (oldStrides[k] != oldStrides[k + 1] * oldDims[k + 1]) return false;
    int64_t stride = oldStrides[ni - 1];
    for (size_t k = nj; k-- > j;) {
      to.strides[k] = stride;
      stride *= want[k];
    }
    i = ni;
    j = nj;
  }
  return true;
}

bool isDenseLayout(const Literal& x, const ViewLayout& layout) {
  if (layout.offset != 0 || x.bytes.size() != size_t(numElements(x.type)) * byteWidth(x.type.element)) return false;
  const auto rowMajor = rowMajorStrides(x.type.dims);
  for (size_t d = 0; d < rowMajor.size(); ++d)
    if (x.type.dims[d] != 1 && layout.strides[d] != rowMajor[d]) return false;
  return true;
}

Literal withLayout(const TensorType& type, const Bytes& bytes, ViewLayout layout) {
  if (numElements(type) == 0) return Literal{type, Bytes(0), nullptr};
  Literal out{type, bytes, nullptr};
  if (!isDenseLayout(out, layout)) out.view = std::make_shared<const ViewLayout>(std::move(layout));
  return out;
}

}  // namespace

Literal boxOf(const Literal& x, const std::vector<int64_t>& start, const std::vector<int64_t>& step,
              const TensorType& result) {
  if (x.type.element != result.element || result.dims.size() != x.type.dims.size() || start.size() != result.dims.size() ||
      step.size() != result.dims.size())
    fail("result type " + typeString(result) + " does not fit operand " + typeString(x.type));
  ViewLayout layout = layoutOf(x);
  for (size_t d = 0; d < result.dims.size(); ++d) {
    layout.offset += start[d] * layout.strides[d];
    layout.strides[d] *= step[d];
  }
  return withLayout(result, x.bytes, std::move(layout));
}

bool isViewOpName(const std::string& name) {
  return name == "stablehlo.transpose" || name == "stablehlo.slice" || name == "stablehlo.reshape";
}

ViewLayout layoutOf(const Literal& x) {
  if (x.view) return *x.view;
  return ViewLayout{0, rowMajorStrides(x.type.dims)};
}

bool viewFits(const Literal& x) {
  const ViewLayout layout = layoutOf(x);
  if (layout.strides.size() != x.type.dims.size()) return false;
  int64_t low = layout.offset, high = layout.offset;
  for (size_t d = 0; d < x.type.dims.size(); ++d) {
    const int64_t dim = x.type.dims[d];
    if (dim == 0) return true;
    (layout.strides[d] < 0 ? low : high) += (dim - 1) * layout.strides[d];
  }
  const int64_t elements = int64_t(x.bytes.size() / byteWidth(x.type.element));
  return low >= 0 && high < elements;
}

Literal viewOf(const Op& op, const Literal& x, const TensorType& result) {
  if (x.type.element != result.element || (op.name != "stablehlo.reshape" && result.dims.size() != x.type.dims.size()))
    fail("result type " + typeString(result) + " does not fit operand " + typeString(x.type));
  if (op.name == "stablehlo.transpose") return withLayout(result, x.bytes, transposed(op, x, result, layoutOf(x)));
  if (op.name == "stablehlo.slice") {
    const auto [start, step] = sliceBox(op, x, result);
    return boxOf(x, start, step, result);
  }
  if (!isViewOpName(op.name)) fail("is not a view op", ErrorCode::Internal);
  if (numElements(result) != numElements(x.type)) fail("cannot reshape " + typeString(x.type) + " to " + typeString(result));
  ViewLayout to;
  if (numElements(result) == 0 || regrouped(x.type.dims, layoutOf(x), result.dims, to)) return withLayout(result, x.bytes, std::move(to));
  return Literal{result, denseOf(x).bytes, nullptr};
}

Literal denseOf(const Literal& x) {
  if (!x.view) return x;
  Literal out = uninitializedLiteral(x.type);
  copyBox(x.bytes.data(), x.view->offset, x.view->strides, out.bytes.mutableData(), 0, rowMajorStrides(x.type.dims),
          x.type.dims, byteWidth(x.type.element));
  return out;
}

}  // namespace tpjrt::cpu
