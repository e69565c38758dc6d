// Runs a function of a verified module by the steps of its region's plan (exec/plan.h): one op,
// or a fused group of element-wise ops run tile by tile. Values live in one table indexed by value id
// and are dropped after their last use. A reduce body is evaluated op by op over whole vectors of lanes
// ("lane mode"): every 0-d value inside it becomes a 1-d literal of the lane count, so each body op is
// one kernel call.
#include "exec/interpreter.h"

#include <algorithm>
#include <memory>
#include <new>
#include <string_view>

#include "base/thread_pool.h"
#include "exec/plan.h"
#include "kernels/kernels.h"
#include "kernels/views.h"

namespace tpjrt::cpu {

namespace {

// A value the evaluator made itself (not const, so that a result nobody else holds can be moved out).
Value owned(Literal&& l) { return std::make_shared<Literal>(std::move(l)); }

// Checks what an element-wise kernel relies on: operand element types and element counts.
void checkElementwise(const Op& op, const Operands& in, const TensorType& result) {
  const int64_t n = numElements(result);
  for (const Literal* x : in)
    if (numElements(x->type) != n && numElements(x->type) != 1)
      fail("operand " + typeString(x->type) + " does not match result " + typeString(result));
  auto expect = [&](const Literal* x, ElementType t) {
    if (x->type.element != t) fail("operand " + typeString(x->type) + " has the wrong element type");
  };
  using namespace std::literals;  // string_view compares lengths first: most ops fail at once
  if (op.name == "stablehlo.convert"sv) return;
  if (op.name == "stablehlo.compare"sv || op.name == "stablehlo.is_finite"sv) {
    if (result.element != ElementType::Pred) fail("result must be i1");
    for (const Literal* x : in) expect(x, in[0]->type.element);
  } else if (op.name == "stablehlo.select"sv) {
    expect(in[0], ElementType::Pred);
    expect(in[1], result.element);
    expect(in[2], result.element);
  } else {
    for (const Literal* x : in) expect(x, result.element);
  }
}

// Runs `body` for `op`; errors name its line and name.
template <class Body>
auto runWithContext(const Op& op, Body&& body) {
  try {
    return body();
  } catch (const CpuError& e) {
    std::string message = e.what();
    if (message.rfind("line ", 0) == 0) throw;
    throw CpuError(e.code(), "line " + std::to_string(op.line) + ": " + op.name + ": " + message);
  } catch (const std::bad_alloc&) {
    throw CpuError(ErrorCode::Internal, "line " + std::to_string(op.line) + ": " + op.name + ": out of memory");
  }
}

class Evaluator {
 public:
  Evaluator(const Module& module, bool fuse)
      : values_(size_t(std::max(module.numValues, 0))), splat_(values_.size(), false), fuse_(fuse) {}

  // Runs `region` with `args` bound to its block arguments and returns its terminator's operands.
  // `lanes` is set in lane mode (see the file comment).
  std::vector<Value> run(const Region& region, const std::vector<Value>& args, const std::vector<int64_t>* lanes) {
    if (args.size() != region.args.size())
      fail("expected " + std::to_string(region.args.size()) + " arguments, got " + std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); ++i) set(region.args[i], args[i]);
    return runBound(region, lanes);
  }

  // The same, taking the arguments: one nothing else holds dies in the run, which may reuse its storage.
  std::vector<Value> run(const Region& region, std::vector<Value>&& args) {
    if (args.size() != region.args.size())
      fail("expected " + std::to_string(region.args.size()) + " arguments, got " + std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); ++i) set(region.args[i], std::move(args[i]));
    return runBound(region, nullptr);
  }

