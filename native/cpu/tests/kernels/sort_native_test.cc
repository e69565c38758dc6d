// sort's fast path (kernels/sort_native.cc) against the general path (kernels/sort.cc: merges that
// evaluate the comparator region), bit for bit: every recognised comparator and key type, slices along
// the first, middle and last dimension, whole sorts and prefixes (topk) of every size the scan and the
// selection take, on keys with many ties, NaNs of both signs and several payloads, ±0, ±inf and the
// extremes of each integer type, in random, increasing and decreasing order.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/stablehlo.h"
#include "kernels/sort_native.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

std::string tensorType(const std::vector<int64_t>& dims, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + element + ">";
}

std::string ints(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

// The comparator on %a, %b (the keys, of scalar type `t`) leaving its answer in %r: the one the fast path
// recognises, or, `recognised` false, the same order with one more op (which only the general path runs).
std::string comparator(const std::string& t, bool floating, bool descending, bool recognised) {
  auto cmp = [&](const char* r, const char* a, const char* b, const char* d) {
    return std::string("    %") + r + " = \"stablehlo.compare\"(%" + a + ", %" + b +
           ") {comparison_direction = #stablehlo<comparison_direction " + d + ">} : (" + t + ", " + t + ") -> tensor<i1>\n";
  };
  auto logic = [](const char* r, const char* op, const char* a, const char* b) {
    return std::string("    %") + r + " = \"stablehlo." + op + "\"(%" + a + ", %" + b + ") : (tensor<i1>, tensor<i1>) -> tensor<i1>\n";
  };
  const char* answer = recognised ? "r" : "q";
  std::string s;
  if (!floating) {
    s = cmp(answer, "a", "b", descending ? "GT" : "LT");
  } else {
    s = cmp("lt", "a", "b", descending ? "GT" : "LT");
    s += cmp("nan", descending ? "a" : "b", descending ? "a" : "b", "NE");
    s += cmp("num", descending ? "b" : "a", descending ? "b" : "a", "EQ");
    s += logic("side", "and", "nan", "num");
    s += logic(answer, "or", "lt", "side");
  }
  if (recognised) return s;
  s += "    %yes = \"stablehlo.constant\"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>\n";
  return s + logic("r", "and", "q", "yes");
}

// main(%x: keys, %y: s64 payload) sorting both along `dim` with `body`, returning the sorted values and
// payload, each sliced to [0, k) along dim when k > 0 (a topk: the plan orders only that prefix).
std::string sortModule(const std::string& element, const std::vector<int64_t>& dims, int64_t dim, const std::string& body,
                       int64_t k) {
  const std::string x = tensorType(dims, element), y = tensorType(dims, "i64"), t = "tensor<" + element + ">";
  std::vector<int64_t> limit = dims;
  if (k > 0) limit[size_t(dim)] = k;
  const std::string xs = tensorType(limit, element), ys = tensorType(limit, "i64");
  std::string s = "func.func public @main(%x: " + x + ", %y: " + y + ") -> (" + xs + ", " + ys + ") {\n";
  s += "  %s:2 = \"stablehlo.sort\"(%x, %y) ({\n";
  s += "  ^bb0(%a: " + t + ", %b: " + t + ", %c: tensor<i64>, %d: tensor<i64>):\n" + body;
  s += "    \"stablehlo.return\"(%r) : (tensor<i1>) -> ()\n";
  s += "  }) {dimension = " + std::to_string(dim) + " : i64, is_stable = true} : (" + x + ", " + y + ") -> (" + x + ", " + y + ")\n";
  if (k > 0) {
    const std::string attrs = "{start_indices = array<i64: " + ints(std::vector<int64_t>(dims.size(), 0)) +
                              ">, limit_indices = array<i64: " + ints(limit) + ">, strides = array<i64: " +
                              ints(std::vector<int64_t>(dims.size(), 1)) + ">}";
    s += "  %v = \"stablehlo.slice\"(%s#0) " + attrs + " : (" + x + ") -> " + xs + "\n";
    s += "  %i = \"stablehlo.slice\"(%s#1) " + attrs + " : (" + y + ") -> " + ys + "\n";
    s += "  \"func.return\"(%v, %i) : (" + xs + ", " + ys + ") -> ()\n}\n";
  } else {
    s += "  \"func.return\"(%s#0, %s#1) : (" + x + ", " + y + ") -> ()\n}\n";
  }
  return s;
}

struct KeyType {
  ElementType element;
  const char* name;
  bool floating;
};

const KeyType kKeyTypes[] = {
    {ElementType::F32, "f32", true},  {ElementType::F64, "f64", true},  {ElementType::S8, "i8", false},
    {ElementType::S16, "i16", false}, {ElementType::S32, "i32", false}, {ElementType::S64, "i64", false},
    {ElementType::U8, "ui8", false},  {ElementType::U16, "ui16", false}, {ElementType::U32, "ui32", false},
    {ElementType::U64, "ui64", false}, {ElementType::Pred, "i1", false},
};

enum class Pattern { Random, Increasing, Decreasing };

// `count` keys: a few distinct values (many ties) and the type's special values, in `pattern`.
template <class T>
std::vector<T> keysOf(int64_t count, Pattern pattern, std::mt19937& rng) {
  std::vector<T> v(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) {
    T x;
    const uint32_t pick = rng() % 16;
    if constexpr (std::is_floating_point_v<T>) {
      const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
      const T special[] = {nan, -nan, std::numeric_limits<T>::signaling_NaN(), T(0), -T(0), inf, -inf, std::numeric_limits<T>::denorm_min()};
      x = pick < 8 ? special[pick] : T(int(rng() % 9) - 4) * T(0.5);
      if (pick == 0) {  // a NaN with another payload
        using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        U bits;
        std::memcpy(&bits, &x, sizeof bits);
        bits |= U(rng() % 255 + 1);
        std::memcpy(&x, &bits, sizeof bits);
      }
    } else {
      const T special[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(-1)};
      x = pick < 4 ? special[pick] : T(rng() % 7);
    }
    v[size_t(j)] = x;
  }
  if (pattern == Pattern::Increasing && !std::is_floating_point_v<T>) std::sort(v.begin(), v.end());
  if (pattern == Pattern::Decreasing && !std::is_floating_point_v<T>) std::sort(v.rbegin(), v.rend());
  if (std::is_floating_point_v<T> && pattern != Pattern::Random) {  // numbers in order, specials left where they are
    for (int64_t j = 0; j < count; ++j)
      if (rng() % 4) v[size_t(j)] = T(pattern == Pattern::Increasing ? j : count - j) / T(4);
  }
  return v;
}

Literal keyLiteral(const KeyType& kt, const std::vector<int64_t>& dims, Pattern pattern, std::mt19937& rng) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  switch (kt.element) {
    case ElementType::F32: return make(kt.element, dims, keysOf<float>(count, pattern, rng));
    case ElementType::F64: return make(kt.element, dims, keysOf<double>(count, pattern, rng));
    case ElementType::S8: return make(kt.element, dims, keysOf<int8_t>(count, pattern, rng));
    case ElementType::S16: return make(kt.element, dims, keysOf<int16_t>(count, pattern, rng));
    case ElementType::S32: return make(kt.element, dims, keysOf<int32_t>(count, pattern, rng));
    case ElementType::S64: return make(kt.element, dims, keysOf<int64_t>(count, pattern, rng));
    case ElementType::U8: return make(kt.element, dims, keysOf<uint8_t>(count, pattern, rng));
    case ElementType::U16: return make(kt.element, dims, keysOf<uint16_t>(count, pattern, rng));
    case ElementType::U32: return make(kt.element, dims, keysOf<uint32_t>(count, pattern, rng));
    case ElementType::U64: return make(kt.element, dims, keysOf<uint64_t>(count, pattern, rng));
    default: {
      std::vector<uint8_t> b(static_cast<size_t>(count));
      for (uint8_t& x : b) x = uint8_t(rng() % 2);
      if (pattern == Pattern::Increasing) std::sort(b.begin(), b.end());
      if (pattern == Pattern::Decreasing) std::sort(b.rbegin(), b.rend());
      return make(kt.element, dims, b);
    }
  }
}

