// The production parts.
#include "model/parts.h"

#include "model/agent_runtime.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

AttemptParts ProductionParts() { return AttemptParts{StoreOf<KafkaActionStateStore>(), RuntimeOf<AgentRuntime>()}; }

}  // namespace durasim
