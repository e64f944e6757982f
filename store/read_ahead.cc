// ReadAhead implementation.
#include "store/read_ahead.h"

#include <utility>

#include "store/check.h"

namespace durasim {

void ReadAhead::Hold(const std::vector<ReadRange>& ranges, Result<std::vector<std::vector<LogRecord>>> read) {
  held_.clear();
  if (read.ok()) DURASIM_CHECK_EQ(read->size(), ranges.size());  // one answer per range
  for (size_t i = 0; i < ranges.size(); ++i) {
    const ReadRange& range = ranges[i];
    Result<std::vector<LogRecord>> answer = read.ok() ? Result<std::vector<LogRecord>>(std::move((*read)[i]))
                                                      : Result<std::vector<LogRecord>>(read.status());
    const bool fresh = held_.emplace(range.partition, Held{range.from, range.to, std::move(answer)}).second;
    DURASIM_CHECK(fresh);  // one range per partition
  }
}

std::optional<Result<std::vector<LogRecord>>> ReadAhead::Take(int32_t partition, int64_t from, int64_t to) {
  auto held = held_.find(partition);
  if (held == held_.end()) return std::nullopt;
  if (held->second.from != from || held->second.to != to) {
    held_.erase(held);
    return std::nullopt;
  }
  Result<std::vector<LogRecord>> answer = std::move(held->second.answer);
  held_.erase(held);
  // A failure is the read-ahead's as a whole: served once, then the log is
  // asked afresh.
  if (!answer.ok()) held_.clear();
  return answer;
}

}  // namespace durasim
