// StableHLO modules shared by the runtime tests.
#pragma once

namespace tpjrt::test {

// main(a, b) = a + b on f32[4].
inline const char* kAddModule = R"(module @add {
  func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }
}
)";

}  // namespace tpjrt::test
