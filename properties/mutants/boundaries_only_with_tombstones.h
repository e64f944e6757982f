// Mutant boundaries-only-with-tombstones: a store that emits no tombstones
// writes no completed boundaries in its marker (durasim's store before
// session 21 did this). After a migration that turns tombstones off, the
// log still holds the tombstones the earlier job wrote; a restore of a
// marker the tombstone-less job took, whose range reaches one of them, can
// no longer tell a committed cleanup from a state the checkpoint needs and
// rejects valid recovery data (invalid-recovery). A hazard of kafka-rewind
// only: a kafka-rewrite marker is the end offsets, past every tombstone
// written before it, so only the restore of a checkpoint older than a prune
// (which the generator does not draw with tombstones) could reach one.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class BoundariesOnlyWithTombstonesStore : public KafkaActionStateStore {
 public:
  BoundariesOnlyWithTombstonesStore(LogClient& client, const StoreOptions& options)
      : KafkaActionStateStore(client, options), tombstones_(options.tombstones) {}

  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override {
    Result<RecoveryMarker> marker = KafkaActionStateStore::GetRecoveryMarker(completed);
    // The bug: the boundaries follow the emission option, not the log.
    if (marker.ok() && !tombstones_) marker->completed.clear();
    return marker;
  }

 private:
  bool tombstones_;
};

}  // namespace durasim
