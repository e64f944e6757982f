// Mutant continue-saves-fallback: when an action catches a durable call's
// failure (`on_error: continue`), the runtime saves the action's fallback
// value as the call's SUCCEEDED result instead of the failure (a catch
// inside the durable wrapper, before it records the outcome). The action's
// answer is the same, but the log now holds a result no supplier gave, and
// every replay reuses it as the call's answer (provenance).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class ContinueSavesFallbackRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  CallResult CaughtFailureSlot(const CallResult& failed, int64_t fallback) const override {
    return CallResult{failed.function_id, failed.args_digest, CallStatus::kSucceeded, fallback, ""};  // the bug
  }
};

}  // namespace durasim
