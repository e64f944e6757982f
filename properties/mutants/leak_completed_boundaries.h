// Mutant leak-completed-boundaries: prune drops a key's states but never
// its per-key bookkeeping, so the store's memory grows with the number of
// keys ever seen (the latestKeySeqNum leak of the seed's review).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class LeakCompletedBoundariesStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;

 protected:
  // The bug: the key's entry stays, empty, for the life of the job.
  void ForgetInput(const std::string& /*key*/) override {}
};

}  // namespace durasim
