// ReadAhead: what one read of a rebuild's ranges gave, read together before
// the rebuild asks for them one partition at a time (LogClient::WillRead).
// Each held range answers one read of exactly that range, once; a read of
// anything else is not its business. A failed read-ahead holds its failure
// for every range: the first read of any of them gets it, and everything
// held goes, so that a later read asks the log afresh.
//
// Thread-safety: none; the client that holds it is used by one thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "store/log_client.h"

namespace durasim {

class ReadAhead {
 public:
  // Replaces whatever was held with the answer of one read of `ranges`:
  // one entry per range, in order, or the read's failure.
  // REQUIRES: a successful `read` has one entry per range; one range per partition.
  void Hold(const std::vector<ReadRange>& ranges, Result<std::vector<std::vector<LogRecord>>> read);
  // The held answer to a read of [from, to) of `partition`, once. Nothing
  // when none is held for exactly that range; what was held of the
  // partition for another range is dropped (the caller reads otherwise).
  std::optional<Result<std::vector<LogRecord>>> Take(int32_t partition, int64_t from, int64_t to);
  // Drops everything held: the log changed under it (records deleted,
  // partitions added, the topic deleted).
  void Clear() { held_.clear(); }
  bool empty() const { return held_.empty(); }

 private:
  struct Held {
    int64_t from = 0;
    int64_t to = 0;
    Result<std::vector<LogRecord>> answer;
  };
  std::map<int32_t, Held> held_;  // by partition
};

}  // namespace durasim
