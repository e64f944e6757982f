// Mutant cache-before-ack: put records the state in the cache before the
// log has acknowledged the write (the pre-review Flink store sent, cached,
// then flushed). A write the broker rejects still looks saved: the next get
// in the same incarnation returns it although the log never held it.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class CacheBeforeAckStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) override;
};

}  // namespace durasim
