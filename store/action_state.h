// ActionState and CallResult: what the store persists per
// (input key, sequence number, action, event), and the state key naming it.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "store/compare_bytes.h"

namespace durasim {

enum class CallStatus { kPending, kSucceeded, kFailed };

const char* CallStatusName(CallStatus status);

// The outcome of one durable call, matched on replay by position, function id
// and argument digest.
struct CallResult {
  std::string function_id;
  uint64_t args_digest = 0;
  CallStatus status = CallStatus::kPending;
  int64_t result = 0;     // kSucceeded
  std::string error;      // kFailed
  bool operator==(const CallResult&) const = default;
};

struct MemoryUpdate {
  std::string slot;
  int64_t value = 0;
  bool operator==(const MemoryUpdate&) const = default;
};

// An event the action emitted; type kOutputEventType marks an output record.
struct EmittedEvent {
  std::string type;
  int64_t value = 0;
  bool operator==(const EmittedEvent&) const = default;
};

inline constexpr const char* kOutputEventType = "__output__";

struct ActionState {
  std::vector<CallResult> call_results;  // cleared when the action completes
  std::vector<MemoryUpdate> memory_updates;
  std::vector<EmittedEvent> emitted_events;
  bool completed = false;
  bool operator==(const ActionState&) const = default;
};

// Names one ActionState: the input key and its sequence number, the triggering
// event and the action. The input key may hold any character.
struct StateKey {
  std::string key;
  int64_t seq = 0;
  uint64_t event_hash = 0;
  uint64_t action_hash = 0;
  bool operator==(const StateKey&) const = default;
  // The member-wise order a defaulted <=> gives, with the key compared
  // inline (store/compare_bytes.h).
  std::strong_ordering operator<=>(const StateKey& other) const {
    if (const std::strong_ordering order = CompareBytes(key, other.key); order != 0) return order;
    if (seq != other.seq) return seq <=> other.seq;
    if (event_hash != other.event_hash) return event_hash <=> other.event_hash;
    return action_hash <=> other.action_hash;
  }
};

}  // namespace durasim
