// One type rule per supported op, after the constraints (C1, C2, …) of the StableHLO spec. The table
// at the bottom is the list of ops the interpreter runs; anything else is "unsupported op".
#include <algorithm>
#include <map>
#include <set>

#include "base/error.h"
#include "ir/element_type.h"
#include "ir/verifier_internal.h"

namespace tpjrt::cpu {

void OpCheck::fail(const std::string& message) const {
  tpjrt::cpu::fail("line " + std::to_string(op.line) + ": " + op.name + ": " + message);
}

void OpCheck::arity(size_t operands, size_t results) const {
  if (op.operandTypes.size() != operands)
    fail("expects " + std::to_string(operands) + " operands, got " + std::to_string(op.operandTypes.size()));
  if (op.resultTypes.size() != results)
    fail("expects " + std::to_string(results) + " results, got " + std::to_string(op.resultTypes.size()));
}

const Attribute* OpCheck::optional(const char* key) const {
  auto it = op.attrs.find(key);
  return it == op.attrs.end() || !it->second ? nullptr : it->second.get();
}

const std::vector<int64_t>& OpCheck::intList(const char* key) const {
  const Attribute* a = optional(key);
  if (!a) fail(std::string("missing attribute ") + key);
  if (a->kind != Attribute::Kind::I64Array) fail(std::string("attribute ") + key + " must be an array<i64: …>");
  return a->ints;
}

int64_t OpCheck::intAttr(const char* key) const {
  const Attribute* a = optional(key);
  if (!a) fail(std::string("missing attribute ") + key);
  if (a->kind != Attribute::Kind::Int) fail(std::string("attribute ") + key + " must be an integer");
  return a->i;
}

std::string OpCheck::symbol(const char* key) const {
  const Attribute* a = optional(key);
  if (!a) fail(std::string("missing attribute ") + key);
  if (a->kind != Attribute::Kind::Symbol) fail(std::string("attribute ") + key + " must be a keyword");
  return a->s;
}

namespace {

using ElementRule = bool (*)(ElementType);

bool anyElement(ElementType) { return true; }
bool numeric(ElementType t) { return isInteger(t) || isFloat(t); }
bool floating(ElementType t) { return isFloat(t); }
bool integer(ElementType t) { return isInteger(t); }
bool boolOrInteger(ElementType t) { return t == ElementType::Pred || isInteger(t); }
bool signedOrFloat(ElementType t) { return isSignedInt(t) || isFloat(t); }

const char* describe(ElementRule rule) {
  if (rule == numeric) return "an integer or floating-point";
  if (rule == floating) return "a floating-point";
  if (rule == integer) return "an integer";
  if (rule == boolOrInteger) return "a boolean or integer";
  if (rule == signedOrFloat) return "a signed integer or floating-point";
  return "any";
}

void checkElement(const OpCheck& c, const TensorType& t, ElementRule rule) {
  if (!rule(t.element)) c.fail("operand type " + typeString(t) + " must have " + describe(rule) + " element type");
}

void resultIs(const OpCheck& c, const TensorType& expected) {
  if (c.out() != expected) c.fail("result type " + typeString(c.out()) + " should be " + typeString(expected));
}

std::string dimList(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t rankOf(const TensorType& t) { return static_cast<int64_t>(t.dims.size()); }

void dimensionsInRange(const OpCheck& c, const std::vector<int64_t>& dims, int64_t rank, const char* what) {
  std::set<int64_t> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank) c.fail(std::string(what) + " " + dimList(dims) + " out of range for rank " + std::to_string(rank));
    if (!seen.insert(d).second) c.fail(std::string(what) + " " + dimList(dims) + " repeat dimension " + std::to_string(d));
  }
}

template <ElementRule rule>
void unary(const OpCheck& c) {
  c.arity(1, 1);
  checkElement(c, c.in(0), rule);
  if (c.out() != c.in(0)) c.fail("result type " + typeString(c.out()) + " differs from operand type " + typeString(c.in(0)));
}

template <ElementRule rule>
void binary(const OpCheck& c) {
  c.arity(2, 1);
  if (c.in(0) != c.in(1))
    c.fail("operand types " + typeString(c.in(0)) + " and " + typeString(c.in(1)) + " differ");
  checkElement(c, c.in(0), rule);
  if (c.out() != c.in(0)) c.fail("result type " + typeString(c.out()) + " differs from operand type " + typeString(c.in(0)));
}

void isFinite(const OpCheck& c) {
  c.arity(1, 1);
  checkElement(c, c.in(0), floating);
  resultIs(c, TensorType{ElementType::Pred, c.in(0).dims});
}

void convert(const OpCheck& c) {
  c.arity(1, 1);
  if (c.out().dims != c.in(0).dims)
    c.fail("result type " + typeString(c.out()) + " must have the shape of " + typeString(c.in(0)));
}

void bitcastConvert(const OpCheck& c) {
  c.arity(1, 1);
  const TensorType& a = c.in(0);
  const TensorType& r = c.out();
  if ((a.element == ElementType::Pred) != (r.element == ElementType::Pred))
    c.fail("cannot bitcast between " + typeString(a) + " and " + typeString(r));
  size_t wa = byteWidth(a.element), wr = byteWidth(r.element);
  std::vector<int64_t> expected = a.dims;
  if (wa > wr) {
    expected.push_back(static_cast<int64_t>(wa / wr));
  } else if (wa < wr) {
    if (a.dims.empty() || a.dims.back() != static_cast<int64_t>(wr / wa))
      c.fail("operand " + typeString(a) + " must end in a dimension of " + std::to_string(wr / wa) + " to bitcast to " +
             mlirName(r.element).data());
    expected.pop_back();
  }
  if (r.dims != expected) c.fail("result type " + typeString(r) + " does not fit operand " + typeString(a));
}

void compare(const OpCheck& c) {
  c.arity(2, 1);
  if (c.in(0) != c.in(1))
    c.fail("operand types " + typeString(c.in(0)) + " and " + typeString(c.in(1)) + " differ");
  resultIs(c, TensorType{ElementType::Pred, c.in(0).dims});
  static const std::set<std::string> directions = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  std::string direction = c.symbol("comparison_direction");
  if (!directions.count(direction)) c.fail("unknown comparison direction '" + direction + "'");
  if (!c.optional("compare_type")) return;
  std::string type = c.symbol("compare_type");
  ElementType e = c.in(0).element;
  bool ok = type == "SIGNED"     ? isSignedInt(e)
            : type == "UNSIGNED" ? isUnsignedInt(e) || e == ElementType::Pred
            : type == "FLOAT" || type == "TOTALORDER" ? isFloat(e)
                                                      : false;
  if (!ok) c.fail("compare type '" + type + "' does not fit operand type " + typeString(c.in(0)));
}

void select(const OpCheck& c) {
  c.arity(3, 1);
  const TensorType& pred = c.in(0);
  if (pred.element != ElementType::Pred) c.fail("predicate type " + typeString(pred) + " must have element type i1");
  if (c.in(1) != c.in(2))
    c.fail("on_true and on_false types " + typeString(c.in(1)) + " and " + typeString(c.in(2)) + " differ");
  if (!pred.dims.empty() && pred.dims != c.in(1).dims)
    c.fail("predicate type " + typeString(pred) + " must be 0-d or have the shape of " + typeString(c.in(1)));
  resultIs(c, c.in(1));
}

void clamp(const OpCheck& c) {
  c.arity(3, 1);
  const TensorType& x = c.in(1);
  for (size_t i : {0u, 2u}) {
    const TensorType& bound = c.in(i);
    if (!bound.dims.empty() && bound.dims != x.dims)
      c.fail((i == 0 ? "min " : "max ") + typeString(bound) + " must be 0-d or have the shape of " + typeString(x));
    if (bound.element != x.element)
      c.fail((i == 0 ? "min " : "max ") + typeString(bound) + " and operand " + typeString(x) + " element types differ");
  }
  resultIs(c, x);  // any element type, i1 included (false < true)
}

void constant(const OpCheck& c) {
  c.arity(0, 1);
  const Attribute* v = c.optional("value");
  if (!v || v->kind != Attribute::Kind::Dense) c.fail("missing dense attribute value");
  if (v->dense.type != c.out())
    c.fail("value type " + typeString(v->dense.type) + " differs from result type " + typeString(c.out()));
  const size_t width = byteWidth(c.out().element), bytes = v->dense.bytes.size();
  if (bytes != static_cast<size_t>(numElements(c.out())) * width && !(bytes == width && numElements(c.out()) > 0))
    c.fail("value holds the wrong number of bytes");
}

void iota(const OpCheck& c) {
  c.arity(0, 1);
  int64_t d = c.intAttr("iota_dimension");
  if (d < 0 || d >= rankOf(c.out()))
    c.fail("iota_dimension " + std::to_string(d) + " is out of range for " + typeString(c.out()));
  if (!numeric(c.out().element)) c.fail("result type " + typeString(c.out()) + " must be integer or floating-point");
}

void broadcastInDim(const OpCheck& c) {
  c.arity(1, 1);
  const auto& dims = c.intList("broadcast_dimensions");
  const TensorType& a = c.in(0);
  const TensorType& r = c.out();
  if (a.element != r.element) c.fail("result type " + typeString(r) + " must keep the element type of " + typeString(a));
  if (rankOf(a) != static_cast<int64_t>(dims.size()))
    c.fail("broadcast_dimensions " + dimList(dims) + " must have one entry per dimension of " + typeString(a));
  dimensionsInRange(c, dims, rankOf(r), "broadcast_dimensions");
  for (size_t i = 0; i < dims.size(); ++i)
    if (a.dims[i] != 1 && a.dims[i] != r.dims[dims[i]])
      c.fail("operand dimension " + std::to_string(i) + " of " + typeString(a) + " cannot broadcast to dimension " +
             std::to_string(dims[i]) + " of " + typeString(r));
}

void reshape(const OpCheck& c) {
  c.arity(1, 1);
  if (c.in(0).element != c.out().element || numElements(c.in(0)) != numElements(c.out()))
    c.fail("cannot reshape " + typeString(c.in(0)) + " to " + typeString(c.out()));
}

void transpose(const OpCheck& c) {
  c.arity(1, 1);
  const auto& perm = c.intList("permutation");
  const TensorType& a = c.in(0);
  if (static_cast<int64_t>(perm.size()) != rankOf(a))
    c.fail("permutation " + dimList(perm) + " must have one entry per dimension of " + typeString(a));
  dimensionsInRange(c, perm, rankOf(a), "permutation");
  TensorType expected{a.element, {}};
  for (int64_t p : perm) expected.dims.push_back(a.dims[p]);
  resultIs(c, expected);
}

void reverse(const OpCheck& c) {
  c.arity(1, 1);
  dimensionsInRange(c, c.intList("dimensions"), rankOf(c.in(0)), "dimensions");
  resultIs(c, c.in(0));
}

void slice(const OpCheck& c) {
  c.arity(1, 1);
  const auto& start = c.intList("start_indices");
  const auto& limit = c.intList("limit_indices");
  const auto& strides = c.intList("strides");
  const TensorType& a = c.in(0);
  size_t rank = a.dims.size();
  if (start.size() != rank || limit.size() != rank || strides.size() != rank)
    c.fail("start_indices, limit_indices and strides need one entry per dimension of " + typeString(a));
  TensorType expected{a.element, {}};
  for (size_t i = 0; i < rank; ++i) {
    if (start[i] < 0 || start[i] > limit[i] || limit[i] > a.dims[i])
      c.fail("slice [" + std::to_string(start[i]) + ":" + std::to_string(limit[i]) + "] is out of bounds for dimension " +
             std::to_string(i) + " of " + typeString(a));
    if (strides[i] <= 0) c.fail("stride " + std::to_string(strides[i]) + " must be positive");
    int64_t span = limit[i] - start[i];
    expected.dims.push_back(span / strides[i] + (span % strides[i] != 0));
  }
  resultIs(c, expected);
}

void startIndices(const OpCheck& c, size_t first, const TensorType& operand) {
  if (c.op.operandTypes.size() != first + operand.dims.size())
    c.fail("needs one start index per dimension of " + typeString(operand) + " (" + std::to_string(operand.dims.size()) +
           "), got " + std::to_string(c.op.operandTypes.size() - std::min(first, c.op.operandTypes.size())));
  for (size_t i = first; i < c.op.operandTypes.size(); ++i) {
    const TensorType& t = c.in(i);
    if (!t.dims.empty() || !isInteger(t.element)) c.fail("start index type " + typeString(t) + " must be a 0-d integer");
    if (t != c.in(first)) c.fail("start index types " + typeString(c.in(first)) + " and " + typeString(t) + " differ");
  }
}

void dynamicSlice(const OpCheck& c) {
  if (c.op.operandTypes.empty() || c.op.resultTypes.size() != 1) c.fail("expects an operand, start indices and one result");
  const TensorType& a = c.in(0);
  startIndices(c, 1, a);
  const auto& sizes = c.intList("slice_sizes");
  if (sizes.size() != a.dims.size()) c.fail("slice_sizes " + dimList(sizes) + " must have one entry per dimension of " + typeString(a));
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] < 0 || sizes[i] > a.dims[i]) c.fail("slice_sizes " + dimList(sizes) + " do not fit " + typeString(a));
  resultIs(c, TensorType{a.element, sizes});
}