 private:
  // Runs `region`, its arguments set.
  std::vector<Value> runBound(const Region& region, const std::vector<int64_t>* lanes) {
    if (lanes) {
      for (const Op& op : region.ops) {
        if (isTerminator(op)) return terminatorValues(op);
        runWithContext(op, [&] { runOp(op, lanes, findKernel(op.name), nullptr); });
      }
      fail("region has no return", ErrorCode::Internal);
    }
    std::unique_ptr<RegionPlan> unfused;  // the reference plan, made per run
    if (!fuse_) unfused = std::make_unique<RegionPlan>(planRegion(region, false));
    const RegionPlan& plan = unfused ? *unfused : region.plan.get([&] { return planRegion(region); });
    for (size_t i = 0; i < region.args.size(); ++i) {
      const Value& arg = get(region.args[i]);
      if (arg->view && !plan.viewArgs[i]) set(region.args[i], owned(denseOf(*arg)));
    }
    for (int id : plan.splats)
      if (id >= 0 && size_t(id) < splat_.size()) splat_[size_t(id)] = true;
    for (const RegionPlan::Step& step : plan.steps) {
      if (step.group >= 0) {
        const FusedGroup& group = plan.groups[size_t(step.group)];
        runWithContext(region.ops[group.firstOp], [&] { runGroup(group); });
      } else {
        const Op& op = region.ops[step.op];
        if (isTerminator(op)) return terminatorValues(op);
        if (plan.views[step.op]) {
          runWithContext(op, [&] { set(op.results[0], owned(viewOf(op, *get(op.operands[0]), op.resultTypes[0]))); });
        } else if (plan.forwards[step.op] >= 0) {
          set(op.results[0], get(plan.forwards[step.op]));  // its dot_general added the row
        } else if (plan.rowAdd[step.op] >= 0) {
          runWithContext(op, [&] {
            set(op.results[0], owned(dotGeneralAddRow(op, operands(op), *get(plan.rowAdd[step.op]), op.resultTypes[0])));
          });
        } else if (plan.sortedPrefix[step.op] > 0) {
          runWithContext(op, [&] { runRegionOp(op, plan.sortedPrefix[step.op]); });
        } else if (!plan.kernels[step.op] && op.name == "stablehlo.scatter") {
          runWithContext(op, [&] { runScatter(op, step.release); });
        } else if (!plan.skipped[step.op]) {
          runWithContext(op, [&] { runOp(op, nullptr, plan.kernels[step.op], plan.loops[step.op]); });
        }
      }
      for (int id : step.release) values_[size_t(id)].reset();
    }
    fail("region has no return", ErrorCode::Internal);
  }

  const Value& get(int id) {
    if (id < 0 || size_t(id) >= values_.size()) fail("value id " + std::to_string(id) + " out of range", ErrorCode::Internal);
    if (!values_[size_t(id)]) fail("value %" + std::to_string(id) + " used before it is defined", ErrorCode::Internal);
    return values_[size_t(id)];
  }

  void set(int id, Value v) {
    if (id < 0 || size_t(id) >= values_.size()) fail("value id " + std::to_string(id) + " out of range", ErrorCode::Internal);
    values_[size_t(id)] = std::move(v);
  }

  Operands operands(const Op& op) {
    Operands in;
    in.reserve(op.operands.size());
    for (int id : op.operands) in.push_back(get(id).get());
    return in;
  }

  std::vector<Value> terminatorValues(const Op& op) {
    std::vector<Value> results;
    results.reserve(op.operands.size());
    for (int id : op.operands) results.push_back(get(id));
    return results;
  }

