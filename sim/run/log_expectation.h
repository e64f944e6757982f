// `expect: log:` (docs/scenarios.md): the records of some partitions of the
// action-state topic at the end of the run, as the file states them. The
// judgement names the first difference and the file position of the entry
// it breaks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "sim/run/log_dump.h"
#include "store/log_client.h"

namespace durasim {

// The first way `partitions` (the topic's records, by partition, in offset
// order) differ from what `scenario.expect.log` states, in words; none when
// they agree (or it states nothing).
// The action names of every plan of `scenario`, by action hash.
ActionNames ActionNamesOf(const Scenario& scenario);

// How the decoded record or state `got` differs from what `want` states, in
// words; none when it matches.
std::optional<std::string> RecordDifference(const Scenario& scenario, const ExpectedRecord& want,
                                            const DecodedRecord& got, const ActionNames& names);

// `file:line:column` of `pos` in `scenario`'s file.
std::string FilePosition(const Scenario& scenario, SourcePos pos);

std::optional<std::string> FirstLogDifference(const Scenario& scenario,
                                              const std::vector<std::vector<LogRecord>>& partitions);

}  // namespace durasim
