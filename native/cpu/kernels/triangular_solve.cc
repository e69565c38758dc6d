// triangular_solve: op(a) x = b (left_side) or x op(a) = b, for each batch of matrices, by forward or
// back substitution in double precision, rounded once to the element type. Only the triangle of a that
// `lower` names is read; with unit_diagonal its diagonal counts as ones. Real types only (ADJOINT is
// TRANSPOSE).
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

bool boolAttr(const Op& op, const char* name) {
  auto it = op.attrs.find(name);
  if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Bool)
    fail(std::string("attribute ") + name + " must be true or false");
  return it->second->b;
}

}  // namespace

Literal triangularSolveKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal a = convertLiteral(*in[0], ElementType::F64);
  const Literal b = convertLiteral(*in[1], ElementType::F64);
  const bool left = boolAttr(op, "left_side"), lower = boolAttr(op, "lower"), unit = boolAttr(op, "unit_diagonal");
  auto t = op.attrs.find("transpose_a");
  if (t == op.attrs.end() || !t->second || t->second->kind != Attribute::Kind::Symbol) fail("missing attribute transpose_a");
  const bool transpose = t->second->s != "NO_TRANSPOSE";
  const size_t rank = a.type.dims.size();
  if (rank < 2 || b.type.dims.size() != rank) fail("a and b need one rank of at least 2");
  const int64_t m = a.type.dims[rank - 1];
  const int64_t rows = b.type.dims[rank - 2], cols = b.type.dims[rank - 1];
  const int64_t batches = m == 0 ? 0 : numElements(a.type) / (m * m);
  // T = op(a) is lower triangular when a's triangle is the lower one, unless transposed. The right side
  // x T = b is Tᵀ xᵀ = bᵀ: the same substitution over the rows of b with T read transposed.
  const bool lowerT = lower != transpose;
  const bool forward = left ? lowerT : !lowerT;
  const int64_t systems = left ? cols : rows;
  const int64_t stride = left ? cols : 1;  // between the elements of one system in b; systems start at s·(left ? 1 : cols)
  Literal x = makeLiteral({ElementType::F64, b.type.dims});
  const double* pa = elements<double>(a);
  const double* pb = elements<double>(b);
  double* px = elements<double>(x);
  for (int64_t p = 0; p < batches; ++p) {
    const double* A = pa + p * m * m;
    // S(i, k): the coefficient of unknown k in equation i of one system: T(i, k), or T(k, i) on the right.
    auto S = [&](int64_t i, int64_t k) {
      const int64_t r = left ? i : k, c = left ? k : i;
      return transpose ? A[c * m + r] : A[r * m + c];
    };
    for (int64_t s = 0; s < systems; ++s) {
      const int64_t base = p * rows * cols + s * (left ? 1 : cols);
      for (int64_t n = 0; n < m; ++n) {
        const int64_t i = forward ? n : m - 1 - n;
        double sum = pb[base + i * stride];
        for (int64_t q = 0; q < n; ++q) {
          const int64_t k = forward ? q : m - 1 - q;
          sum -= S(i, k) * px[base + k * stride];
        }
        px[base + i * stride] = unit ? sum : sum / S(i, i);
      }
    }
  }
  return convertLiteral(x, result.element);
}

}  // namespace tpjrt::cpu
