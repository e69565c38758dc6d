/**
 * @file The public API: `import * as torch from "torch-pjrt"` or `import { tensor } from "torch-pjrt"`.
 * Re-exports only; nothing is defined here.
 */
export type { TensorData, TensorOptions } from "./creation.js";
export { Tensor, type NestedArray, type Scalar } from "./tensor.js";
export * from "./ops/index.js";
export * as nn from "./nn/index.js";
export * as special from "./ops/special/index.js";
export * as linalg from "./ops/linalg_namespace/index.js";
export * as optim from "./optim/index.js";
export * as safetensors from "./io/safetensors.js";
export { cond, whileLoop } from "./compile/control_flow.js";
export { compile, compiler, type Compiled, type CompiledStats, type CompileOptions, type CompilerStats } from "./compile/index.js";
export {
  autograd,
  enableGrad,
  func,
  GradFn,
  inferenceMode,
  isGradEnabled,
  noGrad,
  setGradEnabled,
  type BackwardOptions,
  type Edge,
  type FuncGradOptions,
  type GradHook,
  type GradOptions,
  type HookHandle,
} from "./autograd/index.js";
export { Generator, manualSeed, seed, initialSeed, type GeneratorState } from "./random/generator.js";
export { keep, memory, tidy, type DeviceMemory, type MemoryInfo } from "./memory.js";
export { getEagerMode, setEagerMode, type EagerMode, type FusedOptions } from "./trace/fused.js";
export { getFloat32MatmulPrecision, setFloat32MatmulPrecision, type Float32MatmulPrecision } from "./matmul_precision.js";
export { setFlushDenormal } from "./flush_denormal.js";
export { registerPlugin, parseDevice, formatDevice, getDefaultDevice, setDefaultDevice, type Device, type DeviceLike } from "./device.js";
export type { PluginOptions, PluginOptionValue } from "./plugins/options.js";
export { dtypeNames, dtypes, getDefaultDtype, setDefaultDtype, type DType, type DTypeInfo } from "./dtype.js";
export * from "./dtype_constants.js";
export { finfo, iinfo, type FloatInfo, type IntInfo } from "./dtype_info.js";
export * as runtime from "./runtime/index.js";
export {
  AddonError,
  ArgumentError,
  CompileError,
  DeviceError,
  DeviceRuntimeError,
  DisposedError,
  DTypeError,
  GraphBreakError,
  NotSupportedError,
  OutOfMemoryError,
  PluginError,
  ShapeError,
  TorchError,
  type PluginErrorReason,
} from "./runtime/errors.js";
