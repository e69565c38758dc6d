// Helpers and sample modules shared by the CPU plugin's tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ir/stablehlo.h"

namespace tpjrt::cpu::test {

// A literal of element type `t` holding `values` (host bytes, row-major).
template <class T>
Literal make(ElementType t, std::vector<int64_t> dims, const std::vector<T>& values) {
  Literal l{{t, std::move(dims)}, Bytes(values.size() * sizeof(T))};
  if (!values.empty()) std::memcpy(l.bytes.mutableData(), values.data(), l.bytes.size());
  return l;
}
inline Literal f32(std::vector<int64_t> dims, const std::vector<float>& v) { return make(ElementType::F32, dims, v); }

// A literal's bytes read back as T values.
template <class T>
std::vector<T> read(const Literal& l) {
  std::vector<T> v(l.bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), l.bytes.data(), l.bytes.size());
  return v;
}

// The ops of the argmax/argmin body the lowering prints (kernels/reduce_arg.cc) over the block arguments
// %a, %ai (the accumulator) and %b, %bi (the element) of types `value` and `index`, leaving the chosen
// pair in %v and %i (the caller adds the return): values compared by `direction` (GT, LT), indices by
// `order` (LT: the earlier index wins a tie, GT: the later). `swapped` prints the first two compares the
// other way round: the same function, but no body the fast paths recognise.
inline std::string argBodyOps(const std::string& value, const std::string& index, const std::string& direction,
                              const std::string& order, bool floating, bool swapped = false) {
  auto cmp = [](const std::string& r, const std::string& a, const std::string& b, const std::string& d, const std::string& t) {
    return "    " + r + " = \"stablehlo.compare\"(" + a + ", " + b + ") {comparison_direction = #stablehlo<comparison_direction " + d +
           ">} : (" + t + ", " + t + ") -> tensor<i1>\n";
  };
  auto logic = [](const std::string& r, const std::string& op, const std::string& a, const std::string& b) {
    return "    " + r + " = \"stablehlo." + op + "\"(" + a + ", " + b + ") : (tensor<i1>, tensor<i1>) -> tensor<i1>\n";
  };
  const std::string better = cmp("%better", "%a", "%b", direction, value), eq = cmp("%eq", "%a", "%b", "EQ", value);
  std::string body = swapped ? eq + better : better + eq;
  body += cmp("%first", "%ai", "%bi", order, index) + logic("%tie", "and", "%eq", "%first") + logic("%pick", "or", "%better", "%tie");
  std::string choose = "%pick";
  if (floating) {
    body += cmp("%anan", "%a", "%a", "NE", value) + cmp("%bnan", "%b", "%b", "NE", value) +
            "    %bnum = \"stablehlo.not\"(%bnan) : (tensor<i1>) -> tensor<i1>\n" + logic("%ifnan", "or", "%bnum", "%first") +
            logic("%ifnum", "and", "%bnum", "%pick") +
            "    %choose = \"stablehlo.select\"(%anan, %ifnan, %ifnum) : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>\n";
    choose = "%choose";
  }
  return body + "    %v = \"stablehlo.select\"(" + choose + ", %a, %b) : (tensor<i1>, " + value + ", " + value + ") -> " + value + "\n" +
         "    %i = \"stablehlo.select\"(" + choose + ", %ai, %bi) : (tensor<i1>, " + index + ", " + index + ") -> " + index + "\n";
}

// The body of jnp.argmax(x, axis=1)'s function for x: f32[2,3] (%arg0) as jax 0.10 prints it, up to
// and including its return: a two-input reduce in the long `reducer` form, whose body has block
// arguments.
inline constexpr const char* kJaxArgmaxBody = R"mlir(    %0 = stablehlo.iota dim = 1 : tensor<2x3xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<2xi32>
)mlir";

}  // namespace tpjrt::cpu::test
