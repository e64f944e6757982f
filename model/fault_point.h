// FaultPoint: what a point where a fault can fire is about (the put or the
// durable call it belongs to, and whose subtask it is), so that an armed
// fault can select its points by meaning (FaultSelector) and a fired fault
// can say where it hit. A put's point is read off the record itself, as the
// store wrote it: the record key names the state, the value says which put
// of the action it is (an empty value is a tombstone).
#pragma once

#include <optional>
#include <string>

#include "model/decoded_values.h"
#include "model/observer.h"
#include "model/scenario.h"
#include "store/action_state.h"
#include "store/state_codec.h"

namespace durasim {

struct FaultPoint {
  int subtask = -1;               // -1: the job's point (a snapshot)
  std::optional<PutPoint> put;    // a write: which put, or a tombstone
  std::optional<StateKey> state;  // the state the put or call belongs to
  std::optional<int> call;        // the durable call's index in its action
};

// The point of a write of `record_key` / `value` by `subtask`. `memo`, when
// given, decodes the value and parses the key (a repeat is a lookup).
// A record the store's codec cannot read is a put with no known meaning.
FaultPoint PutFaultPoint(const std::string& record_key, const std::string& value, int subtask,
                         DecodedValues* memo = nullptr);
// `point` as a snapshot's rewrite (PutPoint::kRewrite) when it is the write
// of a state (not a tombstone or a cleanup record).
FaultPoint AsRewrite(FaultPoint point);

// The point of a durable call.
FaultPoint CallFaultPoint(const CallIdentity& call, int subtask);

// Whether `point` counts for a fault armed with `select` (action names
// resolved to their hashes by the caller: `action_hash`).
bool Selects(const FaultSelector& select, std::optional<uint64_t> action_hash, const FaultPoint& point);

// " key=\"a\" seq=1 call=0" for the trace: what the point hit, "" when
// nothing is known.
std::string DescribeFaultPoint(const FaultPoint& point);

}  // namespace durasim
