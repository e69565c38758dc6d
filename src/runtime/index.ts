/**
 * @file The torch.runtime namespace: compiling and running StableHLO, and what is installed.
 */
export { buildInfo } from "./addon.js";
export { compile, compileFor, type CompileForOptions, type CompileForResult, type CompileOptions } from "./compile.js";
export { Executable, type OutputInfo } from "./executable.js";
export { synchronize } from "./synchronize.js";
export { devices, plugins, type AttributeValue, type DeviceInfo, type PluginInfo, type PluginStatus } from "./info.js";
export { stats, resetStats, setCacheCapacity, clearCache, type CacheStats } from "../trace/cache.js";
