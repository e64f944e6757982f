// Mutant marker-ignores-new-partitions: rebuild reads only the partitions
// its marker names, as Flink Agents' rebuildState assigns the consumer the
// marker's partitions and nothing else. After partitions were added, the
// restore of a checkpoint taken before them skips the new partitions, where
// keys that moved wrote their states since: saved results are not found
// and the supplier runs again (once).
#pragma once

#include <vector>

#include "store/kafka_action_state_store.h"

namespace durasim {

class MarkerIgnoresNewPartitionsStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;

 protected:
  Status ReadFromMarker(const RecoveryMarker& marker, const std::vector<PartitionOffsets>& offsets) override;
};

}  // namespace durasim
