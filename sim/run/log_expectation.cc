// FirstLogDifference (sim/run/log_expectation.h).
#include "sim/run/log_expectation.h"

#include <fmt/ranges.h>

#include "model/identity.h"
#include "sim/run/log_dump.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

std::string At(const Scenario& scenario, SourcePos pos) { return FilePosition(scenario, pos); }

// How `got` differs from `want` (one call slot), or none.
std::optional<std::string> CallDifference(const ExpectedCall& want, const CallResult& got) {
  if (want.function && *want.function != got.function_id) {
    return fmt::format("function {}, not {}", got.function_id, *want.function);
  }
  if (want.status && *want.status != got.status) {
    return fmt::format("status {}, not {}", CallStatusName(got.status), CallStatusName(*want.status));
  }
  if (want.result && (got.status != CallStatus::kSucceeded || *want.result != got.result)) {
    return got.status == CallStatus::kSucceeded ? fmt::format("result {}, not {}", got.result, *want.result)
                                                : fmt::format("no result ({}), not {}", CallStatusName(got.status),
                                                              *want.result);
  }
  if (want.error && (got.status != CallStatus::kFailed || *want.error != got.error)) {
    return got.status == CallStatus::kFailed ? fmt::format("error {:?}, not {:?}", got.error, *want.error)
                                             : fmt::format("no error ({}), not {:?}", CallStatusName(got.status),
                                                           *want.error);
  }
  return std::nullopt;
}

}  // namespace

std::string FilePosition(const Scenario& scenario, SourcePos pos) {
  return fmt::format("{}:{}:{}", scenario.path.empty() ? scenario.name : scenario.path, pos.line, pos.column);
}

ActionNames ActionNamesOf(const Scenario& scenario) {
  ActionNames names;
  for (const ActionSpec& action : scenario.actions) names[ActionHash(action.name)] = action.name;
  for (const AttemptSpec& attempt : scenario.attempts) {
    if (!attempt.plan) continue;
    for (const ActionSpec& action : attempt.plan->actions) names[ActionHash(action.name)] = action.name;
  }
  return names;
}

std::optional<std::string> RecordDifference(const Scenario& scenario, const ExpectedRecord& want,
                                            const DecodedRecord& got, const ActionNames& names) {
  if (want.kind != got.kind) return fmt::format("it is a {} record, not {}", NameOf(got.kind), NameOf(want.kind));
  if (want.key && *want.key != got.state_key.key) {
    return fmt::format("its key is {:?}, not {:?}", got.state_key.key, *want.key);
  }
  if (want.seq && *want.seq != got.state_key.seq) {
    return fmt::format("its sequence number is {}, not {}", got.state_key.seq, *want.seq);
  }
  if (want.action) {
    auto name = names.find(got.state_key.action_hash);
    const std::string action = name != names.end() ? name->second : fmt::format("{:016x}", got.state_key.action_hash);
    if (action != *want.action) return fmt::format("its action is {}, not {}", action, *want.action);
  }
  if (want.calls) {
    DURASIM_CHECK(got.kind != RecordKind::kTombstone || got.state.call_results.empty());  // decoded from nothing
    const std::vector<CallResult>& calls = got.state.call_results;
    if (calls.size() != want.calls->size()) {
      return fmt::format("it holds {} call slots, not {}", calls.size(), want.calls->size());
    }
    for (size_t i = 0; i < calls.size(); ++i) {
      if (std::optional<std::string> differs = CallDifference((*want.calls)[i], calls[i])) {
        return fmt::format("call slot {} (stated at {}) has {}", i, At(scenario, (*want.calls)[i].pos), *differs);
      }
    }
  }
  if (want.memory && *want.memory != got.state.memory_updates) {
    std::vector<std::string> held;
    for (const MemoryUpdate& update : got.state.memory_updates) held.push_back(fmt::format("{}={}", update.slot, update.value));
    std::vector<std::string> stated;
    for (const MemoryUpdate& update : *want.memory) stated.push_back(fmt::format("{}={}", update.slot, update.value));
    return fmt::format("its memory updates are [{}], not [{}]", fmt::join(held, ", "), fmt::join(stated, ", "));
  }
  if (want.events) {
    std::vector<std::string> held;
    for (const EmittedEvent& event : got.state.emitted_events) {
      if (event.type != kOutputEventType) held.push_back(fmt::format("{}({})", event.type, event.value));
    }
    std::vector<std::string> stated;
    for (const EmittedEvent& event : *want.events) stated.push_back(fmt::format("{}({})", event.type, event.value));
    if (held != stated) {
      return fmt::format("its emitted events are [{}], not [{}]", fmt::join(held, ", "), fmt::join(stated, ", "));
    }
  }
  if (want.outputs) {
    std::vector<int64_t> outputs;
    for (const EmittedEvent& event : got.state.emitted_events) {
      if (event.type == kOutputEventType) outputs.push_back(event.value);
    }
    if (outputs != *want.outputs) {
      return fmt::format("its outputs are [{}], not [{}]", fmt::join(outputs, ", "), fmt::join(*want.outputs, ", "));
    }
  }
  return std::nullopt;
}

std::optional<std::string> FirstLogDifference(const Scenario& scenario,
                                              const std::vector<std::vector<LogRecord>>& partitions) {
  const ActionNames names = ActionNamesOf(scenario);
  for (const ExpectedPartition& want : scenario.expect.log) {
    if (static_cast<size_t>(want.partition) >= partitions.size()) {
      return fmt::format("expected log partition {} ({}), but the topic has {} partition{}", want.partition,
                         At(scenario, want.pos), partitions.size(), partitions.size() == 1 ? "" : "s");
    }
    DURASIM_CHECK_GE(want.partition, 0);  // the parser reads 0..kPartitionsMax-1
    const std::vector<LogRecord>& got = partitions[static_cast<size_t>(want.partition)];
    for (size_t i = 0; i < want.records.size() && i < got.size(); ++i) {
      DURASIM_CHECK_EQ(got[i].partition, want.partition);  // a partition's records, as read
      DURASIM_CHECK(i == 0 || got[i - 1].offset < got[i].offset);  // in offset order
      const DecodedRecord decoded = DecodeLogRecord(got[i]);
      if (std::optional<std::string> differs = RecordDifference(scenario, want.records[i], decoded, names)) {
        return fmt::format("expected log partition {} record {} ({}) to match, but at offset {} ({}) {}",
                           want.partition, i, At(scenario, want.records[i].pos), got[i].offset,
                           DescribeRecord(decoded, names), *differs);
      }
    }
    if (got.size() != want.records.size()) {
      return fmt::format("expected log partition {} ({}) to hold {} record{}, but it holds {}", want.partition,
                         At(scenario, want.pos), want.records.size(), want.records.size() == 1 ? "" : "s",
                         got.size());
    }
  }
  return std::nullopt;
}

}  // namespace durasim
