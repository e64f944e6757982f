// StableIdentity: the names the production runtime gives a run's states and
// calls, as the checkers compare them. A runtime names them with hashes
// (model/identity.h) that must not change between attempts; a runtime whose
// hashes do change (a per-process action id, a request id inside a call's
// digest) must not hide a repeated call or a re-executed action from the
// checkers behind its new names. So the checkers learn what each name a run
// reports stands for (an action hash: the action's name; a call's digest:
// its function and argument) and compare the production hash of that. For
// the production runtime every name maps to itself.
#pragma once

#include <map>
#include <string>

#include "model/observer.h"

namespace durasim {

class StableIdentity {
 public:
  // An action ran under `task.state_key`.
  void LearnTask(const TaskView& task);
  // A supplier was invoked for `call` with `argument`.
  void LearnCall(const CallIdentity& call, const CallArgument& argument);

  // The production state key (action part) of a reported one.
  StateKey Of(const StateKey& state_key) const;
  // The production identity (state key, argument digest) of a reported call.
  CallIdentity Of(const CallIdentity& call) const;

 private:
  // The production hash of a reported action hash.
  uint64_t ActionOf(uint64_t action_hash) const;

  // Reported action hash -> the production hash of the action's name.
  std::map<uint64_t, uint64_t> action_hashes_;
  std::map<CallIdentity, uint64_t> call_digests_;  // reported call -> production argument digest
};

}  // namespace durasim
