// The mutant registry: one line per mutant.
#include <memory>

#include "properties/mutants/legacy_end_offset_marker.h"
#include "properties/mutants/mutant.h"
#include "store/kafka_action_state_store.h"

namespace durasim {
namespace {

template <typename StoreType>
StoreFactory StoreOf() {
  return [](LogClient& client) -> std::unique_ptr<ActionStateStore> { return std::make_unique<StoreType>(client); };
}

}  // namespace

StoreFactory ProductionStoreFactory() { return StoreOf<KafkaActionStateStore>(); }

RuntimeFactory ProductionRuntimeFactory() {
  return [](World& world, Scheduler& scheduler, ActionStateStore& store, FaultPlan& faults) {
    return std::make_unique<AgentRuntime>(world, scheduler, store, faults);
  };
}

const std::vector<Mutant>& AllMutants() {
  static const std::vector<Mutant> kMutants = {
      {"legacy-end-offset-marker", "the recovery marker is the topic's end offsets at snapshot time",
       "apache/flink-agents #1158", "once", StoreOf<LegacyEndOffsetMarkerStore>(), {}},
  };
  return kMutants;
}

const Mutant* FindMutant(const std::string& name) {
  for (const Mutant& mutant : AllMutants()) {
    if (mutant.name == name) return &mutant;
  }
  return nullptr;
}

}  // namespace durasim
