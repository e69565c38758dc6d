#include "ir/capture_constants.h"

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tpjrt::cpu {
namespace {

bool runsLaneByLane(const std::string& name) {
  static const std::set<std::string> ops = {"stablehlo.sort", "stablehlo.reduce", "stablehlo.reduce_window",
                                            "stablehlo.scatter", "stablehlo.select_and_scatter"};
  return ops.count(name) > 0;
}

class ConstantCopier {
 public:
  explicit ConstantCopier(Module& module) : module_(module) {
    for (const Function& f : module.functions) collect(f.body);
  }

  void run() {
    for (Function& f : module_.functions) visit(f.body);
  }

 private:
  void collect(const Region& region) {
    for (const Op& op : region.ops) {
      if (op.name == "stablehlo.constant" && op.results.size() == 1) constants_.emplace(op.results[0], op);
      for (const Region& nested : op.regions) collect(nested);
    }
  }

  void visit(Region& region) {
    for (Op& op : region.ops) {
      for (Region& nested : op.regions) {
        if (runsLaneByLane(op.name)) localize(nested);
        visit(nested);
      }
    }
  }

  void localize(Region& body) {
    std::unordered_set<int> own(body.args.begin(), body.args.end());
    for (const Op& op : body.ops) own.insert(op.results.begin(), op.results.end());
    std::unordered_map<int, int> copied;  // outside id → its copy's id
    std::vector<Op> copies;
    for (Op& op : body.ops) {
      for (int& id : op.operands) {
        if (own.count(id)) continue;
        auto constant = constants_.find(id);
        if (constant == constants_.end()) continue;
        auto [it, added] = copied.emplace(id, 0);
        if (added) {
          Op copy = constant->second;
          copy.results = {module_.numValues++};
          it->second = copy.results[0];
          copies.push_back(std::move(copy));
        }
        id = it->second;
      }
    }
    body.ops.insert(body.ops.begin(), std::make_move_iterator(copies.begin()), std::make_move_iterator(copies.end()));
  }

  Module& module_;
  std::unordered_map<int, Op> constants_;
};

}  // namespace

void copyCapturedConstants(Module& module) { ConstantCopier(module).run(); }

}  // namespace tpjrt::cpu