  // `kernel` is the op's entry in the kernel table (nullptr for the ops run here by name); `loop` is its
  // element-wise loop when already resolved for its types.
  void runOp(const Op& op, const std::vector<int64_t>* lanes, const KernelInfo* kernel, ElementLoop loop) {
    if (op.results.size() != op.resultTypes.size()) fail("result types do not match results", ErrorCode::Internal);
    if (!kernel) {
      if (op.name == "stablehlo.constant") return runConstant(op, lanes);
      if (op.name == "stablehlo.reduce") return runReduce(op, lanes);
      if (op.name == "stablehlo.reduce_window" || op.name == "stablehlo.select_and_scatter" ||
          op.name == "stablehlo.while" || op.name == "stablehlo.case" || op.name == "stablehlo.scatter" ||
          op.name == "stablehlo.sort") {
        if (lanes) fail("not supported inside a reduce body", ErrorCode::Unimplemented);
        return op.name == "stablehlo.scatter" ? runScatter(op, {}) : runRegionOp(op);
      }
      fail("not supported by the CPU plugin", ErrorCode::Unimplemented);
    }
    if (op.results.size() != 1) fail("expects one result", ErrorCode::Internal);
    Operands in = operands(op);
    if (!lanes && in.size() == 1 && op.name == "stablehlo.broadcast_in_dim" && isSplat(op.results[0]) &&
        numElements(in[0]->type) == 1 && in[0]->type.element == op.resultTypes[0].element)
      return set(op.results[0], get(op.operands[0]));  // its one element stands for all (see splatOperands)
    if (in.size() < kernel->minOperands || in.size() > kernel->maxOperands) fail("wrong number of operands");
    TensorType laneResult;  // the result type in lane mode
    if (lanes) {
      const TensorType& declared = op.resultTypes[0];
      if (kernel->elementwise()) {
        laneResult = {declared.element, *lanes};
      } else if (declared.dims.empty() && !in.empty() && op.operandTypes.size() == in.size() &&
                 op.operandTypes[0].dims.empty() && in[0]->type.element == declared.element &&
                 op.name != "stablehlo.dot_general") {
        // A shape op on scalars is the identity.
        return set(op.results[0], get(op.operands[0]));
      } else {
        fail("not supported inside a reduce body", ErrorCode::Unimplemented);
      }
    }
    const TensorType& result = lanes ? laneResult : op.resultTypes[0];
    if (!kernel->elementwise()) return set(op.results[0], owned(kernel->run(op, in, result)));
    checkElementwise(op, in, result);
    if (!loop) {
      std::vector<ElementType> types;
      for (const Literal* x : in) types.push_back(x->type.element);
      loop = kernel->loop(op, types, result.element);
    }
    set(op.results[0], owned(runElementwise(loop, in, result)));
  }

  // Output o of g: the storage of the input the plan lets it take, when nothing outside this run
  // holds that input or its storage (not an argument, a constant or a reshape of one), else new storage.
  Literal outputLiteral(const FusedGroup& g, size_t o) {
    const TensorType& type = g.outputTypes[o];
    if (g.reuse.empty() || g.reuse[o] < 0) return uninitializedLiteral(type);
    Value& input = values_[size_t(g.inputs[size_t(g.reuse[o])])];
    if (input.use_count() != 1 || input->bytes.shared() ||
        input->bytes.size() != size_t(numElements(type)) * byteWidth(type.element))
      return uninitializedLiteral(type);
    Literal& owner = const_cast<Literal&>(*input);  // made by this run (owned) and held only here
    return Literal{type, std::move(owner.bytes)};
  }

  struct Resolved {
    const uint8_t* base;
    size_t width;  // 0 for a splat
  };

  static bool isRow(const FusedGroup::Source& s) { return s.kind == FusedGroup::Source::Kind::Row; }

  // An element step of a fused group at the current tile (see runGroup).
  struct TileCall {
    ElementLoop loop = nullptr;  // unset for steps with row operands and position steps
    size_t operands = 0;
    const void* in[kMaxElementwiseOperands] = {};
    bool splat[kMaxElementwiseOperands] = {};
    size_t inAdvance[kMaxElementwiseOperands] = {};  // bytes per tile
    uint8_t* out = nullptr;
    size_t outAdvance = 0;
  };