void dynamicUpdateSlice(const OpCheck& c) {
  if (c.op.operandTypes.size() < 2 || c.op.resultTypes.size() != 1) c.fail("expects an operand, an update, start indices and one result");
  const TensorType& a = c.in(0);
  const TensorType& u = c.in(1);
  startIndices(c, 2, a);
  if (u.element != a.element || u.dims.size() != a.dims.size())
    c.fail("update " + typeString(u) + " must have the rank and element type of " + typeString(a));
  for (size_t i = 0; i < a.dims.size(); ++i)
    if (u.dims[i] > a.dims[i]) c.fail("update " + typeString(u) + " is larger than " + typeString(a));
  resultIs(c, a);
}

void concatenate(const OpCheck& c) {
  if (c.op.operandTypes.empty() || c.op.resultTypes.size() != 1) c.fail("expects at least one operand and one result");
  int64_t d = c.intAttr("dimension");
  const TensorType& first = c.in(0);
  if (d < 0 || d >= rankOf(first)) c.fail("dimension " + std::to_string(d) + " is out of range for " + typeString(first));
  TensorType expected = first;
  expected.dims[d] = 0;
  for (const TensorType& t : c.op.operandTypes) {
    bool ok = t.element == first.element && t.dims.size() == first.dims.size();
    for (size_t i = 0; ok && i < t.dims.size(); ++i) ok = static_cast<int64_t>(i) == d || t.dims[i] == first.dims[i];
    if (!ok) c.fail("operand types " + typeString(first) + " and " + typeString(t) + " cannot be concatenated along " + std::to_string(d));
    expected.dims[d] += t.dims[d];
  }
  resultIs(c, expected);
}

