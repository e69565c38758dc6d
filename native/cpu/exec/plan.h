// How the interpreter runs a region, worked out once from its ops (they never change after compile):
// each op's kernel, the values kept as one element, the values each step uses last, and chains of
// element-wise ops fused into groups that run tile by tile without materialising what only the chain
// itself reads.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "exec/position_steps.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

// Elements each fused op computes per call. A group's intermediate tiles stay in L1 between its ops:
// on the Intel VM of 2026-12-07 (48 KiB L1), 512 against 1024 took W3c (tanh, logistic, 7 ops) from
// 0.706-0.757 to 0.652-0.688 ms in 4 alternating pairs; W4c, W5c and W7c unchanged within noise.
inline constexpr int64_t kFusedTile = 512;
inline constexpr size_t kWidestElement = 8;  // bytes
inline constexpr int64_t kMinRowRun = 64;     // elements (see FusedGroup::Row)

// Ops of one result element count (more than one element), in program order: element-wise ops,
// reshapes (a copy in row-major order), and broadcast_in_dim / iota run by position. Each reads its
// operands from the group's inputs (values made before it; one-element splats stand for every
// position; a broadcast reads its whole operand), from scratch slots of one tile, or from outputs,
// and writes one slot or output.
struct FusedGroup {
  struct Source {
    enum class Kind : uint8_t { Input, Slot, Output, Row };
    Kind kind = Kind::Input;
    size_t index = 0;
  };
  // A broadcast that repeats each element of its operand (a group input) over runs of at least
  // kMinRowRun positions along the last dimension, read only by element loops: it is never written;
  // the loops take each run's value as a splat (a layer norm's mean, a softmax's row max).
  struct Row {
    PositionStep position;
    size_t input = 0;
  };
  struct Step {
    ElementLoop loop = nullptr;
    std::optional<PositionStep> position;  // instead of loop
    std::vector<Source> in;
    Source out;
    std::vector<uint8_t> inWidth;  // element bytes of each input and of the output
    uint8_t outWidth = 0;
  };
  std::vector<Row> rows;
  int64_t count = 0;
  std::vector<Step> steps;
  std::vector<int> inputs;               // value ids
  std::vector<TensorType> inputTypes;    // as the ops declare them
  std::vector<int> outputs;              // value ids of the results used after the group
  std::vector<TensorType> outputTypes;
  // Per output, a group input (index) whose storage it may take, or -1: an input of the same element
  // count and width that the group reads last, by position, no later than the step writing that
  // output (element loops read each element before writing it). Taken at run time when the
  // interpreter holds the input's only reference.
  std::vector<int> reuse;
  size_t slots = 0;                      // scratch tiles live at once
  size_t firstOp = 0;                    // for error messages
};

struct RegionPlan {
  struct Step {
    size_t op = 0;             // the op to run, unless group >= 0
    int group = -1;            // index into groups
    std::vector<int> release;  // value ids whose last use is this step
  };
  std::vector<Step> steps;
  std::vector<FusedGroup> groups;
  std::vector<const KernelInfo*> kernels;  // per op; nullptr for ops the interpreter runs itself
  std::vector<ElementLoop> loops;          // per element-wise op, resolved for its types (nullptr if not)
  std::vector<int> splats;                 // values kept as their one element
  // A dot_general whose product is read only by an add of a row broadcast along its last dimension (a
  // linear layer's bias) adds the row itself (see dotGeneralAddRow): per op, rowAdd is that row's value
  // id for the dot_general, forwards the product's value id for the add, which passes it on, and
  // skipped marks the broadcast when only that add read it. -1 / false elsewhere.
  std::vector<int> rowAdd;
  std::vector<int> forwards;
  std::vector<bool> skipped;
  // Values that may be views (ViewLayout in ir/ir.h): those every reader of which reads through strides
  // (a transpose, slice or reshape, dot_general as lhs or rhs, concatenate, func.return). Per op,
  // whether it runs as a view (a transpose, slice or reshape of such a value); per block argument,
  // whether it may arrive as one (the evaluator copies other view arguments into dense literals).
  std::vector<bool> views;
  std::vector<bool> viewArgs;
  // A sort whose results only slices read, each keeping positions [0, k) of the sorted dimension (topk):
  // per op, the largest such k when it is below the dimension's length (only that prefix is ordered);
  // 0 elsewhere.
  std::vector<int64_t> sortedPrefix;
  // A region that is one element-wise op on its arguments, each of the result's shape, and returns that
  // op's result (most eager ops): per operand, the argument it reads. The interpreter runs it without
  // its value table. Unset elsewhere.
  std::optional<std::vector<size_t>> loneOpArgs;
};

// `fuse` false keeps every op a step of its own (the reference the fused plan is tested against).
RegionPlan planRegion(const Region& region, bool fuse = true);

}  // namespace tpjrt::cpu
