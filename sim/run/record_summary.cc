// Record summaries (record_summary.h).
#include "sim/run/record_summary.h"

#include <vector>

#include "sim/run/log_dump.h"
#include "store/format.h"
#include "store/state_codec.h"

namespace durasim {

std::string DescribeActionState(const ActionState& state) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < state.call_results.size(); ++i) {
    const CallResult& call = state.call_results[i];
    std::string text = fmt::format("call {} {} {}", i, call.function_id, CallStatusName(call.status));
    if (call.status == CallStatus::kSucceeded) text += fmt::format(" {}", call.result);
    if (call.status == CallStatus::kFailed) text += fmt::format(" {:?}", call.error);
    parts.push_back(std::move(text));
  }
  for (const MemoryUpdate& update : state.memory_updates) parts.push_back(fmt::format("memory {}={}", update.slot, update.value));
  for (const EmittedEvent& event : state.emitted_events) {
    if (event.type == kOutputEventType) {
      parts.push_back(fmt::format("output {}", event.value));
    } else {
      parts.push_back(fmt::format("emit {}({})", event.type, event.value));
    }
  }
  const char* phase = state.completed                                                   ? "completed"
                      : state.call_results.empty()                                      ? "started"
                      : state.call_results.back().status == CallStatus::kPending ? "call pending"
                                                                                        : "call done";
  if (parts.empty()) return phase;
  return fmt::format("{}: {}", phase, fmt::join(parts, ", "));
}

std::string DescribeStateKeyBriefly(const StateKey& state_key, const std::string& action_name) {
  return fmt::format("[key={:?} seq={} action={}]", state_key.key, state_key.seq,
                     action_name.empty() ? fmt::format("{:016x}", state_key.action_hash) : action_name);
}

RecordSummary SummarizeRecord(const std::string& key, const std::string& value) {
  const DecodedRecord record = DecodeLogRecord(LogRecord{0, 0, key, value});
  switch (record.kind) {
    case RecordKind::kCleanup:
      return {RecordSummary::Kind::kCleanup, fmt::format("cleanup: the states of key {:?} up to seq {} were pruned",
                                                         record.state_key.key, record.state_key.seq)};
    case RecordKind::kTombstone: return {RecordSummary::Kind::kTombstone, "tombstone: the state was pruned"};
    case RecordKind::kCorrupt:
    case RecordKind::kForeign: return {RecordSummary::Kind::kUndecodable, "undecodable: " + record.reason};
    case RecordKind::kStart:
    case RecordKind::kPending:
    case RecordKind::kResult:
    case RecordKind::kComplete: break;
  }
  return {RecordSummary::Kind::kState, DescribeActionState(record.state)};
}

}  // namespace durasim
