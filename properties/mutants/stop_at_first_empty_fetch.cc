// StopAtFirstEmptyFetchStore implementation.
#include "properties/mutants/stop_at_first_empty_fetch.h"

#include <algorithm>

namespace durasim {

Status StopAtFirstEmptyFetchStore::ReadPartition(int32_t partition, int64_t from, const PartitionOffsets& range) {
  int64_t next = from;
  while (next < range.end) {
    Result<FetchResult> fetched = client_.Fetch(partition, next, range.end);
    if (!fetched.ok()) return fetched.status();
    if (fetched->records.empty()) return Status::Ok();  // the bug: an empty fetch is taken for the end
    for (const LogRecord& record : fetched->records) {
      next = record.offset + 1;
      ++records_scanned_;
      if (Status taken = TakeRecord(record); !taken.ok()) return taken;
    }
    next = std::max(next, std::min(fetched->next_offset, range.end));
  }
  return Status::Ok();
}

}  // namespace durasim
