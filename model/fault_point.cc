// FaultPoint implementation.
#include "model/fault_point.h"

#include "store/format.h"

namespace durasim {

namespace {

// Which put of an action a state is, as the runtime writes them: the first
// state has no calls, a call's slot is pending before the call and holds its
// outcome after it, the finished state is completed.
PutPoint PutOfState(const ActionState& state) {
  if (state.completed) return PutPoint::kComplete;
  if (state.call_results.empty()) return PutPoint::kStart;
  return state.call_results.back().status == CallStatus::kPending ? PutPoint::kPending : PutPoint::kResult;
}

}  // namespace

FaultPoint PutFaultPoint(const std::string& record_key, const std::string& value, int subtask,
                         DecodedValues* memo) {
  FaultPoint point;
  point.subtask = subtask;
  if (std::optional<std::string> cleaned = ParseCleanupKey(record_key)) {
    point.put = PutPoint::kCleanup;
    point.state = StateKey{*cleaned, 0, 0, 0};  // the input key; no one state
    return point;
  }
  if (memo != nullptr) {
    if (const Result<StateKey>& key = memo->Key(record_key); key.ok()) point.state = *key;
  } else if (Result<StateKey> key = ParseRecordKey(record_key); key.ok()) {
    point.state = std::move(key).value();
  }
  if (value.empty()) {
    point.put = PutPoint::kTombstone;
    return point;
  }
  std::optional<Result<DecodedState>> own;
  if (memo == nullptr) own = DecodeStateValue(value);
  const Result<DecodedState>& decoded = memo != nullptr ? memo->Decode(value) : *own;
  if (!decoded.ok()) return point;
  point.put = PutOfState(decoded->state);
  if (point.put == PutPoint::kPending || point.put == PutPoint::kResult) {
    point.call = static_cast<int>(decoded->state.call_results.size()) - 1;
  }
  return point;
}

FaultPoint AsRewrite(FaultPoint point) {
  if (point.put && point.put != PutPoint::kTombstone && point.put != PutPoint::kCleanup) point.put = PutPoint::kRewrite;
  return point;
}

FaultPoint CallFaultPoint(const CallIdentity& call, int subtask) {
  FaultPoint point;
  point.subtask = subtask;
  point.state = call.state_key;
  point.call = call.call_index;
  return point;
}

bool Selects(const FaultSelector& select, std::optional<uint64_t> action_hash, const FaultPoint& point) {
  // Tombstones, cleanup records and rewrites are writes of their own
  // kinds: only a fault that asks for one counts it (so a fault's nth counts
  // the same puts on every store design).
  for (PutPoint own : {PutPoint::kTombstone, PutPoint::kCleanup, PutPoint::kRewrite}) {
    if ((point.put == own) != (select.put == own)) return false;
  }
  if (select.put && point.put != select.put) return false;
  if (select.key && (!point.state || point.state->key != *select.key)) return false;
  if (select.seq && (!point.state || point.state->seq != *select.seq)) return false;
  if (action_hash && (!point.state || point.state->action_hash != *action_hash)) return false;
  if (select.call && point.call != select.call) return false;
  return true;
}

std::string DescribeFaultPoint(const FaultPoint& point) {
  std::string out;
  if (point.state && point.put == PutPoint::kCleanup) out += fmt::format(" key={:?}", point.state->key);
  if (point.state && point.put != PutPoint::kCleanup) out += fmt::format(" key={:?} seq={}", point.state->key, point.state->seq);
  if (point.call) out += fmt::format(" call={}", *point.call);
  return out;
}

}  // namespace durasim
