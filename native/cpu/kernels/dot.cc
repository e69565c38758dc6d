// dot_general: both operands are first laid out as [batch, free, contracting] (lhs) and
// [batch, contracting, free] (rhs), then multiplied as a batch of row-major matrices. Floats accumulate
// in float (f16, bf16, f32) or double (f64); integers wrap; i1 is OR over the contraction of AND.
// When the element types differ, the products are computed in the most precise of the three
// (mostPrecise), as XLA CPU does: a more precise result type converts the operands first
// (i8 x i8 -> i32 does not wrap at 8 bits, f32 x bf16 -> f32 widens the bf16), a less precise one
// converts the finished result (f32 x f32 -> f16 rounds once, f32 x f32 -> i32 truncates the float sum).
#include <algorithm>

#include "base/thread_pool.h"
#include "gemm/gemm.h"
#include "kernels/kernels.h"
#include "kernels/views.h"

namespace tpjrt::cpu {

namespace {

struct DotDims {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
};

const std::vector<int64_t>& structInts(const Attribute& s, const std::string& name) {
  static const std::vector<int64_t> empty;
  auto it = s.fields.find(name);
  if (it == s.fields.end() || !it->second) return empty;
  if (it->second->kind != Attribute::Kind::I64Array) fail("dot_dimension_numbers." + name + " must be a list");
  return it->second->ints;
}

DotDims dotDims(const Op& op) {
  auto it = op.attrs.find("dot_dimension_numbers");
  if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Struct)
    fail("missing attribute dot_dimension_numbers");
  const Attribute& s = *it->second;
  return {structInts(s, "lhs_batching_dimensions"), structInts(s, "rhs_batching_dimensions"),
          structInts(s, "lhs_contracting_dimensions"), structInts(s, "rhs_contracting_dimensions")};
}

// The dimensions of a rank-`rank` operand that are neither batch nor contracting, in order.
std::vector<int64_t> freeDims(size_t rank, const std::vector<int64_t>& batch, const std::vector<int64_t>& contract) {
  std::vector<bool> used(rank);
  for (const auto* list : {&batch, &contract})
    for (int64_t d : *list) {
      if (d < 0 || size_t(d) >= rank || used[size_t(d)]) fail("dot_dimension_numbers: bad dimension " + std::to_string(d));
      used[size_t(d)] = true;
    }
  std::vector<int64_t> free;
  for (size_t d = 0; d < rank; ++d)
    if (!used[d]) free.push_back(int64_t(d));
  return free;
}

int64_t product(const std::vector<int64_t>& dims, const std::vector<int64_t>& which) {
  int64_t n = 1;
  for (int64_t d : which) n *= dims[size_t(d)];
  return n;
}

std::vector<int64_t> concat(std::vector<int64_t> a, const std::vector<int64_t>& b, const std::vector<int64_t>& c) {
  a.insert(a.end(), b.begin(), b.end());
  a.insert(a.end(), c.begin(), c.end());
  return a;
}

template <class S> struct AccumulatorOf { using T = Wide<S>; };
template <> struct AccumulatorOf<Pred> { using T = uint8_t; };  // 0 or 1, combined with | and &
template <> struct AccumulatorOf<Half> { using T = float; };
template <> struct AccumulatorOf<BFloat> { using T = float; };
template <> struct AccumulatorOf<float> { using T = float; };
template <> struct AccumulatorOf<double> { using T = double; };
template <class S> using Accumulator = typename AccumulatorOf<S>::T;

template <class S>
std::vector<Accumulator<S>> loadAll(const Literal& x) {
  using A = Accumulator<S>;
  const S* p = elements<S>(x);
  std::vector<A> out(size_t(numElements(x.type)));
  for (size_t i = 0; i < out.size(); ++i) out[i] = A(Num<S>::load(p[i]));
  return out;
}

// a [batch, m, k] times b [batch, k, n], both of element type `type.element`, into `type`.
Literal batchedMatmul(const Literal& a, const Literal& b, int64_t batch, int64_t m, int64_t k, int64_t n,
                      const TensorType& type) {
  return dispatchType(type.element, [&](auto tag) -> Literal {
    using S = decltype(tag);
    using A = Accumulator<S>;
    auto av = loadAll<S>(a);
    auto bv = loadAll<S>(b);
    std::vector<A> row(static_cast<size_t>(n));
    Literal out = makeLiteral(type);
    S* o = elements<S>(out);
    for (int64_t p = 0; p < batch; ++p)
      for (int64_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), A(0));
        const A* arow = av.data() + (p * m + i) * k;
        for (int64_t q = 0; q < k; ++q) {
          const A x = arow[q];
          const A* brow = bv.data() + (p * k + q) * n;
          if constexpr (kIsPred<S>) {
            for (int64_t j = 0; j < n; ++j) row[size_t(j)] = A(row[size_t(j)] | (x & brow[j]));
          } else {
            for (int64_t j = 0; j < n; ++j) row[size_t(j)] += x * brow[j];
          }
        }
        S* orow = o + (p * m + i) * n;
        for (int64_t j = 0; j < n; ++j) orow[j] = Num<S>::store(static_cast<ComputeOf<S>>(row[size_t(j)]));
      }
    return out;
  });
}

