// Mutant fire-and-forget-put: put hands the record to the producer and
// reports it saved at once, without flushing or awaiting the
// acknowledgement. The record sits in the producer's buffer for the linger
// time: a crash then loses a result the action was told is durable.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class FireAndForgetPutStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) override;
};

}  // namespace durasim
