// Mutant rewrite-after-marker (kafka-rewrite): the snapshot is handed over
// as soon as the rewrites are sent, before the log acknowledged them. A
// rewrite the log then refuses leaves a checkpoint that completes without
// the state its restore needs, and the restored action calls its supplier
// again. On kafka-rewind nothing is rewritten: the production store.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class RewriteAfterMarkerStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  boost::asio::awaitable<Status> CompleteSnapshot(const CompletedBoundaries& completed,
                                                  const RecoveryMarker& marker) override;
};

}  // namespace durasim
