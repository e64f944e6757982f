// The parts an attempt is built from: the store and the runtime, each made
// by a factory, so that a mutant (properties/mutants/) can replace one with
// a known-buggy variant. The production factories live here, beside the
// production code they build.
#pragma once

#include <functional>
#include <memory>

#include "model/scenario.h"
#include "model/subtask_context.h"
#include "store/action_state_store.h"
#include "store/log_client.h"
#include "store/store_design.h"

namespace durasim {

class AgentRuntime;
class FaultPlan;
class Scheduler;
class World;

// Builds the store over a log client, with the scenario's design and
// tombstone settings (StoreOptionsOf, model/store_designs.h).
using StoreFactory = std::function<std::unique_ptr<ActionStateStore>(LogClient&, const StoreOptions&)>;
// Builds the runtime of one subtask of one incarnation.
using RuntimeFactory = std::function<std::unique_ptr<AgentRuntime>(World&, Scheduler&, ActionStateStore&, FaultPlan&,
                                                                   const SubtaskContext&)>;

struct AttemptParts {
  StoreFactory make_store;
  RuntimeFactory make_runtime;
};

// The factory of a store type built as KafkaActionStateStore is (its log
// client and the scenario's store options): production or a mutant.
template <typename StoreType>
StoreFactory StoreOf() {
  return [](LogClient& client, const StoreOptions& options) -> std::unique_ptr<ActionStateStore> {
    return std::make_unique<StoreType>(client, options);
  };
}

// The factory of a runtime type built as AgentRuntime is. REQUIRES (at the
// call): RuntimeType's definition is visible.
template <typename RuntimeType>
RuntimeFactory RuntimeOf() {
  return [](World& world, Scheduler& scheduler, ActionStateStore& store, FaultPlan& faults,
            const SubtaskContext& subtask) -> std::unique_ptr<AgentRuntime> {
    return std::make_unique<RuntimeType>(world, scheduler, store, faults, subtask);
  };
}

// The store of the options' design: `kafka` for kafka-rewind and
// kafka-rewrite (KafkaActionStateStore's two modes), `fluss` for fluss.
StoreFactory StoreByDesign(StoreFactory kafka, StoreFactory fluss);

// The production store of each design (KafkaActionStateStore,
// FlussActionStateStore) and AgentRuntime.
AttemptParts ProductionParts();
// The parts of the run without faults: InstantStateStore (states in memory,
// every put acknowledged at once; model/instant_state_store.h says why it
// may stand in) and the production AgentRuntime.
AttemptParts ReferenceParts();

}  // namespace durasim
