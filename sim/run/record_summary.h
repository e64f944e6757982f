// What a record of the action-state topic holds, in words: the decoded
// state (calls with status and result, memory updates, emitted events,
// completed), a tombstone, a cleanup record, or what makes it undecodable.
// One rendering for the readable trace (sim/view/trace_view.h), the causes of
// violations (sim/run/violation_cause.h) and `durasim inspect`.
#pragma once

#include <string>

#include "store/action_state.h"

namespace durasim {

// "started", "call 0 llm SUCCEEDED 70, call 1 llm PENDING", "completed:
// output 70, memory total=3".
std::string DescribeActionState(const ActionState& state);

// "[key=\"a\" seq=1 action=<name or hash>]": a state key without its event
// hash, for violation causes. `action_name` empty: the action's hash.
std::string DescribeStateKeyBriefly(const StateKey& state_key, const std::string& action_name);

// What one record (key, value) of the topic is. `undecodable` is set when
// neither a state, a tombstone nor a cleanup record decodes from it.
struct RecordSummary {
  enum class Kind { kState, kTombstone, kCleanup, kUndecodable };
  Kind kind = Kind::kUndecodable;
  std::string text;  // "result: ...", "tombstone", "cleanup up to seq 3", "undecodable: why"
};
RecordSummary SummarizeRecord(const std::string& key, const std::string& value);

}  // namespace durasim