// An operand (dense or a view) seen as a batch of strided matrices: rows are the dimensions `rows`
// taken together, columns the dimensions `cols`. Fails (returns false) when either group cannot be
// walked with one stride; size-1 dimensions never matter.
template <class T>
bool viewAsMatrices(const Literal& x, const std::vector<int64_t>& batch, const std::vector<int64_t>& rows,
                    const std::vector<int64_t>& cols, StridedMatrices<T>& view) {
  const std::vector<int64_t>& dims = x.type.dims;
  const ViewLayout layout = layoutOf(x);
  const std::vector<int64_t>& strides = layout.strides;
  auto stride = [&](const std::vector<int64_t>& group, int64_t& out) {
    out = 0;
    int64_t expected = -1;  // the stride the next dimension must have, from the one after it
    for (size_t i = group.size(); i-- > 0;) {
      const size_t d = size_t(group[i]);
      if (dims[d] == 1) continue;
      if (expected >= 0 && strides[d] != expected) return false;
      if (expected < 0) out = strides[d];
      expected = strides[d] * dims[d];
    }
    return true;
  };
  if (!stride(rows, view.rowStride) || !stride(cols, view.colStride)) return false;
  view.data = elements<T>(x) + layout.offset;
  view.batchOffsets.assign(1, 0);
  for (int64_t d : batch) {  // row-major over the batch dimensions, in their listed order
    std::vector<int64_t> next;
    next.reserve(view.batchOffsets.size() * size_t(dims[size_t(d)]));
    for (int64_t base : view.batchOffsets)
      for (int64_t i = 0; i < dims[size_t(d)]; ++i) next.push_back(base + i * strides[size_t(d)]);
    view.batchOffsets = std::move(next);
  }
  return true;
}

// `x` as matrices; where a group of dimensions cannot be walked with one stride, first copies `x`
// into [batch, rows, cols] order (`copy` holds it, so it must outlive the view).
template <class T>
StridedMatrices<T> matricesOf(const Literal& x, const std::vector<int64_t>& batch, const std::vector<int64_t>& rows,
                              const std::vector<int64_t>& cols, Literal& copy) {
  StridedMatrices<T> view;
  if (viewAsMatrices(x, batch, rows, cols, view)) return view;
  copy = transposeLiteral(x, concat(batch, rows, cols));
  auto range = [](size_t from, size_t count) {
    std::vector<int64_t> v(count);
    for (size_t i = 0; i < count; ++i) v[i] = int64_t(from + i);
    return v;
  };
  viewAsMatrices(copy, range(0, batch.size()), range(batch.size(), rows.size()),
                 range(batch.size() + rows.size(), cols.size()), view);
  return view;
}

// Float dot_general through the GEMM: out[batch, m, n] = lhs[batch, m, k] · rhs[batch, k, n].
// With `row` (as long as the result's last dimension), the GEMM adds it to every row of the product.
template <class T>
Literal floatDot(const Literal& lhs, const Literal& rhs, const DotDims& dims, const std::vector<int64_t>& lhsFree,
                 const std::vector<int64_t>& rhsFree, int64_t m, int64_t k, int64_t n, const TensorType& type,
                 const Literal* row) {
  Literal lhsCopy, rhsCopy;
  StridedMatrices<T> a = matricesOf<T>(lhs, dims.lhsBatch, lhsFree, dims.lhsContract, lhsCopy);
  StridedMatrices<T> b = matricesOf<T>(rhs, dims.rhsBatch, dims.rhsContract, rhsFree, rhsCopy);
  Literal out = k > 0 ? uninitializedLiteral(type) : makeLiteral(type);  // the GEMM writes every element when k > 0
  T* c = elements<T>(out);
  if (!row) {
    gemm<T>(m, n, k, a, b, c, currentThreadPool());
    return out;
  }
  const T* r = elements<T>(*row);
  const int64_t length = numElements(row->type);
  if (n == length) {  // the result's last dimension is C's columns: the GEMM adds the row to each row of C
    gemm<T>(m, n, k, a, b, c, currentThreadPool(), {}, r);
    return out;
  }
  // the last dimension is one of several free dimensions (or the lhs's): add the row afterwards
  gemm<T>(m, n, k, a, b, c, currentThreadPool());
  for (int64_t e = 0, count = numElements(type); e < count; ++e) c[e] += r[e % length];
  return out;
}

