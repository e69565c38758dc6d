#include "ir/lower_spec_ops.h"

#include <cstring>
#include <set>
#include <string>

#include "base/error.h"
#include "ir/element_type.h"
#include "ir/op_builder.h"

namespace tpjrt::cpu {
namespace {

const TensorType kIndex{ElementType::S32, {}};

class SpecLowering : public OpBuilder {
 public:
  using OpBuilder::OpBuilder;

  const Attribute* attr(const char* name) const {
    auto it = op_.attrs.find(name);
    return it == op_.attrs.end() ? nullptr : it->second.get();
  }

  int64_t intAttribute(const char* name) const {
    const Attribute* a = attr(name);
    if (!a || a->kind != Attribute::Kind::Int) error(std::string("needs ") + name + " as an integer");
    return a->i;
  }

  // A dimension attribute of an operand of rank `rank`, checked to be in range.
  int64_t dimensionAttribute(const char* name, size_t rank) const {
    const int64_t d = intAttribute(name);
    if (d < 0 || d >= int64_t(rank)) error(std::string(name) + " = " + std::to_string(d) + " is out of range for rank " + std::to_string(rank));
    return d;
  }

  // The elements of an integer dense attribute, row-major.
  std::vector<int64_t> denseInts(const char* name) const {
    const Attribute* a = attr(name);
    if (!a || a->kind != Attribute::Kind::Dense || !isInteger(a->dense.type.element))
      error(std::string("needs ") + name + " as a dense<…> of integers");
    const Literal& l = a->dense;
    const size_t width = byteWidth(l.type.element);
    const int64_t n = numElements(l.type);
    const bool splat = l.bytes.size() == width && n != 1;
    std::vector<int64_t> out;
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = 0;
      std::memcpy(&v, l.bytes.data() + (splat ? 0 : size_t(i) * width), width);
      if (isSignedInt(l.type.element) && width < 8 && (v >> (width * 8 - 1)) & 1) v -= int64_t(1) << (width * 8);
      out.push_back(v);
    }
    return out;
  }

  void sameTypes() const {
    if (op_.operandTypes.size() < op_.resultTypes.size()) error("needs an operand for every result");
    for (size_t i = 0; i < op_.resultTypes.size(); ++i)
      if (op_.resultTypes[i] != op_.operandTypes[i])
        error("result " + std::to_string(i) + " has type " + typeString(op_.resultTypes[i]) + " but its operand " +
              typeString(op_.operandTypes[i]));
  }

  // Each result is its operand (a reshape to its own type is a view: no copy).
  void forwardOperands() {
    sameTypes();
    for (size_t i = 0; i < op_.resultTypes.size(); ++i)
      emit("stablehlo.reshape", {op_.operands[i]}, {op_.operandTypes[i]}, op_.resultTypes[i], {}, op_.results[i]);
  }

  // Custom calls: those that only place values on devices (one device here) pass their operand on;
  // JAX's LAPACK Cholesky and triangular solve are the plugin's own ops.
  void customCall() {
    const Attribute* target = attr("call_target_name");
    const std::string name = target && target->kind == Attribute::Kind::String ? target->s : "";
    static const std::set<std::string> placements = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"};
    if (placements.count(name)) {
      arity(1, 1);
      return forwardOperands();
    }
    if (name == "lapack_spotrf_ffi" || name == "lapack_dpotrf_ffi") return potrf();
    if (name == "lapack_strsm_ffi" || name == "lapack_dtrsm_ffi") return trsm();
    error("the cpu plugin does not run custom call @" + name +
              " (it runs @Sharding, @SPMDFullToShardShape and @SPMDShardToFullShape, which it passes through, and LAPACK's "
              "potrf and trsm as JAX calls them)",
          ErrorCode::Unimplemented);
  }

  // if: the case whose first branch is the true branch.
  void ifAsCase(Op& op) {
    if (op.operandTypes.size() != 1 || op.operandTypes[0] != TensorType{ElementType::Pred, {}})
      error("expects one operand pred of type tensor<i1> (C1)");
    if (op.regions.size() != 2) error("expects a true branch and a false branch");
    const int zero = splat(kIndex, 0), one = splat(kIndex, 1);
    const int index = emit("stablehlo.select", {op.operands[0], zero, one}, {op.operandTypes[0], kIndex, kIndex}, kIndex);
    op.name = "stablehlo.case";
    op.operands = {index};
    op.operandTypes = {kIndex};
    out_.push_back(std::move(op));
  }

