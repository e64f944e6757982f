// SameAnswerChecker implementation.
#include "properties/same_answer_checker.h"

#include <optional>
#include <set>
#include <vector>

#include "store/check.h"
#include "store/format.h"

namespace durasim {

SameAnswerChecker::SameAnswerChecker(const Trace& trace, const std::vector<InputSpec>& inputs)
    : InvariantChecker(trace) {
  for (const InputSpec& input : inputs) key_of_input_.push_back(input.key);
}

bool SameAnswerChecker::Excused(int64_t input_offset) const {
  if (unknown_keys_.empty() || input_offset < 0 || static_cast<size_t>(input_offset) >= key_of_input_.size()) {
    return false;
  }
  return unknown_keys_.contains(key_of_input_[static_cast<size_t>(input_offset)]);
}

void SameAnswerChecker::OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t trace_index) {
  const auto id = std::make_pair(input_offset, index);
  auto [it, inserted] = outputs_.emplace(id, value);
  if (inserted) {
    first_seen_[id] = trace_index;
    DURASIM_CHECK_EQ(first_seen_.size(), outputs_.size());  // one first sighting per output
    return;
  }
  if (it->second != value && !Excused(input_offset)) {
    Violate(Invariant::kSameAnswer,
            fmt::format("output {} of input {} was {} and is now {}", index, input_offset, it->second, value),
            {first_seen_[id], trace_index});
  }
}

void SameAnswerChecker::OnMemoryWritten(const std::string& key, const std::string& slot, int64_t /*value*/,
                                        size_t trace_index) {
  last_memory_write_[{key, slot}] = trace_index;
}

void SameAnswerChecker::CheckMemory(const RunEnding& ending) {
  auto slot_of = [](const MemoryByKey& memory, const std::string& key,
                    const std::string& slot) -> std::optional<int64_t> {
    auto k = memory.find(key);
    if (k == memory.end()) return std::nullopt;
    auto s = k->second.find(slot);
    if (s == k->second.end()) return std::nullopt;
    return s->second;
  };
  auto text = [](std::optional<int64_t> value) { return value ? std::to_string(*value) : std::string("unset"); };
  std::set<std::pair<std::string, std::string>> slots;
  for (const MemoryByKey* memory : {&ending.reference_memory, &ending.final_memory}) {
    for (const auto& [key, values] : *memory) {
      for (const auto& [slot, value] : values) slots.insert({key, slot});
    }
  }
  for (const auto& [key, slot] : slots) {
    if (unknown_keys_.contains(key)) continue;
    const std::optional<int64_t> got = slot_of(ending.final_memory, key, slot);
    const std::optional<int64_t> want = slot_of(ending.reference_memory, key, slot);
    if (got == want) continue;
    std::vector<size_t> evidence;
    if (auto it = last_memory_write_.find({key, slot}); it != last_memory_write_.end()) evidence.push_back(it->second);
    Violate(Invariant::kSameAnswer,
            fmt::format("memory {:?} of key {:?} ends {}, but {} without faults", slot, key, text(got), text(want)),
            evidence);
  }
}

void SameAnswerChecker::Finish(const RunEnding& ending) {
  const bool failed_by_reconciler = !ending.failed_by_call.empty() && unknown_keys_.contains(ending.failed_by_call_key);
  // A call a reconciler could not tell about is a failure the run without
  // faults never has: its retry is another call, which a supplier's
  // fail_percent may answer otherwise, so that key may take another path.
  const bool reference_failed_on_unknown = unknown_keys_.contains(ending.reference_failed_key);
  if (ending.failed_by_call.empty() && ending.all_inputs_finished && !ending.reference_finished &&
      !reference_failed_on_unknown) {
    // The run without faults failed over on a durable call failure; a saved
    // failure is re-raised on every restore, so this run cannot finish
    // every input unless it treated a failure as something else.
    Violate(Invariant::kSameAnswer,
            "every input finished, but the run without faults failed over on a durable call failure", {});
  }
  if (!ending.failed_by_call.empty() && ending.reference_finished && !failed_by_reconciler) {
    // A saved failure is re-raised on every restore: this job never finishes.
    Violate(Invariant::kSameAnswer,
            fmt::format("the job failed over on a durable call failure the run without faults did not have: {}",
                        ending.failed_by_call),
            {});
  }
  for (const auto& [id, value] : outputs_) {
    if (Excused(id.first)) continue;
    auto expected = ending.reference_outputs.find(id);
    if (expected == ending.reference_outputs.end()) {
      // Past the failure that stopped the run without faults, there is no answer to compare with.
      if (!ending.reference_finished) continue;
      Violate(Invariant::kSameAnswer, fmt::format("output {} of input {} = {} does not exist in the run without faults",
                                         id.second, id.first, value),
              {first_seen_[id]});
    } else if (expected->second != value) {
      Violate(Invariant::kSameAnswer, fmt::format("output {} of input {} = {}, but {} without faults", id.second, id.first,
                                         value, expected->second),
              {first_seen_[id]});
    }
  }
  // Missing outputs and memory only count once both runs finished every input.
  if (!ending.all_inputs_finished || !ending.reference_finished) return;
  CheckMemory(ending);
  for (const auto& [id, value] : ending.reference_outputs) {
    if (outputs_.count(id) == 0 && !Excused(id.first)) {
      Violate(Invariant::kSameAnswer,
              fmt::format("output {} of input {} (= {} without faults) was never emitted", id.second, id.first, value),
              {});
    }
  }
}

}  // namespace durasim