// dot_general, plus `row` added to every row of the product when set.
Literal dotGeneral(const Op& op, const Operands& in, const TensorType& result, const Literal* row) {
  const Literal& lhs = *in[0];
  const Literal& rhs = *in[1];
  const ElementType compute = mostPrecise(mostPrecise(lhs.type.element, rhs.type.element), result.element);
  DotDims dims = dotDims(op);
  if (dims.lhsBatch.size() != dims.rhsBatch.size() || dims.lhsContract.size() != dims.rhsContract.size())
    fail("dot_dimension_numbers: lhs and rhs lists differ in length");
  auto lhsFree = freeDims(lhs.type.dims.size(), dims.lhsBatch, dims.lhsContract);
  auto rhsFree = freeDims(rhs.type.dims.size(), dims.rhsBatch, dims.rhsContract);
  for (size_t i = 0; i < dims.lhsBatch.size(); ++i)
    if (lhs.type.dims[size_t(dims.lhsBatch[i])] != rhs.type.dims[size_t(dims.rhsBatch[i])])
      fail("batch dimension sizes differ");
  for (size_t i = 0; i < dims.lhsContract.size(); ++i)
    if (lhs.type.dims[size_t(dims.lhsContract[i])] != rhs.type.dims[size_t(dims.rhsContract[i])])
      fail("contracting dimension sizes differ");

  const int64_t batch = product(lhs.type.dims, dims.lhsBatch);
  const int64_t m = product(lhs.type.dims, lhsFree);
  const int64_t k = product(lhs.type.dims, dims.lhsContract);
  const int64_t n = product(rhs.type.dims, rhsFree);
  if (numElements(result) != batch * m * n) fail("result shape does not match the operands");

  // Floats go through the GEMM (half types in f32 panels, as the accumulator was float already).
  if (compute == ElementType::F32 || compute == ElementType::F64 || compute == ElementType::F16 ||
      compute == ElementType::BF16) {
    const ElementType wide = compute == ElementType::F64 ? ElementType::F64 : ElementType::F32;
    auto widened = [&](const Literal& x, Literal& copy) -> const Literal& {
      if (x.type.element == wide && compute == wide) return x;
      return copy = convertLiteral(convertLiteral(denseOf(x), compute), wide);
    };
    Literal lhsWide, rhsWide;  // only when the operands need converting
    const Literal& a = widened(lhs, lhsWide);
    const Literal& b = widened(rhs, rhsWide);
    TensorType type{wide, result.dims};
    if (row && (compute != wide || result.element != wide)) {
      fail("adding a row to the product needs an f32 or f64 product", ErrorCode::Internal);
    }
    Literal out = wide == ElementType::F64 ? floatDot<double>(a, b, dims, lhsFree, rhsFree, m, k, n, type, row)
                                           : floatDot<float>(a, b, dims, lhsFree, rhsFree, m, k, n, type, row);
    return convertLiteral(convertLiteral(std::move(out), compute), result.element);
  }
  if (row) fail("adding a row to the product needs an f32 or f64 product", ErrorCode::Internal);
  Literal a = convertLiteral(transposeLiteral(lhs, concat(dims.lhsBatch, lhsFree, dims.lhsContract)), compute);
  Literal b = convertLiteral(transposeLiteral(rhs, concat(dims.rhsBatch, dims.rhsContract, rhsFree)), compute);
  Literal out = batchedMatmul(a, b, batch, m, k, n, TensorType{compute, result.dims});
  return convertLiteral(out, result.element);
}

}  // namespace

Literal dotGeneralKernel(const Op& op, const Operands& in, const TensorType& result) {
  return dotGeneral(op, in, result, nullptr);
}

Literal dotGeneralAddRow(const Op& op, const Operands& in, const Literal& row, const TensorType& result) {
  if (row.type.element != result.element || row.type.dims.size() != 1 || result.dims.empty() ||
      row.type.dims[0] != result.dims.back() || row.bytes.size() != size_t(row.type.dims[0]) * byteWidth(row.type.element))
    fail("the row added to the product must be as long as its last dimension", ErrorCode::Internal);
  return dotGeneral(op, in, result, &row);
}

}  // namespace tpjrt::cpu