  void composite(Op& op) {
    const Attribute* decomposition = attr("decomposition");
    if (!decomposition || decomposition->kind != Attribute::Kind::Symbol)
      error("needs decomposition as a function symbol (@name)");
    op.attrs = {{"callee", symbolAttr(decomposition->s)}};
    op.name = "func.call";
    out_.push_back(std::move(op));
  }

  void dot() {
    arity(2, 1);
    const size_t lhs = op_.operandTypes[0].dims.size(), rhs = op_.operandTypes[1].dims.size();
    if (lhs < 1 || lhs > 2 || rhs < 1 || rhs > 2)
      error("operands " + typeString(op_.operandTypes[0]) + " and " + typeString(op_.operandTypes[1]) + " must be vectors or matrices");
    Attribute numbers;
    numbers.kind = Attribute::Kind::Struct;
    numbers.fields = {{"lhs_batching_dimensions", intsAttr({})},
                      {"rhs_batching_dimensions", intsAttr({})},
                      {"lhs_contracting_dimensions", intsAttr({int64_t(lhs) - 1})},
                      {"rhs_contracting_dimensions", intsAttr({0})}};
    std::map<std::string, AttributePtr> attrs = {{"dot_dimension_numbers", share(std::move(numbers))}};
    if (auto it = op_.attrs.find("precision_config"); it != op_.attrs.end()) attrs["precision_config"] = it->second;
    emit("stablehlo.dot_general", op_.operands, op_.operandTypes, op_.resultTypes[0], attrs, op_.results[0]);
  }

  void dimensionSize() {
    arity(1, 1);
    if (op_.resultTypes[0] != kIndex) error("result type " + typeString(op_.resultTypes[0]) + " should be tensor<i32>");
    const TensorType& x = op_.operandTypes[0];
    const int64_t size = x.dims[size_t(dimensionAttribute("dimension", x.dims.size()))];
    emit("stablehlo.constant", {}, {}, kIndex, {{"value", splatAttr(kIndex, uint64_t(size))}}, op_.results[0]);
  }

  void processIndex() {
    arity(0, 1);
    const TensorType u32{ElementType::U32, {}};
    if (op_.resultTypes[0] != u32) error("result type " + typeString(op_.resultTypes[0]) + " should be tensor<ui32>");
    emit("stablehlo.constant", {}, {}, u32, {{"value", splatAttr(u32, 0)}}, op_.results[0]);
  }

  // The static op that a dynamic one with a static result type is: its first operand (if any) and the
  // attributes that op takes; the operands giving the shape are not read.
  void asStatic(const std::string& target, size_t operands, std::vector<const char*> keep) {
    arity(operands, 1);
    std::map<std::string, AttributePtr> attrs;
    for (const char* key : keep)
      if (auto it = op_.attrs.find(key); it != op_.attrs.end()) attrs[key] = it->second;
    if (target == "stablehlo.iota") {
      const TensorType& r = op_.resultTypes[0];
      dimensionAttribute("iota_dimension", r.dims.size());
      emit(target, {}, {}, r, attrs, op_.results[0]);
    } else {
      emit(target, {op_.operands[0]}, {op_.operandTypes[0]}, op_.resultTypes[0], attrs, op_.results[0]);
    }
  }

  // Collectives over one process: every process group must be {0} (padding -1 allowed).
  void oneProcess(const char* groupsAttr) {
    if (!attr(groupsAttr)) return;
    for (int64_t p : denseInts(groupsAttr))
      if (p != 0 && p != -1) error(std::string(groupsAttr) + " names process " + std::to_string(p) + ", but the program runs on one process");
  }

  void collective() {
    oneProcess("replica_groups");
    if (op_.name == "stablehlo.all_to_all" && attr("split_count") && intAttribute("split_count") != 1)
      error("split_count must be 1 on one process");
    forwardOperands();
  }

  void collectivePermute() {
    arity(1, 1);
    sameTypes();
    const std::vector<int64_t> pairs = denseInts("source_target_pairs");
    bool self = false;
    for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
      if ((pairs[i] != 0 && pairs[i] != -1) || (pairs[i + 1] != 0 && pairs[i + 1] != -1))
        error("source_target_pairs names a process other than 0, but the program runs on one process");
      self = self || (pairs[i] == 0 && pairs[i + 1] == 0);
    }
    const TensorType& t = op_.resultTypes[0];
    if (self) {
      emit("stablehlo.reshape", {op_.operands[0]}, {t}, t, {}, op_.results[0]);
    } else {  // nobody sends to process 0: its result is zeros
      emit("stablehlo.constant", {}, {}, t, {{"value", splatAttr(t, 0)}}, op_.results[0]);
    }
  }

