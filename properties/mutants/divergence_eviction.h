// Mutant divergence-eviction: every store runs with the real get() of Flink
// Agents' KafkaActionStateStore at apache/flink-agents main 8ad3a32
// (`store_options: {get: evict_on_divergence}` forced on,
// StoreOptions::evict_on_divergence). Before the lookup, get() asks
// checkDivergence(key, seq): do more than one cached states start with
// "<key>_<seq>_"? If so, or if the state is not cached at all, it removes
// every cached state whose sequence number is greater than the requested one
// (at 8ad3a32 regardless of the input key). But one input that triggers two
// actions, or a chain, always leaves two states of the same (key, seq): that
// is not divergence. After a restore, the replayed earlier input's get
// evicts the completed states of the key's later inputs, which then run
// again and call their suppliers again (docs/findings.md). Flink Agents
// 0.3.0's FlussActionStateStore.get has the same check and the same
// eviction, so the mutant is a hazard of every design: `Base` is the
// design's store.
#pragma once

#include "model/parts.h"
#include "store/fluss_action_state_store.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

template <typename Base>
class DivergenceEvicting : public Base {
 public:
  DivergenceEvicting(LogClient& client, const StoreOptions& options) : Base(client, WithEviction(options)) {}

 private:
  static StoreOptions WithEviction(StoreOptions options) {
    options.evict_on_divergence = true;
    return options;
  }
};

// The evicting store of each design.
StoreFactory DivergenceEvictionStores();

// Mutant eviction-on-every-get: a store with `store_options: {get:
// evict_on_divergence}` evicts on every lookup, a hit without divergence
// too (the condition "not cached or diverged" simplified away). After a
// restore, the first replayed input's hit evicts every later input's
// states, which run again although the log holds them completed.
template <typename Base>
class EvictingOnEveryGet : public Base {
 public:
  using Base::Base;

 protected:
  bool EvictsOnLookup(const StateKey& /*state_key*/, bool /*cached*/) const override { return true; }
};

StoreFactory EvictionOnEveryGetStores();

}  // namespace durasim