void pad(const OpCheck& c) {
  c.arity(2, 1);
  const TensorType& a = c.in(0);
  if (c.in(1) != TensorType{a.element, {}}) c.fail("padding value " + typeString(c.in(1)) + " must be a 0-d " + mlirName(a.element).data());
  const auto& low = c.intList("edge_padding_low");
  const auto& high = c.intList("edge_padding_high");
  const auto& interior = c.intList("interior_padding");
  if (low.size() != a.dims.size() || high.size() != a.dims.size() || interior.size() != a.dims.size())
    c.fail("edge_padding_low, edge_padding_high and interior_padding need one entry per dimension of " + typeString(a));
  TensorType expected{a.element, {}};
  for (size_t i = 0; i < a.dims.size(); ++i) {
    if (interior[i] < 0) c.fail("interior_padding " + dimList(interior) + " must not be negative");
    constexpr int64_t kLimit = int64_t{1} << 40;
    if (low[i] > kLimit || low[i] < -kLimit || high[i] > kLimit || high[i] < -kLimit || interior[i] > kLimit)
      c.fail("padding of dimension " + std::to_string(i) + " is too large");
    int64_t size = low[i] + high[i] + a.dims[i] + std::max<int64_t>(a.dims[i] - 1, 0) * interior[i];
    if (size < 0) c.fail("padding removes more than dimension " + std::to_string(i) + " of " + typeString(a) + " holds");
    expected.dims.push_back(size);
  }
  resultIs(c, expected);
}