  // Runs element step `step` over positions [tile, tile + n), whose operands start at `tileIn` (at the
  // tile's first position, with `tileSplat`; row operands unset) and result at `out`, in runs over
  // which every row operand (FusedGroup::Row) holds one value, passed as a splat.
  static void runByRows(const FusedGroup& g, const FusedGroup::Step& step, const std::vector<Resolved>& inputs,
                        const void* const* tileIn, const bool* tileSplat, uint8_t* out, int64_t tile, int64_t n) {
    const void* in[kMaxElementwiseOperands] = {};
    bool splat[kMaxElementwiseOperands] = {};
    int64_t runEnd[kMaxElementwiseOperands] = {}, source[kMaxElementwiseOperands] = {};
    for (size_t k = 0; k < step.in.size(); ++k) {
      if (!isRow(step.in[k])) continue;
      const PositionStep& position = g.rows[step.in[k].index].position;
      runEnd[k] = (tile / position.dims.back() + 1) * position.dims.back();
      source[k] = position.sourceOf(tile);
    }
    for (int64_t p = tile; p < tile + n;) {
      int64_t q = tile + n;
      for (size_t k = 0; k < step.in.size(); ++k)
        if (isRow(step.in[k])) q = std::min(q, runEnd[k]);
      for (size_t k = 0; k < step.in.size(); ++k) {
        if (isRow(step.in[k])) {
          const Resolved& x = inputs[g.rows[step.in[k].index].input];
          in[k] = x.base + size_t(source[k]) * x.width;  // a splat input has width 0
          splat[k] = true;
        } else {
          splat[k] = tileSplat[k];
          in[k] = static_cast<const uint8_t*>(tileIn[k]) + (splat[k] ? 0 : size_t(p - tile) * step.inWidth[k]);
        }
      }
      step.loop(in, splat, out + size_t(p - tile) * step.outWidth, q - p);
      p = q;
      for (size_t k = 0; k < step.in.size(); ++k) {
        if (!isRow(step.in[k]) || p != runEnd[k]) continue;
        const PositionStep& position = g.rows[step.in[k].index].position;
        runEnd[k] += position.dims.back();
        // [outer, run] (the usual row): the next run's value is one outer stride on
        source[k] = position.dims.size() == 2 ? source[k] + position.strides[0] : position.sourceOf(p);
      }
    }
  }

