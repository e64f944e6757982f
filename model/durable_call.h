// The durable-call path of the agent runtime. A call of an action replaying
// after a restore reuses the result its saved state holds, in order, until
// the first call that does not match (another function or argument, or a
// slot the runtime does not count as saved); every other call is made: a
// PENDING slot is persisted, the supplier invoked, the result persisted.
// SavedCalls decides reuse; AgentRuntime::RunCallStep and MakeCall
// (agent_runtime_calls.cc, the runtime's own unit) run the path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/observer.h"
#include "model/scenario.h"
#include "model/wrapping.h"
#include "store/action_state.h"

namespace durasim {

class SavedCalls {
 public:
  explicit SavedCalls(std::vector<CallResult> saved) : saved_(std::move(saved)) {}

  // The saved result of `call` when it may be reused: the saved slot of the
  // same index is that call (`matches`: the same function and argument
  // digest) and `is_saved` accepts it. The first saved slot that is not ends
  // reuse for the action: from there on every call is made.
  template <typename Matches, typename IsSaved>
  const CallResult* Reuse(const CallIdentity& call, Matches matches, IsSaved is_saved) {
    const size_t slot = static_cast<size_t>(call.call_index);
    same_call_slot_ = nullptr;
    if (!reusing_ || slot >= saved_.size()) return nullptr;
    const CallResult& old = saved_[slot];
    const bool same_call = matches(old, call);
    reusing_ = same_call && is_saved(old);
    if (!same_call) mismatch_ = &old;
    if (same_call) same_call_slot_ = &old;
    return reusing_ ? &old : nullptr;
  }
  // The saved slot the last Reuse found to be its very call, reused or
  // not (a PENDING one is not), or null.
  const CallResult* SameCallSlot() const { return same_call_slot_; }

  // The saved slot that ended reuse by not being its call, once, right after
  // the Reuse that found it; then null.
  const CallResult* TakeMismatch() { return std::exchange(mismatch_, nullptr); }

 private:
  std::vector<CallResult> saved_;
  bool reusing_ = true;
  const CallResult* mismatch_ = nullptr;
  const CallResult* same_call_slot_ = nullptr;
};

// One execution of an action's steps: the state it persists, its
// accumulator and the index of its next durable call.
struct ActionRun {
  const ActionSpec& action;
  const StateKey& state_key;
  uint64_t letter = 0;  // the letter running it, the target of an injected cancellation
  SavedCalls saved_calls;
  ActionState state;
  int64_t acc = 0;
  int call_index = 0;
  // The key's memory as of the action's start (the updates of every action
  // completed before it); the action also reads its own updates so far.
  const std::map<std::string, int64_t>* memory = nullptr;
  // A failed call under `on_error: ignore` ended the action.
  bool ignored = false;
  // A failed call under `on_error: continue` was just caught (its call step
  // ends; the action goes on).
  bool continued = false;

  // memory[slot] as this action sees it: its own latest update, else the
  // key's memory; none when the slot is unset.
  std::optional<int64_t> Recall(const std::string& slot) const {
    for (auto it = state.memory_updates.rbegin(); it != state.memory_updates.rend(); ++it) {
      if (it->slot == slot) return it->value;
    }
    if (memory == nullptr) return std::nullopt;
    auto found = memory->find(slot);
    if (found == memory->end()) return std::nullopt;
    return found->second;
  }
};

}  // namespace durasim