void dotGeneral(const OpCheck& c) {
  c.arity(2, 1);
  const Attribute* numbers = c.optional("dot_dimension_numbers");
  if (!numbers || numbers->kind != Attribute::Kind::Struct) c.fail("missing attribute dot_dimension_numbers");
  auto list = [&](const char* key) -> const std::vector<int64_t>& {
    auto it = numbers->fields.find(key);
    if (it == numbers->fields.end() || it->second->kind != Attribute::Kind::I64Array)
      c.fail(std::string("dot_dimension_numbers needs ") + key + " as a list of integers");
    return it->second->ints;
  };
  const auto& lb = list("lhs_batching_dimensions");
  const auto& rb = list("rhs_batching_dimensions");
  const auto& lc = list("lhs_contracting_dimensions");
  const auto& rc = list("rhs_contracting_dimensions");
  const TensorType& lhs = c.in(0);
  const TensorType& rhs = c.in(1);
  if (lb.size() != rb.size()) c.fail("batching dimensions " + dimList(lb) + " and " + dimList(rb) + " differ in length");
  if (lc.size() != rc.size()) c.fail("contracting dimensions " + dimList(lc) + " and " + dimList(rc) + " differ in length");
  std::vector<int64_t> lhsUsed = lb, rhsUsed = rb;
  lhsUsed.insert(lhsUsed.end(), lc.begin(), lc.end());
  rhsUsed.insert(rhsUsed.end(), rc.begin(), rc.end());
  dimensionsInRange(c, lhsUsed, rankOf(lhs), "lhs batching and contracting dimensions");
  dimensionsInRange(c, rhsUsed, rankOf(rhs), "rhs batching and contracting dimensions");
  for (size_t i = 0; i < lb.size(); ++i)
    if (lhs.dims[lb[i]] != rhs.dims[rb[i]])
      c.fail("batching dimension sizes differ: " + typeString(lhs) + " and " + typeString(rhs));
  for (size_t i = 0; i < lc.size(); ++i)
    if (lhs.dims[lc[i]] != rhs.dims[rc[i]])
      c.fail("contracting dimension sizes differ: " + typeString(lhs) + " and " + typeString(rhs));
  // Element types may all differ (i8 x i8 -> i32, f32 x bf16 -> f32): StableHLO's verifier does not
  // enforce C13, and XLA computes in the most precise of the three.
  if (const Attribute* precision = c.optional("precision_config")) {
    size_t n = precision->kind == Attribute::Kind::Array ? precision->items.size()
               : precision->kind == Attribute::Kind::I64Array && precision->ints.empty() ? 0
                                                                                       : 1;
    if (n != 0 && n != 2) c.fail("precision_config must name 0 or 2 precisions");
    for (size_t i = 0; precision->kind == Attribute::Kind::Array && i < n; ++i) {
      const Attribute& p = *precision->items[i];
      if (p.kind != Attribute::Kind::Symbol || (p.s != "DEFAULT" && p.s != "HIGH" && p.s != "HIGHEST"))
        c.fail("precision_config entries must be DEFAULT, HIGH or HIGHEST");
    }
  }
  TensorType expected{c.out().element, {}};
  for (int64_t d : lb) expected.dims.push_back(lhs.dims[d]);
  for (int64_t d = 0; d < rankOf(lhs); ++d)
    if (std::find(lhsUsed.begin(), lhsUsed.end(), d) == lhsUsed.end()) expected.dims.push_back(lhs.dims[d]);
  for (int64_t d = 0; d < rankOf(rhs); ++d)
    if (std::find(rhsUsed.begin(), rhsUsed.end(), d) == rhsUsed.end()) expected.dims.push_back(rhs.dims[d]);
  resultIs(c, expected);
}

