// Mutant divergence-eviction: Get ports the read path of Flink Agents'
// KafkaActionStateStore.get at apache/flink-agents main 8ad3a32. Before the
// lookup, get() asks checkDivergence(key, seq): do more than one cached
// states start with "<key>_<seq>_"? If so, or if the state is not cached at
// all, it removes every cached state whose sequence number is greater than
// the requested one (at 8ad3a32 regardless of the input key). But one input
// that triggers two actions, or a chain, always leaves two states of the
// same (key, seq): that is not divergence. After a restore, the replayed
// earlier input's get evicts the completed states of the key's later inputs,
// which then run again and call their suppliers again. (docs/findings.md)
// Flink Agents 0.3.0's FlussActionStateStore.get has the same check and the
// same eviction (docs/store-designs.md), so the mutant is a hazard of every
// design: `Base` is the design's store.
#pragma once

#include "model/parts.h"
#include "store/fluss_action_state_store.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

template <typename Base>
class DivergenceEvicting : public Base {
 public:
  using Base::Base;
  std::optional<ActionState> Get(const StateKey& state_key) const override;

 private:
  // checkDivergence: more than one cached state of this (key, seq).
  bool HasDivergence(const StateKey& state_key) const;
  // The removeIf: drops every cached state with a higher sequence number.
  void EvictLaterStates(int64_t seq);
};

extern template class DivergenceEvicting<KafkaActionStateStore>;
extern template class DivergenceEvicting<FlussActionStateStore>;

// The evicting store of each design.
StoreFactory DivergenceEvictionStores();

}  // namespace durasim
