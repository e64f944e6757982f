// Mutant no-store-drops-in-flight: with durable execution off (no
// action-state store), a restored subtask resumes none of the keys whose
// runs were in flight at the checkpoint, as if only a store could bring
// them back. Their queued tasks are in the keyed state the checkpoint
// restored, but nothing runs them: their inputs never finish (liveness).
#pragma once

#include <string>

#include "model/agent_runtime.h"

namespace durasim {

class NoStoreDropsInFlightRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool ResumesKey(const std::string& key) const override {
    if (!world_.scenario().durable.execution) return false;  // the bug
    return AgentRuntime::ResumesKey(key);
  }
};

}  // namespace durasim