void reduce(const OpCheck& c) {
  size_t total = c.op.operandTypes.size();
  size_t n = total / 2;
  if (total == 0 || total % 2 != 0) c.fail("expects inputs and as many init values, got " + std::to_string(total) + " operands");
  if (c.op.resultTypes.size() != n)
    c.fail("expects " + std::to_string(n) + " results, got " + std::to_string(c.op.resultTypes.size()));
  const auto& dims = c.intList("dimensions");
  const TensorType& first = c.in(0);
  dimensionsInRange(c, dims, rankOf(first), "dimensions");
  std::vector<TensorType> bodyTypes;
  for (size_t i = 0; i < n; ++i) {
    const TensorType& input = c.in(i);
    const TensorType& init = c.in(n + i);
    if (input.dims != first.dims) c.fail("input types " + typeString(first) + " and " + typeString(input) + " differ in shape");
    if (init != TensorType{input.element, {}})
      c.fail("init value " + typeString(init) + " must be a 0-d tensor of the element type of " + typeString(input));
    TensorType expected{init.element, {}};
    for (int64_t d = 0; d < rankOf(input); ++d)
      if (std::find(dims.begin(), dims.end(), d) == dims.end()) expected.dims.push_back(input.dims[d]);
    if (c.out(i) != expected) c.fail("result type " + typeString(c.out(i)) + " should be " + typeString(expected));
    bodyTypes.push_back(init);
  }
  const Region& body = c.op.regions.at(0);
  std::vector<TensorType> argTypes = bodyTypes;
  argTypes.insert(argTypes.end(), bodyTypes.begin(), bodyTypes.end());
  if (body.argTypes != argTypes)
    c.fail("body arguments (" + typeList(body.argTypes) + ") should be (" + typeList(argTypes) + ")");
  verifyRegion(c.module, body, "stablehlo.return", bodyTypes, "the stablehlo.reduce body", c.op.line);
  verifyReduceBody(body);
}