  // Runs a fused group over tiles (see exec/plan.h), pieces of it on the thread pool.
  void runGroup(const FusedGroup& g) {
    std::vector<Resolved> inputs;
    inputs.reserve(g.inputs.size());
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      const Literal& x = *get(g.inputs[i]);
      const int64_t n = numElements(x.type), declared = numElements(g.inputTypes[i]);
      // A value of the group's count may be held as a splat; one element stands for every position
      // (select's predicate may be declared as one). A broadcast reads its operand whole.
      if (x.type.element != g.inputTypes[i].element || (n != declared && !(n == 1 && declared == g.count)))
        fail("operand " + typeString(x.type) + " does not match " + typeString(g.inputTypes[i]));
      inputs.push_back({x.bytes.data(), n == 1 ? 0 : byteWidth(x.type.element)});
    }
    std::vector<Literal> outputs;
    outputs.reserve(g.outputs.size());
    std::vector<uint8_t*> outBase;  // taken here, before the pieces run on other threads
    for (size_t o = 0; o < g.outputTypes.size(); ++o) {
      outputs.push_back(outputLiteral(g, o));
      outBase.push_back(outputs.back().bytes.mutableData());
    }
    const size_t slotBytes = size_t(std::min(g.count, kFusedTile)) * kWidestElement;
    parallelRange(g.count, kParallelElements, [&](int64_t begin, int64_t end) {
      const ScratchBlock scratch(g.slots * slotBytes);
      auto at = [&](const FusedGroup::Source& s, int64_t offset, bool& splat) -> uint8_t* {
        splat = false;
        switch (s.kind) {
          case FusedGroup::Source::Kind::Input:
            splat = inputs[s.index].width == 0;
            return const_cast<uint8_t*>(inputs[s.index].base) + size_t(offset) * inputs[s.index].width;
          case FusedGroup::Source::Kind::Slot: return scratch.as<uint8_t>() + s.index * slotBytes;
          case FusedGroup::Source::Kind::Output:
            return outBase[s.index] + size_t(offset) * byteWidth(g.outputTypes[s.index].element);
          case FusedGroup::Source::Kind::Row: break;  // read run by run (runByRows)
        }
        return nullptr;
      };
      // Element steps without row operands are set up once per piece, then called tile after tile with
      // their pointers moved on a tile (slots and splats stay): per tile a step costs one call.
      std::vector<TileCall> calls(g.steps.size());
      for (size_t s = 0; s < g.steps.size(); ++s) {
        const FusedGroup::Step& step = g.steps[s];
        if (step.position || std::any_of(step.in.begin(), step.in.end(), isRow)) continue;
        TileCall& call = calls[s];
        call.loop = step.loop;
        call.operands = step.in.size();
        for (size_t k = 0; k < step.in.size(); ++k) {
          call.in[k] = at(step.in[k], begin, call.splat[k]);
          const bool moves = step.in[k].kind != FusedGroup::Source::Kind::Slot && !call.splat[k];
          call.inAdvance[k] = moves ? size_t(kFusedTile) * step.inWidth[k] : 0;
        }
        bool unused;
        call.out = at(step.out, begin, unused);
        call.outAdvance = step.out.kind == FusedGroup::Source::Kind::Slot ? 0 : size_t(kFusedTile) * step.outWidth;
      }
      for (int64_t tile = begin; tile < end; tile += kFusedTile) {
        const int64_t n = std::min(kFusedTile, end - tile);
        for (size_t s = 0, steps = calls.size(); s < steps; ++s) {
          if (TileCall& call = calls[s]; call.loop) {
            call.loop(call.in, call.splat, call.out, n);
            for (size_t k = 0; k < call.operands; ++k) call.in[k] = static_cast<const uint8_t*>(call.in[k]) + call.inAdvance[k];
            call.out += call.outAdvance;
            continue;
          }
          const FusedGroup::Step& step = g.steps[s];
          bool unused;
          uint8_t* out = at(step.out, tile, unused);
          if (step.position) {  // reads its whole operand (a group input), by position
            step.position->run(step.in.empty() ? nullptr : inputs[step.in[0].index].base, tile, out, n);
            continue;
          }
          const void* in[kMaxElementwiseOperands] = {};
          bool splat[kMaxElementwiseOperands] = {};
          for (size_t k = 0; k < step.in.size(); ++k)
            if (!isRow(step.in[k])) in[k] = at(step.in[k], tile, splat[k]);
          runByRows(g, step, inputs, in, splat, out, tile, n);
        }
      }
    });
    for (size_t i = 0; i < outputs.size(); ++i) set(g.outputs[i], owned(std::move(outputs[i])));
  }

  void runConstant(const Op& op, const std::vector<int64_t>* lanes) {
    auto it = op.attrs.find("value");
    if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Dense)
      fail("missing dense attribute value");
    const AttributePtr& attr = it->second;
    const Literal& value = attr->dense;
    TensorType result = op.resultTypes.size() == 1 ? op.resultTypes[0] : value.type;
    if (lanes) result.dims = *lanes;
    const size_t width = byteWidth(result.element);
    if (value.type.element != result.element || value.bytes.size() % width != 0)
      fail("value " + typeString(value.type) + " does not match result " + typeString(result));
    if (!lanes && isSplat(op.results[0]) && value.bytes.size() >= width)  // see splatOperands
      return set(op.results[0], owned(Literal{{result.element, {}}, Bytes(value.bytes.begin(), value.bytes.begin() + width)}));
    const size_t bytes = size_t(numElements(result)) * width;
    if (value.type == result && value.bytes.size() == bytes)
      return set(op.results[0], Value(attr, &attr->dense));  // shares the attribute's bytes
    if (value.bytes.size() == bytes) return set(op.results[0], owned(Literal{result, value.bytes}));
    if (value.bytes.size() != width) fail("value " + typeString(value.type) + " does not match result " + typeString(result));
    Literal out = uninitializedLiteral(result);
    fillWith(out, value.bytes);
    set(op.results[0], owned(std::move(out)));
  }

  void runReduce(const Op& op, const std::vector<int64_t>* lanes) {
    if (lanes) fail("reduce inside a reduce body is not supported", ErrorCode::Unimplemented);
    if (op.regions.size() != 1) fail("expects one body region");
    Operands in = operands(op);
    const Region& bodyRegion = op.regions[0];
    ReduceBody body = [&](const std::vector<Value>& args) {
      std::vector<int64_t> laneDims = args.empty() ? std::vector<int64_t>{} : args[0]->type.dims;
      return run(bodyRegion, args, &laneDims);
    };
    std::vector<Literal> results = reduceKernel(op, in, body);
    if (results.size() != op.results.size()) fail("wrong number of results", ErrorCode::Internal);
    for (size_t i = 0; i < results.size(); ++i)
      set(op.results[i], owned(std::move(results[i])));
  }

  // A region evaluated over lanes, as a reduce body is.
  ReduceBody laneBody(const Region& region) {
    return [this, &region](const std::vector<Value>& args) {
      std::vector<int64_t> laneDims = args.empty() ? std::vector<int64_t>{} : args[0]->type.dims;
      return run(region, args, &laneDims);
    };
  }

  // A scatter's results are written into its inputs' storage: an input whose last use this is (it is in
  // `dying`), read nowhere else by the op and held only by the value table is handed over, not copied.
  void runScatter(const Op& op, std::span<const int> dying) {
    const size_t n = op.operands.size() / 2;
    if (n == 0 || op.operands.size() != 2 * n + 1 || op.regions.size() != 1)
      fail("expects N inputs, indices, N updates and one body region");
    std::vector<Literal> inputs;
    for (size_t i = 0; i < n; ++i) inputs.push_back(*get(op.operands[i]));  // shares the storage
    Operands updates;
    for (size_t i = n + 1; i < op.operands.size(); ++i) updates.push_back(get(op.operands[i]).get());
    for (size_t i = 0; i < n; ++i) {
      const int id = op.operands[i];
      if (std::count(op.operands.begin(), op.operands.end(), id) == 1 &&
          std::find(dying.begin(), dying.end(), id) != dying.end() && values_[size_t(id)].use_count() == 1)
        values_[size_t(id)].reset();
    }
    std::vector<Literal> results =
        scatterKernel(op, std::move(inputs), *get(op.operands[n]), updates, laneBody(op.regions[0]));
    if (results.size() != op.results.size()) fail("wrong number of results", ErrorCode::Internal);
    for (size_t i = 0; i < results.size(); ++i) set(op.results[i], owned(std::move(results[i])));
  }

  // reduce_window, select_and_scatter, sort (ordering only its first sortedPrefix positions when that is
  // set: see RegionPlan), while and case.
  void runRegionOp(const Op& op, int64_t sortedPrefix = 0) {
    Operands in = operands(op);
    std::vector<Value> outs;
    if (op.name == "stablehlo.sort") {
      if (op.regions.size() != 1) fail("expects one body region");
      for (Literal& r : sortKernel(op, in, laneBody(op.regions[0]), sortedPrefix)) outs.push_back(owned(std::move(r)));
    } else if (op.name == "stablehlo.reduce_window") {
      if (op.regions.size() != 1) fail("expects one body region");
      for (Literal& r : reduceWindowKernel(op, in, laneBody(op.regions[0]))) outs.push_back(owned(std::move(r)));
    } else if (op.name == "stablehlo.select_and_scatter") {
      if (op.regions.size() != 2) fail("expects select and scatter regions");
      outs.push_back(owned(
          selectAndScatterKernel(op, in, laneBody(op.regions[0]), laneBody(op.regions[1]))));
    } else if (op.name == "stablehlo.while") {
      if (op.regions.size() != 2) fail("expects cond and body regions");
      for (int id : op.operands) outs.push_back(get(id));
      while (true) {
        std::vector<Value> cond = run(op.regions[0], outs, nullptr);
        if (cond.size() != 1 || cond[0]->type.element != ElementType::Pred || cond[0]->bytes.size() != 1)
          fail("cond must return one tensor<i1>");
        if (!cond[0]->bytes[0]) break;
        outs = run(op.regions[1], outs, nullptr);
      }
    } else {  // case: an out-of-range index runs the last branch
      if (op.regions.empty() || in.size() != 1) fail("expects an index and at least one branch");
      int64_t index = readIndex(*in[0]);
      size_t branch = index < 0 || index >= int64_t(op.regions.size()) ? op.regions.size() - 1 : size_t(index);
      outs = run(op.regions[branch], {}, nullptr);
    }
    if (outs.size() != op.results.size()) fail("wrong number of results", ErrorCode::Internal);
    for (size_t i = 0; i < outs.size(); ++i) {
      if (outs[i]->type != op.resultTypes[i]) fail("result " + std::to_string(i) + " has the wrong type", ErrorCode::Internal);
      set(op.results[i], outs[i]);
    }
  }

  bool isSplat(int id) const { return id >= 0 && size_t(id) < splat_.size() && splat_[size_t(id)]; }

  std::vector<Value> values_;
  std::vector<bool> splat_;  // value ids kept as one element (see splatOperands)
  bool fuse_;
};

}  // namespace

