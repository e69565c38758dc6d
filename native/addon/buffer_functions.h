// JS object `buffers` of the addon (NativeBuffers in src/runtime/native.ts): what JS does with a
// buffer handle besides running it (queries, host reads, dispose).
#pragma once

#include <napi.h>

namespace tpjrt::addon {

Napi::Object bufferFunctions(Napi::Env env);

}  // namespace tpjrt::addon