void reducePrecision(const OpCheck& c) {
  c.arity(1, 1);
  checkElement(c, c.in(0), floating);
  if (c.out() != c.in(0)) c.fail("result type " + typeString(c.out()) + " differs from operand type " + typeString(c.in(0)));
  if (c.intAttr("exponent_bits") < 1) c.fail("exponent_bits must be at least 1 (C2)");
  if (c.intAttr("mantissa_bits") < 0) c.fail("mantissa_bits must be at least 0 (C3)");
}

void triangularSolve(const OpCheck& c) {
  c.arity(2, 1);
  const TensorType& a = c.in(0);
  const TensorType& b = c.in(1);
  checkElement(c, a, floating);
  if (a.element != b.element) c.fail("a " + typeString(a) + " and b " + typeString(b) + " must have one element type (C1)");
  for (const char* key : {"left_side", "lower", "unit_diagonal"}) {
    const Attribute* flag = c.optional(key);
    if (!flag || flag->kind != Attribute::Kind::Bool) c.fail(std::string("attribute ") + key + " must be true or false");
  }
  const std::string transpose = c.symbol("transpose_a");
  if (transpose != "NO_TRANSPOSE" && transpose != "TRANSPOSE" && transpose != "ADJOINT")
    c.fail("transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, got " + transpose);
  const size_t rank = a.dims.size();
  if (rank < 2 || b.dims.size() != rank) c.fail("a " + typeString(a) + " and b " + typeString(b) + " need one rank of at least 2 (C2)");
  const bool left = c.optional("left_side")->b;
  const int64_t m = a.dims[rank - 1];
  bool fits = a.dims[rank - 2] == m && b.dims[left ? rank - 2 : rank - 1] == m;
  for (size_t d = 0; d + 2 < rank; ++d) fits = fits && a.dims[d] == b.dims[d];
  if (!fits)
    c.fail("a " + typeString(a) + " must be batches of square matrices whose size is the " + (left ? "rows" : "columns") +
           " of b " + typeString(b) + " (C3)");
  if (c.out() != b) c.fail("result type " + typeString(c.out()) + " should be " + typeString(b) + " (C4)");
}

