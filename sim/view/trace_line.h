// One line of a run's trace, cut into its fields. model/trace.cc writes
// "<time> a<attempt> <kind padded to 18> <detail>"; the readable trace and
// the timeline both read lines back this one way.
#pragma once

#include <string>
#include <string_view>

namespace durasim {

struct TraceLineParts {
  std::string head;    // the line up to its detail: time, attempt, padded kind
  int attempt = 0;     // 0 when the second field is not a<N>
  std::string kind;    // empty when the line has no third field
  std::string detail;  // the rest, without the padding before it
};

// A line without a time, an attempt and a kind comes back whole as `head`,
// with no kind and no detail.
TraceLineParts ParseTraceLine(std::string_view line);

}  // namespace durasim
