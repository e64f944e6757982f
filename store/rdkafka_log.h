// librdkafka's own log lines (its log_cb): never on a run's console by
// default, where a passing mock run would print connection errors that are
// part of the scenario (a broker down on purpose). With
// SetRdKafkaLogToStderr(true) (the CLI's --verbose) they go to stderr as
// "librdkafka: LEVEL FACILITY: message"; otherwise they are counted only.
// Errors that matter reach the run through the client's own error paths.
#pragma once

#include <cstdint>

namespace durasim {

void SetRdKafkaLogToStderr(bool on);

// Log lines librdkafka gave since the process started.
int64_t RdKafkaLogLines();

}  // namespace durasim
