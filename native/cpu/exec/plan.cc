#include "exec/plan.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "kernels/views.h"

namespace tpjrt::cpu {

namespace {

// Calls use(id) for every value the ops of `region` (and their nested regions) read.
template <class Use>
void forEachOperand(const Region& region, Use&& use) {
  for (const Op& op : region.ops) {
    for (int id : op.operands) use(id);
    for (const Region& nested : op.regions) forEachOperand(nested, use);
  }
}

// For each value, the indices of the ops of `region` that read it (a read inside an op's nested
// region counts as a read by the op).
std::unordered_map<int, std::vector<size_t>> usersOf(const Region& region) {
  std::unordered_map<int, std::vector<size_t>> users;
  for (size_t i = 0; i < region.ops.size(); ++i) {
    const Op& op = region.ops[i];
    auto add = [&](int id) {
      auto& list = users[id];
      if (list.empty() || list.back() != i) list.push_back(i);
    };
    for (int id : op.operands) add(id);
    for (const Region& nested : op.regions) forEachOperand(nested, add);
  }
  return users;
}

// Whether every element of `l` equals its first (the parser expands `dense<v>` to every element).
bool isSplat(const Literal& l) {
  const size_t width = byteWidth(l.type.element);
  return l.bytes.size() >= width && std::memcmp(l.bytes.data(), l.bytes.data() + width, l.bytes.size() - width) == 0;
}

// Values of `region` that are splats (a broadcast_in_dim of one element, or a splat constant) and are
// used only as operands of element-wise ops there: those are kept as their one element, which every
// element-wise loop broadcasts, instead of being materialised.
std::vector<int> splatOperands(const Region& region, const std::vector<const KernelInfo*>& kernels) {
  std::vector<int> candidates;
  for (const Op& op : region.ops) {
    if (op.results.size() != 1 || op.resultTypes.size() != 1 || numElements(op.resultTypes[0]) <= 1) continue;
    if (op.name == "stablehlo.broadcast_in_dim" && op.operandTypes.size() == 1 && numElements(op.operandTypes[0]) == 1) {
      candidates.push_back(op.results[0]);
    } else if (op.name == "stablehlo.constant") {
      auto it = op.attrs.find("value");
      if (it != op.attrs.end() && it->second && it->second->kind == Attribute::Kind::Dense &&
          it->second->dense.type.element == op.resultTypes[0].element && isSplat(it->second->dense))
        candidates.push_back(op.results[0]);
    }
  }
  if (candidates.empty()) return candidates;
  std::unordered_set<int> excluded;
  for (size_t i = 0; i < region.ops.size(); ++i) {
    const Op& op = region.ops[i];
    if (!kernels[i] || !kernels[i]->elementwise()) excluded.insert(op.operands.begin(), op.operands.end());
    for (const Region& nested : op.regions) forEachOperand(nested, [&](int id) { excluded.insert(id); });
  }
  std::erase_if(candidates, [&](int id) { return excluded.count(id) != 0; });
  return candidates;
}

// For each op of `region`, the values whose last use it is.
std::vector<std::vector<int>> releasePoints(const Region& region,
                                            const std::unordered_map<int, std::vector<size_t>>& users) {
  // Only values defined here are dropped: a nested region (a while body) may use outer values again.
  std::unordered_set<int> local(region.args.begin(), region.args.end());
  for (const Op& op : region.ops) local.insert(op.results.begin(), op.results.end());
  std::vector<std::vector<int>> release(region.ops.size());
  for (const auto& [id, list] : users)
    if (!isTerminator(region.ops[list.back()]) && local.count(id)) release[list.back()].push_back(id);
  for (size_t i = 0; i < region.ops.size(); ++i)
    for (int id : region.ops[i].results)
      if (!users.count(id)) release[i].push_back(id);  // never used
  return release;
}

ElementLoop resolveLoop(const Op& op, const KernelInfo* kernel) {
  if (op.name == "stablehlo.reshape" && op.operandTypes.size() == 1 && op.resultTypes.size() == 1 &&
      op.operandTypes[0].element == op.resultTypes[0].element &&
      numElements(op.operandTypes[0]) == numElements(op.resultTypes[0]))
    return copyLoop(byteWidth(op.resultTypes[0].element));
  if (!kernel || !kernel->elementwise() || op.resultTypes.size() != 1 || op.operandTypes.size() != op.operands.size())
    return nullptr;
  std::vector<ElementType> in;
  for (const TensorType& t : op.operandTypes) in.push_back(t.element);
  try {
    return kernel->loop(op, in, op.resultTypes[0].element);
  } catch (const CpuError&) {
    return nullptr;  // the op's own run reports it, with its line
  }
}

class GroupBuilder {
 public:
  GroupBuilder(const Region& region, const std::unordered_map<int, std::vector<size_t>>& users,
               const std::vector<ElementLoop>& loops)
      : region_(region), users_(users), loops_(loops) {}