  // x (of type `from`) folded by the element-wise `combiner` over `dims`, starting from the scalar `init`.
  int reduce(int x, const TensorType& from, const TensorType& to, const std::vector<int64_t>& dims, const char* combiner, int init) {
    const TensorType scalar{from.element, {}};
    Op reduce;
    reduce.name = "stablehlo.reduce";
    reduce.line = op_.line;
    reduce.operands = {x, init};
    reduce.operandTypes = {from, scalar};
    reduce.resultTypes = {to};
    reduce.results = {module_.numValues++};
    reduce.attrs = {{"dimensions", intsAttr(dims)}};
    reduce.regions.push_back(binaryRegion(module_, scalar, combiner, op_.line));
    out_.push_back(std::move(reduce));
    return out_.back().results[0];
  }

  int compare(int a, int b, const TensorType& t, const char* direction, const char* type) {
    return emit("stablehlo.compare", {a, b}, {t, t}, {ElementType::Pred, t.dims},
                {{"comparison_direction", symbolAttr(direction)}, {"compare_type", symbolAttr(type)}});
  }

  // --- JAX's LAPACK calls (its CPU linear algebra) -------------------------------------------------

  // A byte flag of mhlo.backend_config (uplo = 76 is 'L'), as its character.
  char lapackFlag(const char* key) const {
    const Attribute* config = attr("mhlo.backend_config");
    if (config && config->kind == Attribute::Kind::Struct)
      if (auto it = config->fields.find(key); it != config->fields.end() && it->second->kind == Attribute::Kind::Int)
        return char(it->second->i);
    error(std::string("needs mhlo.backend_config's ") + key);
  }

  // potrf: the Cholesky factor in the triangle uplo names, the other triangle as it was, and per matrix
  // info = the order of the first leading minor that is not positive definite (0 when none is): the
  // first NaN on the diagonal of the cholesky kernel's result.
  void potrf() {
    arity(1, 2);
    const TensorType& t = op_.operandTypes[0];
    const size_t rank = t.dims.size();
    if (rank < 2 || t.dims[rank - 1] != t.dims[rank - 2] || !isFloat(t.element)) error("operand " + typeString(t) + " must be square float matrices");
    const int64_t n = t.dims[rank - 1];
    TensorType batch{ElementType::S32, t.dims};
    batch.dims.resize(rank - 2);
    if (op_.resultTypes[0] != t || op_.resultTypes[1] != batch)
      error("result types should be " + typeString(t) + " and " + typeString(batch));
    const bool lower = lapackFlag("uplo") == 'L';
    const int factor = emit("stablehlo.cholesky", {op_.operands[0]}, {t}, t, {{"lower", boolAttr(lower)}});
    const TensorType positions{ElementType::S32, t.dims}, flags{ElementType::Pred, t.dims};
    const int row = emit("stablehlo.iota", {}, {}, positions, {{"iota_dimension", intAttr(int64_t(rank) - 2)}});
    const int col = emit("stablehlo.iota", {}, {}, positions, {{"iota_dimension", intAttr(int64_t(rank) - 1)}});
    const int inTriangle = compare(row, col, positions, lower ? "GE" : "LE", "SIGNED");
    emit("stablehlo.select", {inTriangle, factor, op_.operands[0]}, {flags, t, t}, t, {}, op_.results[0]);
    const int failed = emit("stablehlo.and", {compare(row, col, positions, "EQ", "SIGNED"), compare(factor, factor, t, "NE", "FLOAT")}, {flags, flags}, flags);
    const int order = emit("stablehlo.add", {col, splat(positions, 1)}, {positions, positions}, positions);
    const uint64_t none = uint64_t(n + 1);
    const int first = reduce(emit("stablehlo.select", {failed, order, splat(positions, none)}, {flags, positions, positions}, positions),
                             positions, batch, {int64_t(rank) - 2, int64_t(rank) - 1}, "stablehlo.minimum", splat(kIndex, none));
    const int ok = compare(first, splat(batch, none), batch, "EQ", "SIGNED");
    emit("stablehlo.select", {ok, splat(batch, 0), first}, {{ElementType::Pred, batch.dims}, batch, batch}, batch, {}, op_.results[1]);
  }

