#include "ir/dimension_numbers.h"

#include <initializer_list>
#include <string>

#include "base/error.h"

namespace tpjrt::cpu {
namespace {

const Attribute& structAttr(const Op& op, const char* name) {
  auto it = op.attrs.find(name);
  if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Struct)
    fail(std::string("missing attribute ") + name);
  return *it->second;
}

std::vector<int64_t> listField(const Attribute& s, const char* owner, const char* key) {
  auto it = s.fields.find(key);
  if (it == s.fields.end()) return {};
  if (it->second->kind != Attribute::Kind::I64Array) fail(std::string(owner) + " field " + key + " must be a list of integers");
  return it->second->ints;
}

// An integer field; the attribute's printer leaves out a field that holds 0, so absent means 0.
int64_t intField(const Attribute& s, const char* owner, const char* key) {
  auto it = s.fields.find(key);
  if (it == s.fields.end()) return 0;
  if (it->second->kind != Attribute::Kind::Int) fail(std::string(owner) + " field " + key + " must be an integer");
  return it->second->i;
}

// Fails on a field that is not one of `known` (a misspelt field would otherwise read as its default).
void onlyFields(const Attribute& s, const char* owner, std::initializer_list<const char*> known) {
  for (const auto& [key, value] : s.fields) {
    bool found = false;
    for (const char* k : known) found = found || key == k;
    if (found) continue;
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    fail(std::string(owner) + " has no field " + key + "; its fields are " + list);
  }
}

}  // namespace

GatherDims gatherDims(const Op& op) {
  const char* owner = "dimension_numbers";
  const Attribute& s = structAttr(op, owner);
  onlyFields(s, owner, {"offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
                        "start_index_map", "index_vector_dim"});
  GatherDims d;
  d.offsetDims = listField(s, owner, "offset_dims");
  d.collapsedSliceDims = listField(s, owner, "collapsed_slice_dims");
  d.operandBatchingDims = listField(s, owner, "operand_batching_dims");
  d.startIndicesBatchingDims = listField(s, owner, "start_indices_batching_dims");
  d.startIndexMap = listField(s, owner, "start_index_map");
  d.indexVectorDim = intField(s, owner, "index_vector_dim");
  return d;
}

ScatterDims scatterDims(const Op& op) {
  const char* owner = "scatter_dimension_numbers";
  const Attribute& s = structAttr(op, owner);
  onlyFields(s, owner, {"update_window_dims", "inserted_window_dims", "input_batching_dims",
                        "scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim"});
  ScatterDims d;
  d.updateWindowDims = listField(s, owner, "update_window_dims");
  d.insertedWindowDims = listField(s, owner, "inserted_window_dims");
  d.inputBatchingDims = listField(s, owner, "input_batching_dims");
  d.scatterIndicesBatchingDims = listField(s, owner, "scatter_indices_batching_dims");
  d.scatterDimsToOperandDims = listField(s, owner, "scatter_dims_to_operand_dims");
  d.indexVectorDim = intField(s, owner, "index_vector_dim");
  return d;
}

}  // namespace tpjrt::cpu
