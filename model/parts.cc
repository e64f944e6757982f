// The production parts.
#include "model/parts.h"

#include "model/agent_runtime.h"
#include "model/instant_state_store.h"
#include "store/fluss_action_state_store.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

AttemptParts ProductionParts() {
  return AttemptParts{StoreByDesign(StoreOf<KafkaActionStateStore>(), StoreOf<FlussActionStateStore>()),
                      RuntimeOf<AgentRuntime>()};
}

StoreFactory StoreByDesign(StoreFactory kafka, StoreFactory fluss) {
  return [kafka = std::move(kafka), fluss = std::move(fluss)](LogClient& client, const StoreOptions& options) {
    return options.design == StoreDesign::kFluss ? fluss(client, options) : kafka(client, options);
  };
}

AttemptParts ReferenceParts() {
  StoreFactory instant = [](LogClient& /*client*/, const StoreOptions& /*options*/) -> std::unique_ptr<ActionStateStore> {
    return std::make_unique<InstantStateStore>();
  };
  return AttemptParts{std::move(instant), RuntimeOf<AgentRuntime>()};
}

}  // namespace durasim