  FusedGroup build(const std::vector<size_t>& members) {
    FusedGroup g;
    g.count = numElements(region_.ops[members[0]].resultTypes[0]);
    g.firstOp = members[0];
    std::unordered_set<size_t> memberSet(members.begin(), members.end());
    std::unordered_map<int, FusedGroup::Source> made;  // member results so far
    std::unordered_map<int, size_t> inputIndex;
    std::vector<size_t> freeSlots;
    size_t slotsInUse = 0;
    for (size_t m : members) {
      const Op& op = region_.ops[m];
      FusedGroup::Step step;
      step.loop = loops_[m];
      if (!step.loop) step.position = positionStepFor(op);
      if (step.position && readsAsRows(*step.position, op.results[0], memberSet)) {
        auto [it, added] = inputIndex.try_emplace(op.operands[0], g.inputs.size());
        if (added) {
          g.inputs.push_back(op.operands[0]);
          g.inputTypes.push_back(op.operandTypes[0]);
        }
        made[op.results[0]] = {FusedGroup::Source::Kind::Row, g.rows.size()};
        g.rows.push_back({*step.position, it->second});
        continue;
      }
      for (const TensorType& t : op.operandTypes) step.inWidth.push_back(uint8_t(byteWidth(t.element)));
      step.outWidth = uint8_t(byteWidth(op.resultTypes[0].element));
      for (size_t k = 0; k < op.operands.size(); ++k) {
        const int id = op.operands[k];
        if (auto it = made.find(id); it != made.end()) {
          step.in.push_back(it->second);
          continue;
        }
        auto [it, added] = inputIndex.try_emplace(id, g.inputs.size());
        if (added) {
          g.inputs.push_back(id);
          g.inputTypes.push_back(op.operandTypes[k]);
        }
        step.in.push_back({FusedGroup::Source::Kind::Input, it->second});
      }
      const int result = op.results[0];
      const std::vector<size_t>* readers = users_.count(result) ? &users_.at(result) : nullptr;
      const bool usedAfter = readers && std::any_of(readers->begin(), readers->end(),
                                                    [&](size_t u) { return !memberSet.count(u); });
      if (usedAfter) {
        step.out = {FusedGroup::Source::Kind::Output, g.outputs.size()};
        g.outputs.push_back(result);
        g.outputTypes.push_back(op.resultTypes[0]);
      } else {
        size_t slot = slotsInUse;
        if (!freeSlots.empty()) {
          slot = freeSlots.back();
          freeSlots.pop_back();
        } else {
          g.slots = ++slotsInUse;
        }
        step.out = {FusedGroup::Source::Kind::Slot, slot};
      }
      made[result] = step.out;
      // Slots whose value this op reads last (or that nothing reads) are free for later ops.
      std::vector<int> done;
      for (int id : op.operands) done.push_back(id);
      done.push_back(result);
      std::sort(done.begin(), done.end());
      done.erase(std::unique(done.begin(), done.end()), done.end());
      for (int id : done) {
        auto it = made.find(id);
        if (it == made.end() || it->second.kind != FusedGroup::Source::Kind::Slot) continue;
        const bool lastRead = !users_.count(id) || users_.at(id).back() <= m;
        if (lastRead) freeSlots.push_back(it->second.index);
      }
      g.steps.push_back(std::move(step));
    }
    return g;
  }

