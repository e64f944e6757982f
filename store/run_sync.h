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

}  // namespace durasim
