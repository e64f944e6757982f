// Trace: the ordered record of every observable event of a run, each stamped
// with simulated time and the attempt number, and a 64-bit hash over the
// rendered lines. Two runs with the same trace hash did the same thing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/hash.h"
#include "model/scheduler.h"

namespace durasim {

class Trace {
 public:
  // Appends one event; `kind` is a dotted name (put.issued), `detail` is
  // space-separated key=value pairs. Returns the event's index.
  // REQUIRES: `time` is no earlier than the previous event's, `attempt` >= 0.
  size_t Add(SimTime time, int attempt, std::string_view kind, std::string_view detail);

  uint64_t hash() const { return hash_; }
  size_t size() const { return lines_.size(); }
  const std::string& line(size_t index) const { return lines_[index]; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
  uint64_t hash_ = kFnvOffsetBasis;
  SimTime last_time_{0};
};

// The index of the first line where `a` and `b` differ (a trace that ends
// first differs there), or none when they are equal.
std::optional<size_t> FirstDifferentLine(const std::vector<std::string>& a, const std::vector<std::string>& b);

// "12.345ms" style rendering of a simulated time, exact to the microsecond.
std::string FormatSimTime(SimTime time);

}  // namespace durasim
