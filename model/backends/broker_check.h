// CheckBackendBroker: whether a backend's broker answers, asked once at the
// start of a command on librdkafka (and again by a sweep after a run ended
// `infra`, before the next run starts): a metadata request within a short
// deadline. This header names no librdkafka type.
#pragma once

#include <chrono>
#include <string>

#include "model/backends/backend_kind.h"
#include "store/status.h"

namespace durasim {

// The broker check's default deadline (--broker-check-s): a broker on this
// machine or the next answers a metadata request in milliseconds.
inline constexpr std::chrono::milliseconds kBrokerCheckDeadline{3000};

// model: always ok. mock: a mock cluster starts and answers. kafka: a broker
// at `bootstrap_servers` answers within `deadline`. Errors: kInvalidArgument
// (kafka without servers), kUnavailable naming the backend, the servers and
// the cause.
[[nodiscard]] Status CheckBackendBroker(BackendKind kind, const std::string& bootstrap_servers,
                                        std::chrono::milliseconds deadline);

}  // namespace durasim
