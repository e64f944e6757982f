// SwallowCancellationStore implementation.
#include "properties/mutants/swallow_cancellation.h"

#include <boost/asio/this_coro.hpp>

namespace durasim {

boost::asio::awaitable<Status> SwallowCancellationStore::Put(const StateKey& state_key, const ActionState& state) {
  Status status = co_await KafkaActionStateStore::Put(state_key, state);
  if (status.code() == StatusCode::kCancelled) {
    co_await boost::asio::this_coro::reset_cancellation_state();  // the bug: the interrupt flag is cleared
  }
  co_return status;
}

}  // namespace durasim
