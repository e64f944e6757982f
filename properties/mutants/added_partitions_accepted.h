// Mutant added-partitions-accepted: the store is configured to reject a
// changed partition set (`store_options: {added_partitions: reject}`, the
// real Kafka store's check since apache/flink-agents #1101) and does not:
// it reads the added partitions from offset 0, durasim's default. A restore
// of a checkpoint taken before partitions were added then succeeds where the
// store it stands for fails the job (invalid-recovery).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class AddedPartitionsAcceptedStore : public KafkaActionStateStore {
 public:
  AddedPartitionsAcceptedStore(LogClient& client, const StoreOptions& options)
      : KafkaActionStateStore(client, WithoutTheCheck(options)) {}

 private:
  static StoreOptions WithoutTheCheck(StoreOptions options) {
    options.reject_added_partitions = false;
    return options;
  }
};

}  // namespace durasim
