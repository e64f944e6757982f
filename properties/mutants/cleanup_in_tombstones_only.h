// Mutant cleanup-in-tombstones-only: with tombstones, the committed cleanup
// boundary is the tombstones alone, as it was before compaction could remove
// them (no cleanup record). Once a compaction past log.delete_retention_ms
// removes a committed cleanup's tombstones, the restore of an older
// checkpoint finds neither the pruned states nor a sign of the cleanup: it
// is accepted and the inputs it still needs run again (invalid-recovery:
// the harness knows the marker is stale).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class CleanupInTombstonesOnlyStore : public KafkaActionStateStore {
 public:
  CleanupInTombstonesOnlyStore(LogClient& client, const StoreOptions& options)
      : KafkaActionStateStore(client, WithoutCleanupRecords(options)) {}

 private:
  static StoreOptions WithoutCleanupRecords(StoreOptions options) {
    options.cleanup_records = false;
    return options;
  }
};

}  // namespace durasim