void cholesky(const OpCheck& c) {
  c.arity(1, 1);
  const TensorType& a = c.in(0);
  checkElement(c, a, floating);
  const size_t rank = a.dims.size();
  if (rank < 2 || a.dims[rank - 1] != a.dims[rank - 2]) c.fail("a " + typeString(a) + " must be batches of square matrices (C2)");
  if (c.out() != a) c.fail("result type " + typeString(c.out()) + " should be " + typeString(a) + " (C1)");
  const Attribute* lower = c.optional("lower");
  if (lower && lower->kind != Attribute::Kind::Bool) c.fail("attribute lower must be true or false");
}

const std::map<std::string, OpRule>& rules() {
  static const std::map<std::string, OpRule> table = {
      {"stablehlo.constant", constant},
      {"stablehlo.iota", iota},
      {"stablehlo.convert", convert},
      {"stablehlo.bitcast_convert", bitcastConvert},
      {"stablehlo.add", binary<anyElement>},
      {"stablehlo.subtract", binary<numeric>},
      {"stablehlo.multiply", binary<anyElement>},
      {"stablehlo.divide", binary<numeric>},
      {"stablehlo.remainder", binary<numeric>},
      {"stablehlo.power", binary<numeric>},
      {"stablehlo.maximum", binary<anyElement>},
      {"stablehlo.minimum", binary<anyElement>},
      {"stablehlo.atan2", binary<floating>},
      {"stablehlo.and", binary<boolOrInteger>},
      {"stablehlo.or", binary<boolOrInteger>},
      {"stablehlo.xor", binary<boolOrInteger>},
      {"stablehlo.shift_left", binary<integer>},
      {"stablehlo.shift_right_arithmetic", binary<integer>},
      {"stablehlo.shift_right_logical", binary<integer>},
      {"stablehlo.not", unary<boolOrInteger>},
      {"stablehlo.negate", unary<numeric>},
      {"stablehlo.abs", unary<signedOrFloat>},
      {"stablehlo.sign", unary<signedOrFloat>},
      {"stablehlo.popcnt", unary<integer>},
      {"stablehlo.count_leading_zeros", unary<integer>},
      {"stablehlo.exponential", unary<floating>},
      {"stablehlo.exponential_minus_one", unary<floating>},
      {"stablehlo.log", unary<floating>},
      {"stablehlo.log_plus_one", unary<floating>},
      {"stablehlo.logistic", unary<floating>},
      {"stablehlo.tanh", unary<floating>},
      {"chlo.erf", unary<floating>},
      {"chlo.erfc", unary<floating>},
      {"chlo.erf_inv", unary<floating>},
      {"chlo.lgamma", unary<floating>},
      {"chlo.digamma", unary<floating>},
      {"chlo.bessel_i1e", unary<floating>},
      {"chlo.acos", unary<floating>},
      {"chlo.acosh", unary<floating>},
      {"chlo.asin", unary<floating>},
      {"chlo.asinh", unary<floating>},
      {"chlo.atan", unary<floating>},
      {"chlo.atanh", unary<floating>},
      {"chlo.cosh", unary<floating>},
      {"chlo.sinh", unary<floating>},
      {"chlo.tan", unary<floating>},
      {"chlo.next_after", binary<floating>},
      {"chlo.polygamma", binary<floating>},
      {"chlo.zeta", binary<floating>},
      {"chlo.mulhi", binary<integer>},
      {"stablehlo.reduce_precision", reducePrecision},
      {"stablehlo.triangular_solve", triangularSolve},
      {"stablehlo.cholesky", cholesky},
      {"stablehlo.sqrt", unary<floating>},
      {"stablehlo.rsqrt", unary<floating>},
      {"stablehlo.cbrt", unary<floating>},
      {"stablehlo.sine", unary<floating>},
      {"stablehlo.cosine", unary<floating>},
      {"stablehlo.tan", unary<floating>},
      {"stablehlo.floor", unary<floating>},
      {"stablehlo.ceil", unary<floating>},
      {"stablehlo.round_nearest_even", unary<floating>},
      {"stablehlo.round_nearest_afz", unary<floating>},
      {"stablehlo.is_finite", isFinite},
      {"stablehlo.compare", compare},
      {"stablehlo.select", select},
      {"stablehlo.clamp", clamp},
      {"stablehlo.broadcast_in_dim", broadcastInDim},
      {"stablehlo.reshape", reshape},
      {"stablehlo.transpose", transpose},
      {"stablehlo.slice", slice},
      {"stablehlo.dynamic_slice", dynamicSlice},
      {"stablehlo.dynamic_update_slice", dynamicUpdateSlice},
      {"stablehlo.concatenate", concatenate},
      {"stablehlo.pad", pad},
      {"stablehlo.reverse", reverse},
      {"stablehlo.dot_general", dotGeneral},
      {"stablehlo.reduce", reduce},
      {"stablehlo.gather", verifyGather},
      {"stablehlo.scatter", verifyScatter},
      {"stablehlo.sort", verifySort},
      {"stablehlo.reduce_window", verifyReduceWindow},
      {"stablehlo.select_and_scatter", verifySelectAndScatter},
      {"stablehlo.convolution", verifyConvolution},
      {"stablehlo.while", verifyWhile},
      {"stablehlo.case", verifyCase},
  };
  return table;
}

}  // namespace