int64_t failures = 0;

// Whether the fast path takes the module's sort (asked with nothing to sort: an outer size of 0).
bool recognised(const Module& m, const std::vector<Literal>& args) {
  for (const Op& op : m.find("main")->body.ops)
    if (op.name == "stablehlo.sort") {
      std::vector<Literal> results(args.size());
      return sortRecognised(op, {&args[0], &args[1]}, results, 0, 1, 1);
    }
  return false;
}

// The fast path's results against the general path's, bit for bit.
void check(const KeyType& kt, const std::vector<int64_t>& dims, int64_t dim, bool descending, int64_t k, Pattern pattern,
           std::mt19937& rng) {
  const std::string t = std::string("tensor<") + kt.name + ">";
  Module fast = parseModule(sortModule(kt.name, dims, dim, comparator(t, kt.floating, descending, true), k));
  Module general = parseModule(sortModule(kt.name, dims, dim, comparator(t, kt.floating, descending, false), k));
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<int64_t> payload(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) payload[size_t(j)] = j * 3 - 7;
  std::vector<Literal> args = {keyLiteral(kt, dims, pattern, rng), make(ElementType::S64, dims, payload)};
  CHECK(recognised(fast, args));
  CHECK(!recognised(general, args));
  auto got = interpret(fast, *fast.find("main"), args);
  auto want = interpret(general, *general.find("main"), args);
  CHECK_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size() && r < want.size(); ++r) {
    CHECK(got[r].type == want[r].type);
    if (got[r].bytes != want[r].bytes && failures++ < 10)
      ::tpjrt::test::report(__FILE__, __LINE__,
                            std::string(kt.name) + " dims " + ints(dims) + " along " + std::to_string(dim) +
                                (descending ? " descending" : " ascending") + " k " + std::to_string(k) + " pattern " +
                                std::to_string(int(pattern)) + ": result " + std::to_string(r) + " differs");
  }
}

}  // namespace

