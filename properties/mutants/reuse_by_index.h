// Mutant reuse-by-index: a saved call result is reused by its index alone,
// whatever function and argument it was saved for. Flink Agents'
// DurableExecutionContext reuses a saved result only while the index, the
// function id and the argument digest all match; this one skips the last
// two, so after a plan reorders two calls, renames a supplier or an
// argument changes across a restore, an action goes on with the answer to
// another call.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class ReuseByIndexRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool SavedCallMatches(const CallResult& saved, const CallIdentity& call) const override;
};

}  // namespace durasim
