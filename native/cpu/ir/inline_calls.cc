// Inlines func.call (see ir/inline_calls.h). Each function is made call-free callees first, so inlining a
// call copies a body that has no calls left; the chain of functions being flattened finds recursion.
#include "ir/inline_calls.h"

#include <algorithm>
#include <climits>
#include <string>
#include <unordered_map>

#include "base/error.h"
#include "ir/element_type.h"

namespace tpjrt::cpu {
namespace {

std::string typeList(const std::vector<TensorType>& types) {
  std::string out;
  for (const auto& t : types) out += (out.empty() ? "" : ", ") + typeString(t);
  return "(" + out + ")";
}

class Inliner {
 public:
  explicit Inliner(Module& module)
      : module_(module), state_(module.functions.size(), State::Todo), height_(module.functions.size(), 0) {}

  void run() {
    for (size_t i = 0; i < module_.functions.size(); ++i) flatten(i, nullptr);
  }

 private:
  enum class State { Todo, Flattening, Done };
  using Ids = std::unordered_map<int, int>;

  // Makes function `index` call-free. `call` is the call that needs it (for messages), or null.
  void flatten(size_t index, const Op* call) {
    if (state_[index] == State::Done) return;
    if (call && chain_.size() > size_t(kMaxCallDepth)) tooDeep(*call, index);
    state_[index] = State::Flattening;
    chain_.push_back(index);
    Ids replaced;
    inlineRegion(module_.functions[index].body, replaced, height_[index]);
    chain_.pop_back();
    state_[index] = State::Done;
  }

  // Inlines the calls of `region` (and of regions nested in it). `replaced` maps the results of calls
  // already inlined to the values that stand for them; `height` grows to 1 + the callees' heights.
  void inlineRegion(Region& region, Ids& replaced, int& height) {
    std::vector<Op> out;
    out.reserve(region.ops.size());
    for (Op& op : region.ops) {
      for (int& id : op.operands) {
        auto it = replaced.find(id);
        if (it != replaced.end()) id = it->second;
      }
      for (Region& nested : op.regions) inlineRegion(nested, replaced, height);
      if (op.name == "func.call") {
        inlineCall(op, out, replaced, height);
      } else {
        out.push_back(std::move(op));
      }
    }
    region.ops = std::move(out);
  }

  void inlineCall(const Op& call, std::vector<Op>& out, Ids& replaced, int& height) {
    size_t index = callee(call);
    const Function& f = module_.functions[index];
    if (state_[index] == State::Flattening)
      fail(where(call) + "@" + f.name + " calls itself (" + chainText(index) +
           "); the cpu plugin cannot run recursive calls");
    flatten(index, &call);
    height = std::max(height, height_[index] + 1);
    if (height > kMaxCallDepth) tooDeep(call, index);
    if (call.operandTypes != f.body.argTypes || call.operands.size() != f.body.args.size())
      fail(where(call) + "passes " + typeList(call.operandTypes) + " but @" + f.name + " takes " +
           typeList(f.body.argTypes));
    if (call.resultTypes != f.resultTypes || call.results.size() != f.resultTypes.size())
      fail(where(call) + "expects " + typeList(call.resultTypes) + " but @" + f.name + " returns " +
           typeList(f.resultTypes));
    const std::vector<Op>& body = f.body.ops;
    if (body.empty() || body.back().name != "func.return" || body.back().operands.size() != f.resultTypes.size())
      fail(where(call) + "@" + f.name + " must end with a func.return of its results");
    Ids ids;
    for (size_t i = 0; i < call.operands.size(); ++i) ids[f.body.args[i]] = call.operands[i];
    for (size_t i = 0; i + 1 < body.size(); ++i) {
      if (body[i].name == "func.return")
        fail(where(body[i]) + "func.return must be the last op of @" + f.name);
      out.push_back(clone(body[i], ids));
    }
    for (size_t i = 0; i < call.results.size(); ++i) replaced[call.results[i]] = mapped(ids, body.back().operands[i]);
  }

  size_t callee(const Op& call) {
    auto it = call.attrs.find("callee");
    if (it == call.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Symbol ||
        it->second->s.empty() || it->second->s[0] != '@')
      fail(where(call) + "missing attribute callee (a @function)");
    const std::string name = it->second->s.substr(1);
    for (size_t i = 0; i < module_.functions.size(); ++i)
      if (module_.functions[i].name == name) return i;
    fail(where(call) + "calls @" + name + ", which the module does not define");
  }

  // A copy of `src` with fresh ids for every value it defines; `ids` maps old ids to new ones.
  Op clone(const Op& src, Ids& ids) {
    Op op;
    op.name = src.name;
    op.line = src.line;
    op.operandTypes = src.operandTypes;
    op.resultTypes = src.resultTypes;
    op.attrs = src.attrs;  // attributes are immutable and shared
    for (int id : src.operands) op.operands.push_back(mapped(ids, id));
    for (const Region& r : src.regions) {
      Region copy;
      copy.argTypes = r.argTypes;
      for (int a : r.args) copy.args.push_back(ids[a] = fresh(src));
      for (const Op& inner : r.ops) copy.ops.push_back(clone(inner, ids));
      op.regions.push_back(std::move(copy));
    }
    for (int id : src.results) op.results.push_back(ids[id] = fresh(src));
    charge(src);
    return op;
  }

  int fresh(const Op& at) {
    charge(at);
    if (module_.numValues >= INT_MAX - 1) fail(where(at) + "too many values after inlining calls");
    return module_.numValues++;
  }

  // Counts one more op or value made by inlining.
  void charge(const Op& at) {
    if (++made_ > kMaxInlinedOps)
      fail("line " + std::to_string(at.line) + ": " + at.name + ": inlining the module's calls would make it larger than " +
           std::to_string(kMaxInlinedOps) + " ops and values");
  }

  static int mapped(const Ids& ids, int id) {
    auto it = ids.find(id);
    return it == ids.end() ? id : it->second;
  }

  static std::string where(const Op& op) { return "line " + std::to_string(op.line) + ": " + op.name + ": "; }

  [[noreturn]] void tooDeep(const Op& call, size_t index) {
    fail(where(call) + "calls nest more than " + std::to_string(kMaxCallDepth) + " deep (" + chainText(index) +
         ", …); the cpu plugin stops there");
  }

  // "@main → @f → @g" ending at `index` (added when it is not already last).
  std::string chainText(size_t index) {
    auto start = std::find(chain_.begin(), chain_.end(), index);
    if (start == chain_.end()) start = chain_.begin();
    std::string text;
    size_t shown = 0;
    for (auto it = start; it != chain_.end(); ++it, ++shown) {
      if (shown == 8 && chain_.end() - it > 2) {
        text += " → …";
        it = chain_.end() - 2;
      }
      text += (text.empty() ? "@" : " → @") + module_.functions[*it].name;
    }
    text += (text.empty() ? "@" : " → @") + module_.functions[index].name;
    return text;
  }

  Module& module_;
  std::vector<State> state_;
  std::vector<int> height_;   // longest chain of calls below each flattened function
  std::vector<size_t> chain_;  // functions being flattened, outermost first
  size_t made_ = 0;
};

}  // namespace

void inlineCalls(Module& module) {
  bool anyCall = false;
  auto scan = [&](const Region& region, auto& self) -> void {
    for (const Op& op : region.ops) {
      if (op.name == "func.call") anyCall = true;
      for (const Region& nested : op.regions) self(nested, self);
    }
  };
  for (const Function& f : module.functions) scan(f.body, scan);
  if (anyCall) Inliner(module).run();
}

}  // namespace tpjrt::cpu