TEST(whole_sorts_equal_the_general_path) {
  std::mt19937 rng(5);
  ThreadPool pool(3);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    ThreadPoolScope scope(p);
    for (const KeyType& kt : kKeyTypes)
      for (bool descending : {false, true})
        for (Pattern pattern : {Pattern::Random, Pattern::Increasing, Pattern::Decreasing}) {
          check(kt, {4, 300}, 1, descending, 0, pattern, rng);
          check(kt, {300, 21}, 0, descending, 0, pattern, rng);
          check(kt, {2, 40, 3}, 1, descending, 0, pattern, rng);
          check(kt, {1}, 0, descending, 0, pattern, rng);
          check(kt, {3, 0}, 1, descending, 0, pattern, rng);
        }
  }
}

TEST(prefixes_equal_the_general_path) {
  std::mt19937 rng(9);
  ThreadPool pool(3);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    ThreadPoolScope scope(p);
    for (const KeyType& kt : kKeyTypes)
      for (bool descending : {false, true})
        for (Pattern pattern : {Pattern::Random, Pattern::Increasing, Pattern::Decreasing})
          for (int64_t k : {1, 2, 8, 31, 32, 33, 100, 299}) {  // the scan keeps at most 32, selection the rest
            check(kt, {5, 300}, 1, descending, k, pattern, rng);
            check(kt, {300, 21}, 0, descending, k, pattern, rng);
          }
    for (int64_t length : {2, 17, 64, 65, 1000})  // whole blocks of the scan and a partial last one
      for (int64_t k : {int64_t(1), length / 2, length - 1})
        if (k > 0)
          for (bool descending : {false, true}) {
            check(kKeyTypes[0], {3, length}, 1, descending, k, Pattern::Random, rng);
            check(kKeyTypes[4], {2, length, 2}, 1, descending, k, Pattern::Random, rng);
          }
  }
}

TEST_MAIN()
