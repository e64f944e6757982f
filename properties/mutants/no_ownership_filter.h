// Mutant no-ownership-filter: a rebuilding store keeps the states of every
// key group it reads, not only those of its subtask (apache/flink-agents
// #1010). The foreign states are never pruned, since only their owner's
// checkpoints prune them: the store's memory grows with every restore.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class NoOwnershipFilterStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  void SetOwnership(KeyOwnership /*owns*/) override {}  // the bug: every key is kept
};

}  // namespace durasim
