// The log decoded: what each record of the action-state topic holds, as a
// person reads it (offset, record key, the decoded state, or a tombstone,
// a cleanup boundary, a foreign or corrupt record), shared by
// `durasim run --dump-log` and the timeline picture (sim/view/timeline_layout.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/record_kind.h"
#include "store/action_state.h"
#include "store/log_client.h"

namespace durasim {

inline const char* RecordKindName(RecordKind kind) { return NameOf(kind); }

struct DecodedRecord {
  int32_t partition = 0;
  int64_t offset = 0;
  std::string key;  // the record key as it is in the log
  RecordKind kind = RecordKind::kForeign;
  StateKey state_key;  // kStart..kTombstone, kCorrupt
  ActionState state;   // kStart..kComplete
  std::string reason;   // kCorrupt, kForeign: why it does not decode, in words
  std::string problem;  // kCorrupt, kForeign: the reason, and the value's bytes
};

// Decodes one record; never fails (an undecodable one is kCorrupt or
// kForeign, its bytes in `problem` as hex, truncated).
DecodedRecord DecodeLogRecord(const LogRecord& record);

// `bytes` as hex, at most `bytes_max` bytes of it, then "... (N bytes)".
std::string HexPreview(const std::string& bytes, size_t bytes_max);

// Action names by the action hash of their state keys (ActionHash), to
// name the action of a record; a hash missing from it is printed as is.
using ActionNames = std::map<uint64_t, std::string>;

// What `record` holds, in words: its input key, sequence number and action,
// then the calls with status and result, memory updates, emitted events and
// whether it is completed; or what a tombstone, cleanup or bad record is.
// The put a state's record is, by what it holds: complete, start (no call
// slot), pending (its last slot PENDING) or result.
RecordKind KindOfState(const ActionState& state);

std::string DescribeRecord(const DecodedRecord& record, const ActionNames& names);

// Every partition's records, one per line, under "partition N: ..." lines.
std::string FormatLogDump(const std::vector<std::vector<LogRecord>>& partitions, const ActionNames& names);

}  // namespace durasim
