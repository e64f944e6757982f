// Mutant attribute-only-event-identity: an emitted event's identity is its
// attributes alone (type and value), without its origin (the emitting
// action's state key) and emit index (apache/flink-agents #1084, open).
// Two sibling events with identical attributes then share a state key: the
// second one's action finds the first one's completed state and replays it
// instead of running, without any crash.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class AttributeOnlyEventIdentityRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  uint64_t ChildEventIdentity(const StateKey& origin, uint64_t emit_index, const std::string& type,
                              int64_t value) const override;
};

}  // namespace durasim