 private:
  // Whether a broadcast (its position step) of `result` can be a FusedGroup::Row: each operand
  // element repeated over runs of kMinRowRun or more, and only element loops of the group read it.
  bool readsAsRows(const PositionStep& p, int result, const std::unordered_set<size_t>& memberSet) const {
    if (p.kind != PositionStep::Kind::Broadcast || p.strides.back() != 0 || p.dims.back() < kMinRowRun) return false;
    auto it = users_.find(result);
    if (it == users_.end()) return false;
    return std::all_of(it->second.begin(), it->second.end(), [&](size_t u) { return memberSet.count(u) && loops_[u]; });
  }

  const Region& region_;
  const std::unordered_map<int, std::vector<size_t>>& users_;
  const std::vector<ElementLoop>& loops_;
};

// Fills g.reuse: which dying inputs (`dying`: value ids released at the group's step) each output may
// take the storage of.
void chooseReuse(FusedGroup& g, const std::vector<int>& dying, const std::unordered_set<int>& splats) {
  std::vector<int> lastRead(g.inputs.size(), -1);
  std::vector<bool> wholeRead(g.inputs.size(), false);  // by a broadcast: every position, any time
  for (size_t s = 0; s < g.steps.size(); ++s)
    for (const FusedGroup::Source& src : g.steps[s].in)
      if (src.kind == FusedGroup::Source::Kind::Input) {
        lastRead[src.index] = int(s);
        if (g.steps[s].position) wholeRead[src.index] = true;
      }
  for (const FusedGroup::Row& row : g.rows) wholeRead[row.input] = true;
  std::vector<bool> taken(g.inputs.size(), false);
  g.reuse.assign(g.outputs.size(), -1);
  for (size_t s = 0; s < g.steps.size(); ++s) {
    const FusedGroup::Source& out = g.steps[s].out;
    if (out.kind != FusedGroup::Source::Kind::Output) continue;
    const TensorType& type = g.outputTypes[out.index];
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      const TensorType& in = g.inputTypes[i];
      if (taken[i] || wholeRead[i] || lastRead[i] > int(s) || splats.count(g.inputs[i]) ||
          numElements(in) != g.count || byteWidth(in.element) != byteWidth(type.element) ||
          std::find(dying.begin(), dying.end(), g.inputs[i]) == dying.end())
        continue;
      taken[i] = true;
      g.reuse[out.index] = int(i);
      break;
    }
  }
}

// Finds the dot_general + row add pairs (see RegionPlan::rowAdd) and records the dot_general as a
// reader of the row.
void fuseRowAdds(const Region& region, std::unordered_map<int, std::vector<size_t>>& users, RegionPlan& plan) {
  std::unordered_map<int, size_t> definedBy;
  for (size_t i = 0; i < region.ops.size(); ++i)
    for (int id : region.ops[i].results) definedBy[id] = i;
  auto onlyReader = [&](int id, size_t op) {
    auto it = users.find(id);
    return it != users.end() && it->second.size() == 1 && it->second[0] == op;
  };
  for (size_t j = 0; j < region.ops.size(); ++j) {
    const Op& add = region.ops[j];
    if (add.name != "stablehlo.add" || add.operands.size() != 2 || add.results.size() != 1 || add.resultTypes.size() != 1)
      continue;
    const TensorType& type = add.resultTypes[0];
    if ((type.element != ElementType::F32 && type.element != ElementType::F64) || type.dims.empty()) continue;
    for (int side = 0; side < 2; ++side) {
      const int product = add.operands[size_t(side)], broadcast = add.operands[size_t(1 - side)];
      auto dotAt = definedBy.find(product), broadcastAt = definedBy.find(broadcast);
      if (product == broadcast || dotAt == definedBy.end() || broadcastAt == definedBy.end() || !onlyReader(product, j))
        continue;
      const size_t i = dotAt->second;
      const Op& dot = region.ops[i];
      const Op& b = region.ops[broadcastAt->second];
      if (dot.name != "stablehlo.dot_general" || dot.resultTypes.size() != 1 || dot.resultTypes[0] != type ||
          dot.operandTypes.size() != 2 || dot.operandTypes[0].element != type.element ||
          dot.operandTypes[1].element != type.element)
        continue;
      auto dims = b.attrs.find("broadcast_dimensions");
      if (b.name != "stablehlo.broadcast_in_dim" || b.operands.size() != 1 || b.operandTypes.size() != 1 ||
          b.operandTypes[0] != TensorType{type.element, {type.dims.back()}} || dims == b.attrs.end() || !dims->second ||
          dims->second->ints != std::vector<int64_t>{int64_t(type.dims.size()) - 1})
        continue;
      const int row = b.operands[0];
      auto rowAt = definedBy.find(row);
      if (rowAt != definedBy.end() && rowAt->second >= i) continue;  // not made yet when the dot runs
      plan.rowAdd[i] = row;
      plan.forwards[j] = product;
      if (onlyReader(broadcast, j)) plan.skipped[broadcastAt->second] = true;
      auto& readers = users[row];
      readers.insert(std::upper_bound(readers.begin(), readers.end(), i), i);
      break;
    }
  }
}

// Fills plan.sortedPrefix (see RegionPlan).
void planSortedPrefixes(const Region& region, const std::unordered_map<int, std::vector<size_t>>& users, RegionPlan& plan) {
  for (size_t i = 0; i < region.ops.size(); ++i) {
    const Op& sort = region.ops[i];
    auto dimension = sort.attrs.find("dimension");
    if (sort.name != "stablehlo.sort" || sort.operandTypes.empty() || dimension == sort.attrs.end() || !dimension->second)
      continue;
    const auto rank = int64_t(sort.operandTypes[0].dims.size());
    const int64_t d = dimension->second->i < 0 ? dimension->second->i + rank : dimension->second->i;
    if (d < 0 || d >= rank) continue;
    const int64_t length = sort.operandTypes[0].dims[size_t(d)];
    int64_t prefix = 0;
    bool onlyPrefixSlices = true;
    for (int result : sort.results) {
      auto it = users.find(result);
      if (it == users.end()) continue;
      for (size_t u : it->second) {
        const Op& slice = region.ops[u];
        auto attr = [&](const char* name) -> const std::vector<int64_t>* {
          auto a = slice.attrs.find(name);
          return a == slice.attrs.end() || !a->second || a->second->ints.size() != size_t(rank) ? nullptr : &a->second->ints;
        };
        const auto *start = attr("start_indices"), *limit = attr("limit_indices"), *strides = attr("strides");
        onlyPrefixSlices = onlyPrefixSlices && slice.name == "stablehlo.slice" && slice.operands.size() == 1 && start &&
                           limit && strides && (*start)[size_t(d)] == 0 && (*strides)[size_t(d)] == 1;
        if (!onlyPrefixSlices) break;
        prefix = std::max(prefix, (*limit)[size_t(d)]);
      }
    }
    if (onlyPrefixSlices && prefix < length) plan.sortedPrefix[i] = std::max<int64_t>(prefix, 1);
  }
}

bool isViewOp(const Op& op) {
  return isViewOpName(op.name) && op.operands.size() == 1 && op.results.size() == 1 && op.resultTypes.size() == 1;
}

// Fills plan.views and plan.viewArgs (see RegionPlan). A transpose, slice or reshape reads a view
// whether or not it makes one (its kernel copies the view's elements; a reshape never joins a fused
// group when it reads a value made outside it).
void planViews(const Region& region, const std::unordered_map<int, std::vector<size_t>>& users,
               const std::unordered_set<int>& splats, RegionPlan& plan) {
  auto readThroughStrides = [&](int id) {
    auto it = users.find(id);
    if (it == users.end()) return true;
    for (size_t u : it->second) {
      const Op& op = region.ops[u];
      const bool dotOperand = op.name == "stablehlo.dot_general" && op.operands.size() == 2 &&
                              (op.operands[0] == id || op.operands[1] == id);
      if (!isViewOp(op) && !dotOperand && op.name != "stablehlo.concatenate" && op.name != "func.return") return false;
    }
    return true;
  };
  for (size_t i = 0; i < region.ops.size(); ++i) {
    const Op& op = region.ops[i];
    plan.views[i] = isViewOp(op) && !splats.count(op.operands[0]) && readThroughStrides(op.results[0]);
  }
  for (int id : region.args) plan.viewArgs.push_back(readThroughStrides(id));
}

// See RegionPlan::loneOpArgs.
std::optional<std::vector<size_t>> loneOpArgs(const Region& region, const RegionPlan& plan,
                                              const std::unordered_set<int>& splats) {
  if (region.ops.size() != 2 || !isTerminator(region.ops[1])) return std::nullopt;
  const Op& op = region.ops[0];
  const std::vector<int>& returned = region.ops[1].operands;
  if (!plan.loops[0] || plan.views[0] || op.results.size() != 1 || op.resultTypes.size() != 1 ||
      returned.size() != 1 || returned[0] != op.results[0] || splats.count(op.results[0]) ||
      op.operandTypes.size() != op.operands.size() || op.operands.size() > kMaxElementwiseOperands)
    return std::nullopt;
  std::vector<size_t> args;
  for (size_t k = 0; k < op.operands.size(); ++k) {
    auto arg = std::find(region.args.begin(), region.args.end(), op.operands[k]);
    if (arg == region.args.end() || op.operandTypes[k].dims != op.resultTypes[0].dims) return std::nullopt;
    args.push_back(size_t(arg - region.args.begin()));
  }
  return args;
}

}  // namespace

