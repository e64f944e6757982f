// Mutant tombstones-before-cleanup-ack: a prune sends its tombstones right
// behind its cleanup record, without waiting for the record's
// acknowledgement (durasim's store before finding 3's fix). When the log
// refuses the cleanup record and compaction past log.delete_retention_ms
// then removes the tombstones with the states they name, a restore of a
// checkpoint older than the prune finds neither the states nor their
// boundary: it is accepted and its inputs run again (finished; the harness
// expected the rejection: invalid-recovery).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class TombstonesBeforeCleanupAckStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;

 protected:
  void HoldTombstones(HeldTombstones held) override {
    for (const auto& [record_key, partition] : held.tombstones) client_.Produce(partition, record_key, "");
    client_.Flush();
  }
};

}  // namespace durasim
