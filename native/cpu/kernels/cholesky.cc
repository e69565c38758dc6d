// cholesky: for each batch of n×n matrices a, L with L·Lᵀ = a read from its lower triangle (lower), or U
// with Uᵀ·U = a read from its upper triangle; the other triangle of the result is zero. Row by row in
// double precision (each entry is a dot product of two contiguous rows of L), rounded once to the
// element type. A matrix that is not positive definite (a pivot that is not > 0, or NaN) gives a
// result that is NaN throughout, as the spec leaves it to the implementation. Real types only.
#include <cmath>
#include <limits>

#include "base/thread_pool.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

// Factors one matrix into l (row-major n×n, zero above the diagonal); false when a is not positive definite.
bool factor(const double* a, int64_t n, bool lower, double* l) {
  for (int64_t i = 0; i < n; ++i) {
    double* li = l + i * n;
    for (int64_t j = 0; j <= i; ++j) {
      const double* lj = l + j * n;
      double sum = lower ? a[i * n + j] : a[j * n + i];
      for (int64_t k = 0; k < j; ++k) sum -= li[k] * lj[k];
      if (j < i) {
        li[j] = sum / lj[j];
      } else {
        if (!(sum > 0)) return false;
        li[i] = std::sqrt(sum);
      }
    }
  }
  return true;
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
      if (!factor(pa + b * n * n, n, lower, o)) {
        std::fill(o, o + n * n, std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      if (lower) continue;
      for (int64_t i = 0; i < n; ++i)  // U = Lᵀ
        for (int64_t j = 0; j < i; ++j) std::swap(o[i * n + j], o[j * n + i]);
    }
  });
  return convertLiteral(out, result.element);
}

}  // namespace tpjrt::cpu
