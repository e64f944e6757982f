// The production parts.
#include "model/parts.h"

#include "model/agent_runtime.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

AttemptParts ProductionParts() {
  AttemptParts parts;
  parts.make_store = [](LogClient& client, const LogConfig& log) -> std::unique_ptr<ActionStateStore> {
    return std::make_unique<KafkaActionStateStore>(client, log.tombstones);
  };
  parts.make_runtime = [](World& world, Scheduler& scheduler, ActionStateStore& store,
                          FaultPlan& faults) -> std::unique_ptr<AgentRuntime> {
    return std::make_unique<AgentRuntime>(world, scheduler, store, faults);
  };
  return parts;
}

}  // namespace durasim
