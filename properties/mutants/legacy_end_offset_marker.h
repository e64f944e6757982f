// Mutant legacy-end-offset-marker: the pre-#1158 recovery marker, the
// topic's end offsets at snapshot time. A state written before a checkpoint
// for an action still unfinished at it lies below the marker, so the next
// restore does not read it and the action calls its supplier again. On
// every design: neither rewind (kafka-rewind) nor rewrite (kafka-rewrite).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class LegacyEndOffsetMarkerStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;
  boost::asio::awaitable<Status> CompleteSnapshot(const CompletedBoundaries& /*completed*/,
                                                  const RecoveryMarker& /*marker*/) override {
    co_return Status::Ok();
  }
};

}  // namespace durasim
