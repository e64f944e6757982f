// `expect: log:` (docs/scenarios.md): the records of some partitions of the
// action-state topic at the end of the run, as the file states them. The
// judgement names the first difference and the file position of the entry
// it breaks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "store/log_client.h"

namespace durasim {

// The first way `partitions` (the topic's records, by partition, in offset
// order) differ from what `scenario.expect.log` states, in words; none when
// they agree (or it states nothing).
std::optional<std::string> FirstLogDifference(const Scenario& scenario,
                                              const std::vector<std::vector<LogRecord>>& partitions);

}  // namespace durasim
