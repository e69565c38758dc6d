// cholesky: for each batch of n×n matrices a, L with L·Lᵀ = a read from its lower triangle (lower), or U
// with Uᵀ·U = a read from its upper triangle; the other triangle of the result is zero. Column by column
// in double precision (each entry is a dot product of two contiguous rows of L), rounded once to the
// element type. Where a is not positive definite (the spec leaves the result to the implementation), the
// first column whose pivot is not > 0 (or is NaN) and every column after it are NaN (in the factor's
// triangle); the columns before it are those of the factor, and the first NaN on the diagonal says which
// leading minor is not positive definite (torch.linalg.choleskyEx's info).
#include <cmath>
#include <limits>

#include "base/thread_pool.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

// Factors one matrix into l (row-major n×n, zero above the diagonal); returns the column that failed, or n.
int64_t factor(const double* a, int64_t n, bool lower, double* l) {
  for (int64_t j = 0; j < n; ++j) {
    const double* lj = l + j * n;
    for (int64_t i = j; i < n; ++i) {
      double* li = l + i * n;
      double sum = lower ? a[i * n + j] : a[j * n + i];
      for (int64_t k = 0; k < j; ++k) sum -= li[k] * lj[k];
      if (i > j) {
        li[j] = sum / lj[j];
      } else {
        if (!(sum > 0)) return j;
        l[j * n + j] = std::sqrt(sum);
      }
    }
  }
  return n;
}

}  // namespace

Literal choleskyKernel(const Op& op, const Operands& in, const TensorType& result) {
  auto it = op.attrs.find("lower");
  const bool lower = it != op.attrs.end() && it->second && it->second->kind == Attribute::Kind::Bool && it->second->b;
  const Literal a = convertLiteral(*in[0], ElementType::F64);
  const size_t rank = a.type.dims.size();
  if (rank < 2 || a.type.dims[rank - 1] != a.type.dims[rank - 2]) fail("expects batches of square matrices");
  const int64_t n = a.type.dims[rank - 1];
  const int64_t batches = n == 0 ? 0 : numElements(a.type) / (n * n);
  Literal out = makeLiteral({ElementType::F64, a.type.dims});
  const double* pa = elements<double>(a);
  double* po = elements<double>(out);
  parallelRange(batches, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(1, n * n * n)), [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      double* o = po + b * n * n;
      const int64_t failed = factor(pa + b * n * n, n, lower, o);
      for (int64_t i = failed; i < n; ++i)
        for (int64_t j = failed; j <= i; ++j) o[i * n + j] = std::numeric_limits<double>::quiet_NaN();
      if (lower) continue;
      for (int64_t i = 0; i < n; ++i)  // U = Lᵀ
        for (int64_t j = 0; j < i; ++j) std::swap(o[i * n + j], o[j * n + i]);
    }
  });
  return convertLiteral(out, result.element);
}

}  // namespace tpjrt::cpu