OpRule findOpRule(const std::string& name) {
  auto it = rules().find(name);
  return it == rules().end() ? nullptr : it->second;
}

void verifyReduceBody(const Region& body, const std::string& owner) {
  // The interpreter runs a reduce body over vectors of lanes: element-wise ops, constants, and shape
  // ops that are the identity on 0-d values.
  static const std::set<std::string> neverInBody = {"stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.convolution",
                                                    "stablehlo.select_and_scatter", "stablehlo.while", "stablehlo.case", "stablehlo.dot_general", "stablehlo.iota",
                                                    "stablehlo.bitcast_convert", "stablehlo.concatenate",
                                                    "stablehlo.dynamic_update_slice"};
  static const std::set<std::string> scalarOnlyInBody = {"stablehlo.broadcast_in_dim", "stablehlo.reshape",
                                                         "stablehlo.transpose", "stablehlo.slice", "stablehlo.reverse",
                                                         "stablehlo.pad", "stablehlo.dynamic_slice"};
  std::set<int> defined(body.args.begin(), body.args.end());
  for (const Op& op : body.ops) {
    bool scalarIdentity = !op.operandTypes.empty() && op.resultTypes.size() == 1 && op.resultTypes[0].dims.empty() &&
                          op.operandTypes[0].dims.empty() && op.operandTypes[0].element == op.resultTypes[0].element;
    if (neverInBody.count(op.name) || (scalarOnlyInBody.count(op.name) && !scalarIdentity))
      tpjrt::cpu::fail("line " + std::to_string(op.line) + ": " + op.name +
                       ": not supported inside a " + owner + " body by the cpu plugin");
    for (int id : op.operands)
      if (!defined.count(id))
        tpjrt::cpu::fail("line " + std::to_string(op.line) + ": " + op.name +
                         ": uses a value defined outside the " + owner + " body, which the cpu plugin does not support");
    defined.insert(op.results.begin(), op.results.end());
  }
}

}  // namespace tpjrt::cpu
