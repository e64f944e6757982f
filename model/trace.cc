// Trace implementation.
#include "model/trace.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/check.h"

namespace durasim {

std::optional<size_t> FirstDifferentLine(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i >= a.size() || i >= b.size() || a[i] != b[i]) return i;
  }
  return std::nullopt;
}

std::string FormatSimTime(SimTime time) {
  const int64_t us = time.count();
  DURASIM_CHECK_GE(us, 0);  // time since the start of a run
  return fmt::format("{}.{:03}ms", us / 1000, us % 1000);
}

size_t Trace::Add(SimTime time, int attempt, std::string_view kind, std::string_view detail) {
  // Simulated time never goes backwards, so neither does the trace.
  DURASIM_CHECK_GE(time.count(), last_time_.count());
  DURASIM_CHECK_GE(attempt, 0);  // 0 before the first attempt starts
  last_time_ = time;
  std::string line = fmt::format("{:>12} a{} {:<18} {}", FormatSimTime(time), attempt, kind, detail);
  hash_ = Fnv1a(line, hash_);
  hash_ = Fnv1a("\n", hash_);
  lines_.push_back(std::move(line));
  return lines_.size() - 1;
}

}  // namespace durasim
