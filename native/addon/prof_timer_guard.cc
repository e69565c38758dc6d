#include "prof_timer_guard.h"

#include <signal.h>

namespace tpjrt::addon {
namespace {

void ignoreSignal(int) {}

void replaceIgnoreWithHandler(void*) {
  struct sigaction current {};
  if (sigaction(SIGPROF, nullptr, &current) != 0 || (current.sa_flags & SA_SIGINFO) ||
      current.sa_handler != SIG_IGN)
    return;
  struct sigaction handler {};
  handler.sa_handler = ignoreSignal;
  handler.sa_flags = SA_RESTART;
  sigemptyset(&handler.sa_mask);
  sigaction(SIGPROF, &handler, nullptr);
}

}  // namespace

void keepSigprofIgnoredAtTeardown(Napi::Env env) { napi_add_env_cleanup_hook(env, replaceIgnoreWithHandler, nullptr); }

}  // namespace tpjrt::addon
