// Mutant stop-at-first-empty-fetch: rebuild reads a partition until a fetch
// returns nothing, and takes that for the end (Flink Agents' first rebuild
// loop ended at the first empty poll). A slow fetch during the rebuild
// leaves the cache partial and nothing says so: saved results are not
// found (the supplier runs again: once) and finished inputs run again
// (finished).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class StopAtFirstEmptyFetchStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;

 protected:
  Status ReadPartition(int32_t partition, int64_t from, const PartitionOffsets& range) override;
};

}  // namespace durasim
