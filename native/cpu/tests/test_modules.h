// Helpers and sample modules shared by the CPU plugin's tests.
#pragma once

#include <cstdint>
#include <cstring>
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
