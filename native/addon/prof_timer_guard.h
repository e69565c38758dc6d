// libtpu starts profiling timers that raise SIGPROF and sets SIGPROF to SIG_IGN. While Node tears
// down (node::ResetSignalHandlers) it turns every SIG_IGN back into SIG_DFL, but keeps real
// handlers; the next timer tick then kills the exiting process (exit status 155 instead of 0).
// When an environment is torn down while SIGPROF is ignored, this swaps SIG_IGN for an equivalent
// do-nothing handler so that Node leaves it alone.
#pragma once

#include <napi.h>

namespace tpjrt::addon {

void keepSigprofIgnoredAtTeardown(Napi::Env env);

}  // namespace tpjrt::addon