RegionPlan planRegion(const Region& region, bool fuse) {
  RegionPlan plan;
  const size_t n = region.ops.size();
  for (const Op& op : region.ops) plan.kernels.push_back(isTerminator(op) ? nullptr : findKernel(op.name));
  for (size_t i = 0; i < n; ++i) plan.loops.push_back(resolveLoop(region.ops[i], plan.kernels[i]));
  plan.splats = splatOperands(region, plan.kernels);
  auto users = usersOf(region);
  plan.rowAdd.assign(n, -1);
  plan.forwards.assign(n, -1);
  plan.skipped.assign(n, false);
  if (fuse) fuseRowAdds(region, users, plan);
  const auto release = releasePoints(region, users);
  const std::unordered_set<int> splats(plan.splats.begin(), plan.splats.end());
  plan.views.assign(n, false);
  if (fuse) planViews(region, users, splats, plan);
  plan.sortedPrefix.assign(n, 0);
  if (fuse) planSortedPrefixes(region, users, plan);
  else plan.viewArgs.assign(region.args.size(), false);
  if (fuse) plan.loneOpArgs = loneOpArgs(region, plan, splats);

  // The element count of op i when it can join a fused group, else -1: element-wise ops, reshapes, iota
  // and broadcast_in_dim (which must not read a value of its own group: see below).
  auto fusibleCount = [&](size_t i) -> int64_t {
    const Op& op = region.ops[i];
    if (!fuse || op.results.size() != 1 || op.resultTypes.size() != 1 || op.operands.size() > kMaxElementwiseOperands)
      return -1;
    const int64_t count = numElements(op.resultTypes[0]);
    if (count <= 1 || plan.forwards[i] >= 0 || plan.skipped[i] || plan.views[i]) return -1;
    if (plan.loops[i]) return count;
    if (op.name == "stablehlo.iota") return positionStepFor(op) ? count : -1;
    if (op.name == "stablehlo.broadcast_in_dim" && !splats.count(op.results[0]))
      return positionStepFor(op) ? count : -1;
    return -1;
  };
  // Ops that may run before a group, reading nothing it makes (`made`): constants, splat broadcasts,
  // and any other op with a kernel, no region and a result of one element (a scalar taken from a
  // table of hyperparameters: slice, reshape, convert), so that an optimizer's update, whose
  // element-wise ops such scalars interleave, stays one group.
  auto movable = [&](size_t i, const std::unordered_set<int>& made) {
    const Op& op = region.ops[i];
    if (op.name == "stablehlo.constant") return true;
    if (op.results.size() != 1 || op.resultTypes.size() != 1) return false;
    if (op.name == "stablehlo.broadcast_in_dim" && splats.count(op.results[0])) return true;
    return plan.kernels[i] && op.regions.empty() && numElements(op.resultTypes[0]) <= 1 &&
           std::none_of(op.operands.begin(), op.operands.end(), [&](int id) { return made.count(id) != 0; });
  };
  auto addStep = [&](size_t i) { plan.steps.push_back({i, -1, release[i]}); };

  GroupBuilder builder(region, users, plan.loops);
  for (size_t i = 0; i < n;) {
    const int64_t count = fusibleCount(i);
    // A reshape of a value made outside the group shares that value's bytes when run on its own;
    // inside the group it would copy them.
    if (count < 0 || region.ops[i].name == "stablehlo.reshape") {
      addStep(i++);
      continue;
    }
    // A broadcast reads its whole operand, so that operand must come from before the group.
    std::unordered_set<int> made;
    auto readsGroup = [&](size_t k) {
      const Op& op = region.ops[k];
      return op.name == "stablehlo.broadcast_in_dim" && !op.operands.empty() && made.count(op.operands[0]);
    };
    auto reshapesOutside = [&](size_t k) {
      const Op& op = region.ops[k];
      return op.name == "stablehlo.reshape" && !op.operands.empty() && !made.count(op.operands[0]);
    };
    std::vector<size_t> members{i}, moved;
    made.insert(region.ops[i].results[0]);
    size_t j = i + 1;
    for (; j < n; ++j) {
      if (reshapesOutside(j)) {
        moved.push_back(j);
      } else if (fusibleCount(j) == count && !readsGroup(j)) {
        members.push_back(j);
        made.insert(region.ops[j].results[0]);
      } else if (movable(j, made)) {
        moved.push_back(j);
      } else {
        break;
      }
    }
    if (members.size() < 2) {
      for (size_t k = i; k < j; ++k) addStep(k);
    } else {
      RegionPlan::Step step{members[0], int(plan.groups.size()), {}};
      for (size_t m : members) step.release.insert(step.release.end(), release[m].begin(), release[m].end());
      // A moved op now runs before members that came ahead of it: a value it reads last that a member
      // reads too must live until the group has run.
      auto readByMember = [&](int id) {
        auto it = users.find(id);
        return it != users.end() && std::any_of(it->second.begin(), it->second.end(), [&](size_t u) {
                 return std::binary_search(members.begin(), members.end(), u);
               });
      };
      for (size_t k : moved) {
        std::vector<int> now;
        for (int id : release[k]) (readByMember(id) ? step.release : now).push_back(id);
        plan.steps.push_back({k, -1, std::move(now)});
      }
      plan.groups.push_back(builder.build(members));
      chooseReuse(plan.groups.back(), step.release, splats);
      plan.steps.push_back(std::move(step));
    }
    i = j;
  }
  return plan;
}

}  // namespace tpjrt::cpu
