// Mutant tombstones-without-boundary: prune appends tombstones but the store
// never commits a cleanup boundary (Flink Agents before #1101, #691). A
// restore of a checkpoint older than a completed prune reads the
// tombstones of states that checkpoint still needs and forgets them: their
// inputs run again (finished) and call their suppliers again (once).
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class TombstonesWithoutBoundaryStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  // The bug: every tombstone is applied, also one for a state the restored
  // checkpoint still needs.
  Status CheckTombstone(const StateKey& /*state_key*/, const std::string& /*where*/) const override {
    return Status::Ok();
  }
  Status CheckCleanupBoundary(const std::string& /*input_key*/, int64_t /*seq*/,
                              const std::string& /*where*/) const override {
    return Status::Ok();
  }
};

}  // namespace durasim