  // trsm: op(a) x = b (side L) or x op(a) = b, a triangular: StableHLO's triangular_solve.
  void trsm() {
    arity(2, 1);
    const char trans = lapackFlag("trans_x");
    const char* transpose = trans == 'N' ? "NO_TRANSPOSE" : trans == 'T' ? "TRANSPOSE" : "ADJOINT";
    emit("stablehlo.triangular_solve", op_.operands, op_.operandTypes, op_.resultTypes[0],
         {{"left_side", boolAttr(lapackFlag("side") == 'L')}, {"lower", boolAttr(lapackFlag("uplo") == 'L')},
          {"transpose_a", symbolAttr(transpose)}, {"unit_diagonal", boolAttr(lapackFlag("diag") == 'U')}},
         op_.results[0]);
  }

  // --- batch norm ---------------------------------------------------------------------------------

  struct Norm {
    TensorType x;       // the operand's type
    TensorType vec;     // one value per feature
    int64_t feature;    // feature_index
    int64_t count;      // elements per feature
    std::vector<int64_t> others;  // the dimensions summed over
  };

  Norm normOf(size_t features) const {
    Norm n;
    n.x = op_.operandTypes[0];
    if (!isFloat(n.x.element)) error("operand " + typeString(n.x) + " must have a floating-point element type");
    n.feature = dimensionAttribute("feature_index", n.x.dims.size());
    n.vec = {n.x.element, {n.x.dims[size_t(n.feature)]}};
    n.count = n.vec.dims[0] == 0 ? 0 : numElements(n.x) / n.vec.dims[0];
    for (int64_t d = 0; d < int64_t(n.x.dims.size()); ++d)
      if (d != n.feature) n.others.push_back(d);
    for (size_t i = 1; i <= features; ++i)
      if (op_.operandTypes[i] != n.vec) error("operand " + std::to_string(i) + " " + typeString(op_.operandTypes[i]) + " should be " + typeString(n.vec));
    return n;
  }

  // An f32 attribute: its value is the float nearest to what is written.
  double epsilon() const {
    const Attribute* a = attr("epsilon");
    if (!a || (a->kind != Attribute::Kind::Float && a->kind != Attribute::Kind::Int)) error("needs epsilon as a float");
    return double(float(a->kind == Attribute::Kind::Float ? a->f : double(a->i)));
  }

  int binary(const char* name, int a, int b, const TensorType& t) { return emit(name, {a, b}, {t, t}, t); }
  int constant(const TensorType& t, double v) { return splat(t, floatBits(t.element, v)); }
  int spread(const Norm& n, int v) {
    return emit("stablehlo.broadcast_in_dim", {v}, {n.vec}, n.x, {{"broadcast_dimensions", intsAttr({n.feature})}});
  }

  // Σ of x over every dimension but the feature's.
  int sum(const Norm& n, int x) { return reduce(x, n.x, n.vec, n.others, "stablehlo.add", constant({n.x.element, {}}, 0)); }

  int mean(const Norm& n, int x) { return binary("stablehlo.divide", sum(n, x), constant(n.vec, double(n.count)), n.vec); }

  // 1 / sqrt(variance + epsilon), per feature.
  int inverseDeviation(const Norm& n, int variance) {
    const int shifted = binary("stablehlo.add", variance, constant(n.vec, epsilon()), n.vec);
    return emit("stablehlo.rsqrt", {shifted}, {n.vec}, n.vec);
  }

  // (x − mean)·(scale / deviation) + offset, written to result id `id`.
  void normalize(const Norm& n, int x, int scale, int offset, int mean, int variance, int id) {
    const int factor = binary("stablehlo.multiply", scale, inverseDeviation(n, variance), n.vec);
    const int centered = binary("stablehlo.subtract", x, spread(n, mean), n.x);
    const int scaled = binary("stablehlo.multiply", centered, spread(n, factor), n.x);
    emit("stablehlo.add", {scaled, spread(n, offset)}, {n.x, n.x}, n.x, {}, id);
  }

  void batchNormInference() {
    arity(5, 1);
    const Norm n = normOf(4);
    if (op_.resultTypes[0] != n.x) error("result type " + typeString(op_.resultTypes[0]) + " should be " + typeString(n.x));
    const auto& in = op_.operands;
    normalize(n, in[0], in[1], in[2], in[3], in[4], op_.results[0]);
  }

  void batchNormTraining() {
    arity(3, 3);
    const Norm n = normOf(2);
    if (op_.resultTypes != std::vector<TensorType>{n.x, n.vec, n.vec})
      error("result types should be " + typeString(n.x) + ", " + typeString(n.vec) + ", " + typeString(n.vec));
    const auto& in = op_.operands;
    const int m = mean(n, in[0]);
    const int centered = binary("stablehlo.subtract", in[0], spread(n, m), n.x);
    const int v = mean(n, binary("stablehlo.multiply", centered, centered, n.x));
    normalize(n, in[0], in[1], in[2], m, v, op_.results[0]);
    emit("stablehlo.reshape", {m}, {n.vec}, n.vec, {}, op_.results[1]);
    emit("stablehlo.reshape", {v}, {n.vec}, n.vec, {}, op_.results[2]);
  }

