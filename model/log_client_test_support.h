// Helpers shared by the tests of the simulated producers (MemoryLogClient,
// FaultyLogClient): a log configuration and acknowledgement waiters that
// record what they saw and when. Test-only.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <exception>
#include <optional>

#include "model/scenario.h"
#include "model/scheduler.h"
#include "store/log_client.h"

namespace durasim::log_test {

inline LogConfig TestConfig() {
  LogConfig config;
  config.partitions = 2;
  config.linger_ms = 5;
  config.ack_latency_ms = 1;
  config.delivery_timeout_ms = 300;
  return config;
}

// What a waiter for an acknowledgement saw, and when.
struct AckSeen {
  std::optional<Result<RecordPosition>> result;
  SimTime at{-1};
};

inline asio::awaitable<void> AwaitAckInto(LogClient& client, ProduceTicket ticket, const SimClock& clock,
                                          AckSeen& seen) {
  seen.result = co_await client.AwaitAck(ticket);
  seen.at = clock.now;
}

// Spawns a waiter for `ticket`; a coroutine that throws fails the test.
inline void SpawnAwait(Scheduler& scheduler, LogClient& client, ProduceTicket ticket, const SimClock& clock,
                       AckSeen& seen) {
  asio::co_spawn(scheduler.executor(), AwaitAckInto(client, ticket, clock, seen), [](std::exception_ptr error) {
    if (error) ADD_FAILURE() << "ack waiter threw";
  });
}

}  // namespace durasim::log_test