std::vector<Literal> interpret(const Module& module, const Function& function, const std::vector<Value>& args,
                               bool fuse, ViewResults views) {
  std::vector<Value> held(args);
  return interpret(module, function, std::move(held), fuse, views);
}

std::vector<Value> interpretShared(const Module& module, const Function& function, std::vector<Value>&& args,
                                  bool fuse) {
  for (const Value& a : args) {
    if (!a) fail("argument is null", ErrorCode::Internal);
    if (a->view ? !viewFits(*a) : a->bytes.size() != size_t(numElements(a->type)) * byteWidth(a->type.element))
      fail("argument " + typeString(a->type) + " holds the wrong number of bytes");
  }
  if (fuse) {
    const Region& body = function.body;
    const RegionPlan& plan = body.plan.get([&] { return planRegion(body); });
    if (plan.loneOpArgs && args.size() == body.args.size()) {
      const Op& op = body.ops[0];
      const Literal* in[kMaxElementwiseOperands] = {};
      bool asDeclared = true;
      for (size_t k = 0; k < plan.loneOpArgs->size(); ++k) {
        in[k] = args[(*plan.loneOpArgs)[k]].get();
        asDeclared = asDeclared && !in[k]->view && in[k]->type == op.operandTypes[k];
      }
      if (asDeclared)
        return {runWithContext(op, [&] {
          return owned(runElementwise(plan.loops[0], {in, plan.loneOpArgs->size()}, op.resultTypes[0]));
        })};
    }
  }
  Evaluator evaluator(module, fuse);
  return evaluator.run(function.body, std::move(args));
}

std::vector<Literal> interpret(const Module& module, const Function& function, std::vector<Value>&& args, bool fuse,
                               ViewResults views) {
  std::vector<Value> outs = interpretShared(module, function, std::move(args), fuse);
  std::vector<Literal> results;
  results.reserve(outs.size());
  for (Value& v : outs) {
    // A result only we hold was made by the evaluator (arguments and constants are held elsewhere too):
    // move its bytes out instead of copying them.
    if (v->view && views == ViewResults::Densify) results.push_back(denseOf(*v));
    else if (v.use_count() == 1) results.push_back(std::move(const_cast<Literal&>(*v)));
    else results.push_back(*v);
  }
  return results;
}

std::vector<Literal> interpret(const Module& module, const Function& function, const std::vector<Literal>& args,
                               bool fuse) {
  std::vector<Value> borrowed;
  borrowed.reserve(args.size());
  for (const Literal& a : args) borrowed.push_back(Value(&a, [](const Literal*) {}));  // the caller's args outlive the run
  return interpret(module, function, borrowed, fuse, ViewResults::Densify);
}

}  // namespace tpjrt::cpu
