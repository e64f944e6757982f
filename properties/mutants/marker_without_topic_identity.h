// Mutant marker-without-topic-identity: the recovery marker holds offsets
// only (the pre-#1101 marker), and rebuild checks them against whatever
// topic the store reads now. After the topic is deleted and created again,
// a restore whose offsets happen to fit the new topic (offset 0 of an empty
// partition, say) silently rebuilds from the new topic's data: the states
// the checkpoint needs are gone and nothing says so.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class MarkerWithoutTopicIdentityStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;
  Status Rebuild(const RecoveryMarker& marker) override;
};

}  // namespace durasim
