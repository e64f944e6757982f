// Trace implementation.
#include "model/trace.h"

#include <algorithm>

#include "store/check.h"

namespace durasim {

std::optional<size_t> FirstDifferentLine(const Trace& a, const Trace& b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i >= a.size() || i >= b.size() || a.line(i) != b.line(i)) return i;
  }
  return std::nullopt;
}

namespace {

// "<ms>.<us3>ms" into `out`, right-aligned to 12 characters.
void AppendSimTime(SimTime time, std::string& out) {
  const int64_t us = time.count();
  DURASIM_CHECK_GE(us, 0);  // time since the start of a run
  char buffer[32];
  const auto end = fmt::format_to(buffer, "{}.{:03}ms", us / 1000, us % 1000);
  const size_t width = static_cast<size_t>(end - buffer);
  if (width < 12) out.append(12 - width, ' ');
  out.append(buffer, width);
}

}  // namespace

std::string FormatSimTime(SimTime time) {
  std::string out;
  AppendSimTime(time, out);
  out.erase(0, out.find_first_not_of(' '));
  return out;
}

bool Trace::Begin(SimTime time, int attempt, std::string_view kind) {
  // Simulated time never goes backwards, so neither does the trace.
  DURASIM_CHECK_GE(time.count(), last_time_.count());
  DURASIM_CHECK_GE(attempt, 0);  // 0 before the first attempt starts
  last_time_ = time;
  if (!text_kept_) {
    ends_.push_back(0);
    return false;
  }
  // "{:>12} a{} {:<18} {detail}"
  AppendSimTime(time, text_);
  fmt::format_to(std::back_inserter(text_), " a{} ", attempt);
  text_.append(kind);
  if (kind.size() < 18) text_.append(18 - kind.size(), ' ');
  text_.push_back(' ');
  return true;
}

size_t Trace::End() {
  text_.push_back('\n');
  const size_t begin = ends_.empty() ? 0 : ends_.back();
  hash_ = Fnv1a(std::string_view(text_).substr(begin), hash_);
  ends_.push_back(text_.size());
  return ends_.size() - 1;
}

std::string_view Trace::line(size_t index) const {
  DURASIM_CHECK_MSG(text_kept_, "a trace without text has no lines");
  DURASIM_CHECK_LT(index, ends_.size());
  const size_t begin = index == 0 ? 0 : ends_[index - 1];
  return std::string_view(text_).substr(begin, ends_[index] - begin - 1);
}

std::vector<std::string> Trace::lines() const {
  std::vector<std::string> all;
  all.reserve(size());
  for (size_t i = 0; i < size(); ++i) all.emplace_back(line(i));
  return all;
}

}  // namespace durasim
