// Cutting a trace line into its fields (sim/view/trace_line.h).
#include "sim/view/trace_line.h"

#include <utility>

namespace durasim {
namespace {

// The field that starts at or after `at` (spaces skipped): its begin and
// end, or npos for both when none is left.
std::pair<size_t, size_t> FieldFrom(std::string_view line, size_t at) {
  const size_t begin = line.find_first_not_of(' ', at);
  if (begin == std::string_view::npos) return {begin, begin};
  const size_t end = line.find(' ', begin);
  return {begin, end == std::string_view::npos ? line.size() : end};
}

}  // namespace

TraceLineParts ParseTraceLine(std::string_view line) {
  TraceLineParts parts{std::string(line), 0, "", ""};
  const auto [time_begin, time_end] = FieldFrom(line, 0);
  if (time_begin == std::string_view::npos) return parts;
  const auto [attempt_begin, attempt_end] = FieldFrom(line, time_end);
  if (attempt_begin == std::string_view::npos) return parts;
  const auto [kind_begin, kind_end] = FieldFrom(line, attempt_end);
  if (kind_begin == std::string_view::npos) return parts;
  if (line[attempt_begin] == 'a') {
    for (size_t i = attempt_begin + 1; i < attempt_end && line[i] >= '0' && line[i] <= '9'; ++i) {
      parts.attempt = parts.attempt * 10 + (line[i] - '0');
    }
  }
  parts.kind = std::string(line.substr(kind_begin, kind_end - kind_begin));
  const size_t detail_begin = line.find_first_not_of(' ', kind_end);
  if (detail_begin != std::string_view::npos) {
    parts.head = std::string(line.substr(0, detail_begin));
    parts.detail = std::string(line.substr(detail_begin));
  }
  return parts;
}

}  // namespace durasim
