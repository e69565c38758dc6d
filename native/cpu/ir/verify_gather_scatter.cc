// Type rules for gather, scatter and sort, after the constraints of the StableHLO spec (numbers in
// the comments). Batching dimensions are supported.
#include <algorithm>
#include <set>

#include "base/error.h"
#include "ir/dimension_numbers.h"
#include "ir/element_type.h"
#include "ir/verifier_internal.h"

namespace tpjrt::cpu {
namespace {

using Dims = std::vector<int64_t>;

std::string dimList(const Dims& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

bool contains(const Dims& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

Dims concat(Dims a, const Dims& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void unique(const OpCheck& c, const Dims& v, const std::string& what) {
  if (std::set<int64_t>(v.begin(), v.end()).size() != v.size()) c.fail(what + " " + dimList(v) + " repeat a dimension");
}

void sorted(const OpCheck& c, const Dims& v, const std::string& what) {
  if (!std::is_sorted(v.begin(), v.end())) c.fail(what + " " + dimList(v) + " must be sorted");
}

void inRange(const OpCheck& c, const Dims& v, size_t bound, const std::string& what) {
  for (int64_t d : v)
    if (d < 0 || d >= int64_t(bound)) c.fail(what + " " + dimList(v) + " out of range [0, " + std::to_string(bound) + ")");
}

void optionalBool(const OpCheck& c, const char* key) {
  const Attribute* a = c.optional(key);
  if (a && a->kind != Attribute::Kind::Bool) c.fail(std::string("attribute ") + key + " must be true or false");
}

template <class Read>
auto readDims(const OpCheck& c, Read read) {
  try {
    return read(c.op);
  } catch (const CpuError& e) {
    c.fail(e.what());
  }
}

// The checks gather and scatter share, in gather's names: `window` are operand dimensions kept in the
// windows, `collapsed` those dropped, `batching` the batching dimensions (and their index dimensions).
struct IndexRules {
  const TensorType& operand;
  const TensorType& indices;
  const Dims& collapsed;
  const Dims& operandBatching;
  const Dims& indicesBatching;
  const Dims& startMap;
  int64_t indexVectorDim;
  const char* collapsedName;
  const char* operandBatchingName;
  const char* indicesBatchingName;
  const char* startMapName;
};

void checkIndexRules(const OpCheck& c, const IndexRules& r) {
  const size_t rank = r.operand.dims.size(), indexRank = r.indices.dims.size();
  if (!isInteger(r.indices.element)) c.fail("index type " + typeString(r.indices) + " must have an integer element type");
  if (r.indexVectorDim < 0 || r.indexVectorDim > int64_t(indexRank))
    c.fail("index_vector_dim " + std::to_string(r.indexVectorDim) + " must be in [0, " + std::to_string(indexRank) + "]");
  const int64_t vector = r.indexVectorDim < int64_t(indexRank) ? r.indices.dims[size_t(r.indexVectorDim)] : 1;
  if (int64_t(r.startMap.size()) != vector)
    c.fail(std::string(r.startMapName) + " " + dimList(r.startMap) + " must have " + std::to_string(vector) +
           " entries, one per index vector component of " + typeString(r.indices));
  unique(c, concat(r.collapsed, r.operandBatching), std::string(r.collapsedName) + " and " + r.operandBatchingName);
  sorted(c, r.collapsed, r.collapsedName);
  inRange(c, r.collapsed, rank, r.collapsedName);
  sorted(c, r.operandBatching, r.operandBatchingName);
  inRange(c, r.operandBatching, rank, r.operandBatchingName);
  unique(c, r.indicesBatching, r.indicesBatchingName);
  inRange(c, r.indicesBatching, indexRank, r.indicesBatchingName);
  if (contains(r.indicesBatching, r.indexVectorDim))
    c.fail(std::string(r.indicesBatchingName) + " " + dimList(r.indicesBatching) + " must not contain index_vector_dim");
  if (r.operandBatching.size() != r.indicesBatching.size())
    c.fail(std::string(r.operandBatchingName) + " and " + r.indicesBatchingName + " differ in length");
  for (size_t i = 0; i < r.operandBatching.size(); ++i)
    if (r.operand.dims[size_t(r.operandBatching[i])] != r.indices.dims[size_t(r.indicesBatching[i])])
      c.fail("batching dimension sizes differ: " + typeString(r.operand) + " and " + typeString(r.indices));
  unique(c, concat(r.startMap, r.operandBatching), std::string(r.startMapName) + " and " + r.operandBatchingName);
  inRange(c, r.startMap, rank, r.startMapName);
}

Dims batchSizes(const TensorType& indices, int64_t indexVectorDim) {
  Dims out;
  for (int64_t d = 0; d < int64_t(indices.dims.size()); ++d)
    if (d != indexVectorDim) out.push_back(indices.dims[size_t(d)]);
  return out;
}

}  // namespace

void verifyGather(const OpCheck& c) {
  c.arity(2, 1);
  const TensorType& operand = c.in(0);
  const TensorType& indices = c.in(1);
  const GatherDims g = readDims(c, gatherDims);
  const Dims& sizes = c.intList("slice_sizes");
  optionalBool(c, "indices_are_sorted");
  const size_t rank = operand.dims.size();
  if (rank != g.offsetDims.size() + g.collapsedSliceDims.size() + g.operandBatchingDims.size())  // C1
    c.fail("offset_dims, collapsed_slice_dims and operand_batching_dims must together count the " +
           std::to_string(rank) + " dimensions of " + typeString(operand));
  checkIndexRules(c, {operand, indices, g.collapsedSliceDims, g.operandBatchingDims, g.startIndicesBatchingDims,
                      g.startIndexMap, g.indexVectorDim, "collapsed_slice_dims", "operand_batching_dims",
                      "start_indices_batching_dims", "start_index_map"});
  unique(c, g.offsetDims, "offset_dims");  // C4
  sorted(c, g.offsetDims, "offset_dims");
  if (sizes.size() != rank) c.fail("slice_sizes " + dimList(sizes) + " must have one entry per dimension of " + typeString(operand));
  for (size_t d = 0; d < rank; ++d)
    if (sizes[d] < 0 || sizes[d] > operand.dims[d]) c.fail("slice_sizes " + dimList(sizes) + " do not fit " + typeString(operand));
  for (int64_t d : concat(g.collapsedSliceDims, g.operandBatchingDims))  // C9, C12 (0 is not supported)
    if (sizes[size_t(d)] != 1)
      c.fail("slice_sizes " + dimList(sizes) + " must be 1 on collapsed and batching dimension " + std::to_string(d));
  // C22: batch dimensions where offset_dims is not, slice sizes of the kept dimensions at offset_dims.
  const Dims batch = batchSizes(indices, g.indexVectorDim);
  const size_t resultRank = batch.size() + g.offsetDims.size();
  inRange(c, g.offsetDims, resultRank, "offset_dims");
  TensorType expected{operand.element, Dims(resultRank)};
  size_t nextBatch = 0, nextOffset = 0;
  Dims kept;
  for (int64_t d = 0; d < int64_t(rank); ++d)
    if (!contains(g.collapsedSliceDims, d) && !contains(g.operandBatchingDims, d)) kept.push_back(sizes[size_t(d)]);
  for (size_t d = 0; d < resultRank; ++d)
    expected.dims[d] = contains(g.offsetDims, int64_t(d)) ? kept[nextOffset++] : batch[nextBatch++];
  if (c.out() != expected) c.fail("result type " + typeString(c.out()) + " should be " + typeString(expected));
}

void verifyScatter(const OpCheck& c) {
  const size_t total = c.op.operandTypes.size();
  const size_t n = total / 2;
  if (total < 3 || total % 2 != 1) c.fail("expects N inputs, the scatter indices and N updates, got " + std::to_string(total) + " operands");
  if (c.op.resultTypes.size() != n) c.fail("expects " + std::to_string(n) + " results, got " + std::to_string(c.op.resultTypes.size()));
  const TensorType& input = c.in(0);
  const TensorType& indices = c.in(n);
  const TensorType& update = c.in(n + 1);
  std::vector<TensorType> scalars;
  for (size_t i = 0; i < n; ++i) {
    if (c.in(i).dims != input.dims) c.fail("input types " + typeString(input) + " and " + typeString(c.in(i)) + " differ in shape");
    if (c.in(n + 1 + i).dims != update.dims)
      c.fail("update types " + typeString(update) + " and " + typeString(c.in(n + 1 + i)) + " differ in shape");
    if (c.in(n + 1 + i).element != c.in(i).element)
      c.fail("update " + typeString(c.in(n + 1 + i)) + " must have the element type of input " + typeString(c.in(i)));
    if (c.out(i) != c.in(i)) c.fail("result type " + typeString(c.out(i)) + " should be " + typeString(c.in(i)));
    scalars.push_back({c.in(i).element, {}});
  }
  const ScatterDims s = readDims(c, scatterDims);
  optionalBool(c, "indices_are_sorted");
  optionalBool(c, "unique_indices");
  const size_t rank = input.dims.size();
  if (rank != s.updateWindowDims.size() + s.insertedWindowDims.size() + s.inputBatchingDims.size())  // C2
    c.fail("update_window_dims, inserted_window_dims and input_batching_dims must together count the " +
           std::to_string(rank) + " dimensions of " + typeString(input));
  checkIndexRules(c, {input, indices, s.insertedWindowDims, s.inputBatchingDims, s.scatterIndicesBatchingDims,
                      s.scatterDimsToOperandDims, s.indexVectorDim, "inserted_window_dims", "input_batching_dims",
                      "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"});
  unique(c, s.updateWindowDims, "update_window_dims");
  sorted(c, s.updateWindowDims, "update_window_dims");
  // C4: the updates hold the scatter batch dimensions and, at update_window_dims, windows that fit the input.
  const Dims batch = batchSizes(indices, s.indexVectorDim);
  const size_t updateRank = batch.size() + s.updateWindowDims.size();
  inRange(c, s.updateWindowDims, updateRank, "update_window_dims");
  Dims bounds;
  for (int64_t d = 0; d < int64_t(rank); ++d)
    if (!contains(s.insertedWindowDims, d) && !contains(s.inputBatchingDims, d)) bounds.push_back(input.dims[size_t(d)]);
  bool ok = update.dims.size() == updateRank;
  size_t nextBatch = 0, nextWindow = 0;
  for (size_t d = 0; ok && d < updateRank; ++d)
    ok = contains(s.updateWindowDims, int64_t(d)) ? update.dims[d] <= bounds[nextWindow++] : update.dims[d] == batch[nextBatch++];
  if (!ok)
    c.fail("updates " + typeString(update) + " do not fit input " + typeString(input) + " and indices " + typeString(indices) +
           " with update_window_dims " + dimList(s.updateWindowDims));
  const Region& body = c.op.regions.at(0);
  std::vector<TensorType> argTypes = scalars;
  argTypes.insert(argTypes.end(), scalars.begin(), scalars.end());
  if (body.argTypes != argTypes) c.fail("update computation arguments (" + typeList(body.argTypes) + ") should be (" + typeList(argTypes) + ")");
  verifyRegion(c.module, body, "stablehlo.return", scalars, "the stablehlo.scatter update computation", c.op.line);
  verifyReduceBody(body, "stablehlo.scatter");
}

void verifySort(const OpCheck& c) {
  const size_t n = c.op.operandTypes.size();
  if (n == 0) c.fail("expects at least one input");
  if (c.op.resultTypes.size() != n) c.fail("expects " + std::to_string(n) + " results, got " + std::to_string(c.op.resultTypes.size()));
  const TensorType& first = c.in(0);
  std::vector<TensorType> argTypes;
  for (size_t i = 0; i < n; ++i) {
    if (c.in(i).dims != first.dims) c.fail("input types " + typeString(first) + " and " + typeString(c.in(i)) + " differ in shape");
    if (c.out(i) != c.in(i)) c.fail("result type " + typeString(c.out(i)) + " should be " + typeString(c.in(i)));
    argTypes.push_back({c.in(i).element, {}});
    argTypes.push_back({c.in(i).element, {}});
  }
  const int64_t rank = int64_t(first.dims.size());
  const int64_t dim = c.intAttr("dimension");
  if (dim < -rank || dim >= rank) c.fail("dimension " + std::to_string(dim) + " is out of range for " + typeString(first));
  optionalBool(c, "is_stable");
  const Region& body = c.op.regions.at(0);
  if (body.argTypes != argTypes) c.fail("comparator arguments (" + typeList(body.argTypes) + ") should be (" + typeList(argTypes) + ")");
  verifyRegion(c.module, body, "stablehlo.return", {TensorType{ElementType::Pred, {}}}, "the stablehlo.sort comparator", c.op.line);
  verifyReduceBody(body, "stablehlo.sort");
}

}  // namespace tpjrt::cpu
