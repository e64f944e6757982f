// RunSync: runs an awaitable to completion on an io_context of its own and
// returns its result. For tests and benchmarks of the librdkafka client,
// whose operations complete in wall-clock time without a simulated
// scheduler.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <optional>
#include <utility>

#include "store/check.h"

namespace durasim {

template <typename T>
T RunSync(boost::asio::awaitable<T> op) {
  boost::asio::io_context io;
  std::optional<T> out;
  boost::asio::co_spawn(
      io, [&]() -> boost::asio::awaitable<void> { out.emplace(co_await std::move(op)); }, boost::asio::detached);
  io.run();
  return std::move(*out);
}

inline void RunSync(boost::asio::awaitable<void> op) {
  boost::asio::io_context io;
  bool done = false;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        co_await std::move(op);
        done = true;
      },
      boost::asio::detached);
  io.run();
  DURASIM_CHECK(done);
}

}  // namespace durasim
