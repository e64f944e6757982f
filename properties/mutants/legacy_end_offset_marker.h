// Mutant legacy-end-offset-marker: the pre-#1158 recovery marker, the
// topic's end offsets at snapshot time. A state written before a checkpoint
// for an action still unfinished at it lies below the marker, so the next
// restore does not read it and the action calls its supplier again. On
// every design: neither rewind (kafka-rewind) nor rewrite (kafka-rewrite);
// on fluss it is the marker Flink Agents 0.3.0 ships (the bucket end
// offsets, docs/findings.md).
#pragma once

#include "model/parts.h"
#include "store/fluss_action_state_store.h"
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

// fluss: the bucket end offsets, as FlussActionStateStore.getRecoveryMarker
// in Flink Agents 0.3.0 takes them.
class FlussEndOffsetMarkerStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;

 protected:
  bool RewindsMarker() const override { return false; }
};

// The legacy marker's store of each design.
StoreFactory LegacyEndOffsetMarkerStores();

}  // namespace durasim
