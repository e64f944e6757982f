// StopAtFirstEmptyFetchStore implementation.
#include "properties/mutants/stop_at_first_empty_fetch.h"

#include <algorithm>

#include "store/check.h"

namespace durasim {

Status StopAtFirstEmptyFetchStore::ReadPartition(int32_t partition, int64_t from, const PartitionOffsets& range) {
  int64_t next = from;
  while (next < range.end) {
    Result<FetchResult> fetched = client_.Fetch(partition, next, range.end);
    if (!fetched.ok()) return fetched.status();
    if (fetched->records.empty()) return Status::Ok();  // the bug: an empty fetch is taken for the end
    for (const LogRecord& record : fetched->records) {
      // The port's contract, as the production store checks it: records of
      // that partition in [next, end), in increasing offset order.
      DURASIM_CHECK_EQ(record.partition, partition);
      DURASIM_CHECK_GE(record.offset, next);
      DURASIM_CHECK_LT(record.offset, range.end);
      next = record.offset + 1;
      ++records_scanned_;
      if (Status taken = TakeRecord(record); !taken.ok()) return taken;
    }
    next = std::max(next, std::min(fetched->next_offset, range.end));
  }
  return Status::Ok();
}

}  // namespace durasim
