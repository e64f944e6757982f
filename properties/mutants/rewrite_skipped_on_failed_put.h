// Mutant rewrite-skipped-on-failed-put (kafka-rewrite): a rewrite at
// snapshot that the log does not acknowledge is skipped, and the snapshot
// is handed over anyway. Its state then lies only below the end-offset
// marker, so a restore of the checkpoint does not see it and the action
// calls its supplier again (the #1158 shape, reached through a failed
// write). On kafka-rewind nothing is rewritten: the production store.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class RewriteSkippedOnFailedPutStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  boost::asio::awaitable<Status> CompleteSnapshot(const CompletedBoundaries& completed,
                                                  const RecoveryMarker& marker) override;
};

}  // namespace durasim
