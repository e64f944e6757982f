// Mutant rebuild-reads-appended: a rebuild reads each partition to its end
// as it is when the partition is read, not as it was when the rebuild began.
// Flink Agents' rebuildState at apache/flink-agents 8ad3a32 polls until a
// poll returns nothing, so it reads what is appended meanwhile. A record
// another producer appends while the rebuild reads (a zombie's late write,
// another application's record: `restore: {during_rebuild: [...]}`) lies
// past the checkpoint's log, yet it is read: here a record that is no
// action state makes the rebuild reject a valid recovery (invalid-recovery).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class RebuildReadsAppendedStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;

 protected:
  Status ReadPartition(int32_t partition, int64_t from, const PartitionOffsets& range) override {
    Result<std::vector<PartitionOffsets>> now = client_.Offsets();
    if (!now.ok()) return now.status();
    PartitionOffsets moving = range;
    // The bug: the end is the log's as it is now.
    if (static_cast<size_t>(partition) < now->size()) moving.end = (*now)[static_cast<size_t>(partition)].end;
    return KafkaActionStateStore::ReadPartition(partition, from, moving);
  }
};

}  // namespace durasim