  // With x̂ = (x − mean)/σ: d offset = Σ dy, d scale = Σ dy·x̂, dx = (scale/σ)·(dy − mean(dy) − x̂·mean(dy·x̂)).
  void batchNormGrad() {
    arity(5, 3);
    const Norm n = normOf(3);
    if (op_.operandTypes[4] != n.x) error("grad_output " + typeString(op_.operandTypes[4]) + " should be " + typeString(n.x));
    if (op_.resultTypes != std::vector<TensorType>{n.x, n.vec, n.vec})
      error("result types should be " + typeString(n.x) + ", " + typeString(n.vec) + ", " + typeString(n.vec));
    const auto& in = op_.operands;
    const int x = in[0], scale = in[1], dy = in[4];
    const int inverse = inverseDeviation(n, in[3]);
    const int centered = binary("stablehlo.subtract", x, spread(n, in[2]), n.x);
    const int normalized = binary("stablehlo.multiply", centered, spread(n, inverse), n.x);
    const int dOffset = sum(n, dy);
    const int dScale = sum(n, binary("stablehlo.multiply", dy, normalized, n.x));
    const int count = constant(n.vec, double(n.count));
    const int meanDy = binary("stablehlo.divide", dOffset, count, n.vec);
    const int meanDyX = binary("stablehlo.divide", dScale, count, n.vec);
    const int inner = binary("stablehlo.subtract", binary("stablehlo.subtract", dy, spread(n, meanDy), n.x),
                             binary("stablehlo.multiply", normalized, spread(n, meanDyX), n.x), n.x);
    const int factor = binary("stablehlo.multiply", scale, inverse, n.vec);
    emit("stablehlo.multiply", {spread(n, factor), inner}, {n.x, n.x}, n.x, {}, op_.results[0]);
    emit("stablehlo.reshape", {dScale}, {n.vec}, n.vec, {}, op_.results[1]);
    emit("stablehlo.reshape", {dOffset}, {n.vec}, n.vec, {}, op_.results[2]);
  }
};

const std::set<std::string>& collectives() {
  static const std::set<std::string> ops = {"stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter",
                                            "stablehlo.all_to_all", "stablehlo.collective_broadcast"};
  return ops;
}

void lowerRegion(Module& module, Region& region) {
  std::vector<Op> out;
  out.reserve(region.ops.size());
  for (Op& op : region.ops) {
    for (Region& nested : op.regions) lowerRegion(module, nested);
    const std::string& name = op.name;
    SpecLowering l(module, op, out);
    if (name == "stablehlo.if") {
      l.ifAsCase(op);
    } else if (name == "stablehlo.composite") {
      l.composite(op);
    } else if (name == "stablehlo.optimization_barrier" || name == "sdy.sharding_constraint" || name == "sdy.reshard") {
      l.forwardOperands();
    } else if (name == "stablehlo.custom_call") {
      l.customCall();
    } else if (name == "stablehlo.dot") {
      l.dot();
    } else if (name == "stablehlo.get_dimension_size") {
      l.dimensionSize();
    } else if (name == "stablehlo.replica_id" || name == "stablehlo.partition_id") {
      l.processIndex();
    } else if (name == "stablehlo.dynamic_iota") {
      l.asStatic("stablehlo.iota", 1, {"iota_dimension"});
    } else if (name == "stablehlo.dynamic_broadcast_in_dim") {
      l.asStatic("stablehlo.broadcast_in_dim", 2, {"broadcast_dimensions"});
    } else if (name == "stablehlo.dynamic_reshape") {
      l.asStatic("stablehlo.reshape", 2, {});
    } else if (collectives().count(name)) {
      l.collective();
    } else if (name == "stablehlo.collective_permute") {
      l.collectivePermute();
    } else if (name == "stablehlo.batch_norm_inference") {
      l.batchNormInference();
    } else if (name == "stablehlo.batch_norm_training") {
      l.batchNormTraining();
    } else if (name == "stablehlo.batch_norm_grad") {
      l.batchNormGrad();
    } else {
      out.push_back(std::move(op));
    }
  }
  region.ops = std::move(out);
}

}  // namespace

void lowerSpecOps(Module& module) {
  for (Function& f : module.functions) lowerRegion(module, f.body);
}

}  // namespace tpjrt::cpu
