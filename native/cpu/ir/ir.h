// The CPU plugin's in-memory form of a StableHLO module: what the parser produces, the verifier
// checks and the interpreter runs. Both MLIR forms (generic and pretty) parse into this one shape:
// attribute names are always the generic form's names (e.g. pretty `dims = [1]` on broadcast_in_dim
// becomes attrs["broadcast_dimensions"] as an I64Array).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/block_cache.h"
#include "ir/region_memo.h"

namespace tpjrt::cpu {

// Element types the plugin stores. Order is ours; map to PJRT_Buffer_Type with the helpers in
// ir/element_type.h, never by casting. The narrow types (from S2 on) are stored one per byte and only
// converted and moved by the kernels (ir/narrow_types.h).
enum class ElementType : uint8_t {
  Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64,
  S2, S4, U2, U4, F8E5M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2FNUZ, F8E4M3B11FNUZ, F8E4M3, F8E3M4, F8E8M0FNU, F4E2M1FN
};

struct TensorType {
  ElementType element = ElementType::F32;
  std::vector<int64_t> dims;  // static shapes only
  bool operator==(const TensorType& o) const { return element == o.element && dims == o.dims; }
  bool operator!=(const TensorType& o) const { return !(*this == o); }
};

// Allocates from the block cache (base/block_cache.h) and leaves value-initialised elements uninitialised,
// so that a buffer a kernel writes in full is not zero-filled first (ask for zeros: Bytes(n, 0)).
template <class T>
struct NoInitAllocator {
  using value_type = T;
  NoInitAllocator() = default;
  template <class U>
  NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
  T* allocate(size_t n) { return static_cast<T*>(allocateBlock(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { releaseBlock(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const NoInitAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using ByteVector = std::vector<uint8_t, NoInitAllocator<uint8_t>>;

// A literal's storage. Copies share it (a reshape, a result that is an argument or a constant, a
// buffer made from another's bytes), so reading is free; writing goes through mutableData, which
// first takes a private copy when the storage is shared. Call mutableData once, before any thread
// writes through the pointer.
class Bytes {
 public:
  Bytes() = default;
  explicit Bytes(size_t n) : v_(std::make_shared<ByteVector>(n)) {}
  Bytes(size_t n, uint8_t fill) : v_(std::make_shared<ByteVector>(n, fill)) {}
  template <class It>
  Bytes(It first, It last) : v_(std::make_shared<ByteVector>(first, last)) {}
  Bytes(std::initializer_list<uint8_t> values) : Bytes(values.begin(), values.end()) {}

  size_t size() const { return v_ ? v_->size() : 0; }
  bool empty() const { return size() == 0; }
  const uint8_t* data() const { return v_ ? v_->data() : nullptr; }
  const uint8_t* begin() const { return data(); }
  const uint8_t* end() const { return data() + size(); }
  uint8_t operator[](size_t i) const { return data()[i]; }
  uint8_t* mutableData() {
    if (!v_) return nullptr;
    if (v_.use_count() != 1) {
      auto copy = std::make_shared<ByteVector>(v_->size());  // not zeroed (NoInitAllocator)
      if (!v_->empty()) std::memcpy(copy->data(), v_->data(), v_->size());
      v_ = std::move(copy);
    }
    return v_->data();
  }
  bool shared() const { return v_ && v_.use_count() > 1; }
  bool sharesStorageWith(const Bytes& o) const { return v_ && v_ == o.v_; }
  bool operator==(const Bytes& o) const { return size() == o.size() && std::equal(begin(), end(), o.begin()); }
  bool operator!=(const Bytes& o) const { return !(*this == o); }

 private:
  std::shared_ptr<ByteVector> v_;
};

// Where a view's elements sit in storage it shares with another literal: element (i0, i1, …) at
// offset + Σ i·strides[d], counted in elements.
struct ViewLayout {
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

// An array of elements; the storage of every value at run time. Dense and row-major unless `view` is
// set. Views come only from the ops the plan runs as views (transpose, slice, reshape) and reach only
// what reads them through their strides: other view ops, dot_general and main's results, which become
// buffers (see exec/plan.h and kernels/views.h).
struct Literal {
  TensorType type;
  Bytes bytes;  // dense: numElements(type) * byteWidth(type.element); a view: the storage it reads
  std::shared_ptr<const ViewLayout> view = nullptr;
};

struct Attribute;
using AttributePtr = std::shared_ptr<const Attribute>;

// Attribute values. Enum-like attributes (`#stablehlo<comparison_direction GE>`, pretty `GE`) are
// kind Symbol with the bare keyword ("GE", "FLOAT", "DEFAULT"). Structured attributes
// (`#stablehlo.dot<lhs_batching_dimensions = [0], …>`) are kind Struct with their fields.
struct Attribute {
  enum class Kind { Int, Float, Bool, String, Symbol, I64Array, BoolArray, Array, Dense, Struct, Type };
  Kind kind = Kind::Int;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;                             // String and Symbol
  std::vector<int64_t> ints;                 // I64Array
  std::vector<bool> bools;                   // BoolArray
  std::vector<AttributePtr> items;           // Array (e.g. precision_config)
  Literal dense;                             // Dense: value with its tensor type; a splat holds one element
  std::map<std::string, AttributePtr> fields;  // Struct
  TensorType type;                           // Type (and the type of Int/Float when written `: i32`)
};

struct Region;
struct RegionPlan;  // the interpreter's (exec/plan.h)

struct Op {
  std::string name;                  // full name, e.g. "stablehlo.add", "func.return"
  std::vector<int> operands;         // value ids
  std::vector<int> results;          // value ids defined by this op
  std::vector<TensorType> operandTypes;
  std::vector<TensorType> resultTypes;
  std::map<std::string, AttributePtr> attrs;
  std::vector<Region> regions;
  int line = 0;                      // 1-based source line, for error messages
};

// One block per region (StableHLO regions used here have a single block).
struct Region {
  std::vector<int> args;             // value ids of the block arguments
  std::vector<TensorType> argTypes;
  std::vector<Op> ops;               // ends with stablehlo.return or func.return
  RegionMemo<RegionPlan> plan;       // how the interpreter runs the ops: main's when compiled, others on first run
};

// Whether `op` ends its region: func.return in a function, stablehlo.return in an op's region.
inline bool isTerminator(const Op& op) { return op.name == "func.return" || op.name == "stablehlo.return"; }

struct Function {
  std::string name;
  bool isPublic = true;
  std::vector<TensorType> resultTypes;
  Region body;                       // body.args/argTypes are the function parameters
  // Each parameter's attributes (`tf.aliasing_output`, …): one map per parameter, or none at all.
  std::vector<std::map<std::string, AttributePtr>> argAttrs;
  int line = 0;
};

struct Module {
  std::vector<Function> functions;
  std::map<std::string, AttributePtr> attrs;
  int numValues = 0;                 // value ids are 0 .. numValues-1, unique across the module
  const Function* find(const std::string& name) const {
    for (const auto& f : functions)
      if (f.name == name) return &f;
    return nullptr;
  }
};

}  // namespace tpjrt::cpu
