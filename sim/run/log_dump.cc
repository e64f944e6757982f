// The log decoded (sim/run/log_dump.h).
#include "sim/run/log_dump.h"

#include <fmt/ranges.h>

#include "store/format.h"
#include "store/state_codec.h"

namespace durasim {

std::string HexPreview(const std::string& bytes, size_t bytes_max) {
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < bytes_max; ++i) {
    out += fmt::format("{:02x}", static_cast<unsigned char>(bytes[i]));
  }
  if (bytes.size() > bytes_max) out += fmt::format("... ({} bytes)", bytes.size());
  return out;
}

RecordKind KindOfState(const ActionState& state) {
  if (state.completed) return RecordKind::kComplete;
  if (state.call_results.empty()) return RecordKind::kStart;
  return state.call_results.back().status == CallStatus::kPending ? RecordKind::kPending : RecordKind::kResult;
}

namespace {

constexpr size_t kHexBytesMax = 24;

std::string ActionName(uint64_t hash, const ActionNames& names) {
  auto it = names.find(hash);
  return it != names.end() ? it->second : fmt::format("{:016x}", hash);
}

std::string DescribeState(const ActionState& state) {
  std::vector<std::string> parts;
  if (!state.call_results.empty()) {
    std::vector<std::string> calls;
    for (size_t i = 0; i < state.call_results.size(); ++i) {
      const CallResult& call = state.call_results[i];
      std::string text = fmt::format("#{} {} {}", i, call.function_id, CallStatusName(call.status));
      if (call.status == CallStatus::kSucceeded) text += fmt::format(" result={}", call.result);
      if (call.status == CallStatus::kFailed) text += fmt::format(" error={:?}", call.error);
      calls.push_back(std::move(text));
    }
    parts.push_back(fmt::format("calls [{}]", fmt::join(calls, ", ")));
  }
  if (!state.memory_updates.empty()) {
    std::vector<std::string> updates;
    for (const MemoryUpdate& update : state.memory_updates) updates.push_back(fmt::format("{}={}", update.slot, update.value));
    parts.push_back(fmt::format("memory [{}]", fmt::join(updates, ", ")));
  }
  if (!state.emitted_events.empty()) {
    std::vector<std::string> events;
    for (const EmittedEvent& event : state.emitted_events) {
      events.push_back(event.type == kOutputEventType ? fmt::format("output {}", event.value)
                                                      : fmt::format("{}({})", event.type, event.value));
    }
    parts.push_back(fmt::format("emits [{}]", fmt::join(events, ", ")));
  }
  if (state.completed) parts.push_back("completed");
  if (parts.empty()) parts.push_back("no calls yet");
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

DecodedRecord DecodeLogRecord(const LogRecord& record) {
  DecodedRecord out;
  out.partition = record.partition;
  out.offset = record.offset;
  out.key = record.key;
  auto undecodable = [&](RecordKind kind, std::string reason) {
    out.kind = kind;
    out.reason = std::move(reason);
    out.problem = fmt::format("{}; value {}", out.reason, HexPreview(record.value, kHexBytesMax));
    return out;
  };
  if (std::optional<std::string> input_key = ParseCleanupKey(record.key)) {
    out.state_key.key = *input_key;
    const std::optional<int64_t> seq = ParseCleanupValue(record.value);
    if (!seq) {
      return undecodable(RecordKind::kCorrupt, fmt::format("the cleanup record of key {:?} holds no sequence number "
                                                           "({} bytes)",
                                                           *input_key, record.value.size()));
    }
    out.kind = RecordKind::kCleanup;
    out.state_key.seq = *seq;
    return out;
  }
  Result<StateKey> state_key = ParseRecordKey(record.key);
  if (!state_key.ok()) return undecodable(RecordKind::kForeign, state_key.status().message());
  out.state_key = *state_key;
  if (record.value.empty()) {
    out.kind = RecordKind::kTombstone;
    return out;
  }
  Result<DecodedState> decoded = DecodeStateValue(record.value);
  if (!decoded.ok()) {
    return undecodable(RecordKind::kCorrupt,
                       fmt::format("{} ({} bytes)", decoded.status().message(), record.value.size()));
  }
  if (decoded->state_key != *state_key) {
    return undecodable(RecordKind::kCorrupt,
                       fmt::format("the record key does not match the state key in its value (it names {}_{})",
                                   decoded->state_key.key, decoded->state_key.seq));
  }
  out.state = decoded->state;
  out.kind = KindOfState(out.state);
  return out;
}

std::string DescribeRecord(const DecodedRecord& record, const ActionNames& names) {
  const StateKey& key = record.state_key;
  switch (record.kind) {
    case RecordKind::kStart:
    case RecordKind::kPending:
    case RecordKind::kResult:
    case RecordKind::kComplete:
      return fmt::format("key={:?} seq={} action={}: {}", key.key, key.seq, ActionName(key.action_hash, names),
                         DescribeState(record.state));
    case RecordKind::kTombstone:
      return fmt::format("key={:?} seq={} action={}: tombstone (the state was pruned)", key.key, key.seq,
                         ActionName(key.action_hash, names));
    case RecordKind::kCleanup:
      return fmt::format("key={:?}: cleanup, states up to seq {} pruned", key.key, key.seq);
    case RecordKind::kCorrupt:
    case RecordKind::kForeign:
      return record.problem;
  }
  return "";
}

std::string FormatLogDump(const std::vector<std::vector<LogRecord>>& partitions, const ActionNames& names) {
  std::string out;
  for (size_t p = 0; p < partitions.size(); ++p) {
    const std::vector<LogRecord>& records = partitions[p];
    if (records.empty()) {
      out += fmt::format("  partition {}: empty\n", p);
      continue;
    }
    out += fmt::format("  partition {}: {} record{}, offsets {}..{}\n", p, records.size(), records.size() == 1 ? "" : "s",
                       records.front().offset, records.back().offset);
    for (const LogRecord& record : records) {
      const DecodedRecord decoded = DecodeLogRecord(record);
      out += fmt::format("    {:>5}  {:<9}  {}\n", record.offset, RecordKindName(decoded.kind), record.key);
      out += fmt::format("           {}\n", DescribeRecord(decoded, names));
    }
  }
  return out;
}

}  // namespace durasim
