// Mutant swallow-cancellation: when the wait for an acknowledgement is
// cancelled, put still returns the error but clears the caller's
// cancellation state, as Java code does that catches InterruptedException
// without restoring the thread's interrupt flag (the seed's review). Code
// that checks for the request to stop no longer sees it.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class SwallowCancellationStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) override;
};

}  // namespace durasim
