// Differential comparison implementation.
#include "sim/run/differential.h"

#include <fmt/ranges.h>

#include "store/format.h"

namespace durasim {

std::optional<std::string> FirstDifference(const RunReport& model, const RunReport& other) {
  const std::string b = NameOf(other.backend);
  if (model.verdict != other.verdict) {
    // With the error that made the difference, so that its cause reaches
    // every report (the summary, the JSON, the JUnit, the failure file).
    auto cause = [](const RunReport& r) { return r.error.empty() ? std::string() : fmt::format(" ({})", r.error); };
    return fmt::format("verdict: model {}{}, {} {}{}", NameOf(model.verdict), cause(model), b, NameOf(other.verdict),
                       cause(other));
  }
  if (model.outputs != other.outputs) {
    return fmt::format("outputs: model [{}], {} [{}]", fmt::join(model.outputs, ","), b, fmt::join(other.outputs, ","));
  }
  for (const auto& [call, count] : model.calls_by_identity) {
    auto it = other.calls_by_identity.find(call);
    const int64_t theirs = it == other.calls_by_identity.end() ? 0 : it->second;
    if (theirs != count) return fmt::format("supplier calls for [{}]: model {}, {} {}", call, count, b, theirs);
  }
  for (const auto& [call, count] : other.calls_by_identity) {
    if (model.calls_by_identity.count(call) == 0) {
      return fmt::format("supplier calls for [{}]: model 0, {} {}", call, b, count);
    }
  }
  if (model.log_records.size() != other.log_records.size()) {
    return fmt::format("partitions: model {}, {} {}", model.log_records.size(), b, other.log_records.size());
  }
  for (size_t p = 0; p < model.log_records.size(); ++p) {
    const auto& ours = model.log_records[p];
    const auto& theirs = other.log_records[p];
    for (size_t i = 0; i < std::max(ours.size(), theirs.size()); ++i) {
      const std::string a = i < ours.size() ? ours[i] : "<none>";
      const std::string c = i < theirs.size() ? theirs[i] : "<none>";
      if (a != c) return fmt::format("partition {} record {}: model {}, {} {}", p, i, a, b, c);
    }
  }
  // Last, the whole story: the real backends keep the model's timing, so
  // every event happens at the same simulated instant in the same order.
  if (const std::optional<size_t> i = FirstDifferentLine(model.trace, other.trace)) {
    const std::string a = *i < model.trace.size() ? std::string(model.trace.line(*i)) : "<end of trace>";
    const std::string c = *i < other.trace.size() ? std::string(other.trace.line(*i)) : "<end of trace>";
    return fmt::format("trace event #{}: model [{}], {} [{}]", *i, a, b, c);
  }
  return std::nullopt;
}

bool MarkDifference(const RunReport& model, RunReport& other) {
  const std::optional<std::string> difference = FirstDifference(model, other);
  if (!difference.has_value()) return false;
  other.violations.push_back(
      Violation{Invariant::kDifferential, fmt::format("model and {} differ: {}", NameOf(other.backend), *difference)});
  if (other.verdict == Verdict::kPass || other.verdict == Verdict::kStuck) other.verdict = Verdict::kViolation;
  return true;
}

}  // namespace durasim
