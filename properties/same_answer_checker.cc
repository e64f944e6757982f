// SameAnswerChecker implementation.
#include "properties/same_answer_checker.h"

#include <fmt/format.h>

namespace durasim {

void SameAnswerChecker::OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t trace_index) {
  const auto id = std::make_pair(input_offset, index);
  auto [it, inserted] = outputs_.emplace(id, value);
  if (inserted) {
    first_seen_[id] = trace_index;
    return;
  }
  if (it->second != value) {
    Violate(Invariant::kSameAnswer,
            fmt::format("output {} of input {} was {} and is now {}", index, input_offset, it->second, value),
            {first_seen_[id], trace_index});
  }
}

void SameAnswerChecker::Finish(const RunEnding& ending) {
  for (const auto& [id, value] : outputs_) {
    auto expected = ending.reference_outputs.find(id);
    if (expected == ending.reference_outputs.end()) {
      Violate(Invariant::kSameAnswer, fmt::format("output {} of input {} = {} does not exist in the run without faults",
                                         id.second, id.first, value),
              {first_seen_[id]});
    } else if (expected->second != value) {
      Violate(Invariant::kSameAnswer, fmt::format("output {} of input {} = {}, but {} without faults", id.second, id.first,
                                         value, expected->second),
              {first_seen_[id]});
    }
  }
  if (!ending.all_inputs_finished) return;  // missing outputs only count once all inputs finished
  for (const auto& [id, value] : ending.reference_outputs) {
    if (outputs_.count(id) == 0) {
      Violate(Invariant::kSameAnswer,
              fmt::format("output {} of input {} (= {} without faults) was never emitted", id.second, id.first, value),
              {});
    }
  }
}

}  // namespace durasim
