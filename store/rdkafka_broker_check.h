// CheckBroker: one short question to the brokers at a bootstrap address
// (a metadata request that names no topic), asked once at the start of a
// command on a librdkafka backend, so that a broker that is not there stops
// the command within a short deadline instead of costing every run its
// connect timeout (docs/backends.md, "Infrastructure failures").
//
// Outside the determinism contract: it waits in wall-clock time.
#pragma once

#include <chrono>
#include <string>

#include "store/status.h"

namespace durasim {

// Ok when a broker at `bootstrap_servers` answers a metadata request within
// `deadline`. Errors: kInvalidArgument (a bad address or deadline),
// kUnavailable naming the servers, the deadline, librdkafka's error and the
// first connection error it reported (say, "Connection refused").
[[nodiscard]] Status CheckBroker(const std::string& bootstrap_servers, std::chrono::milliseconds deadline);

}  // namespace durasim
