// StableIdentity implementation.
#include "properties/stable_identity.h"

#include "model/identity.h"

namespace durasim {

void StableIdentity::LearnTask(const TaskView& task) {
  action_hashes_[task.state_key.action_hash] = ActionHash(task.action);
}

void StableIdentity::LearnCall(const CallIdentity& call, const CallArgument& argument) {
  call_digests_[call] = CallArgsDigest(call.function, argument);
}

uint64_t StableIdentity::ActionOf(uint64_t action_hash) const {
  auto stable = action_hashes_.find(action_hash);
  return stable != action_hashes_.end() ? stable->second : action_hash;
}

StateKey StableIdentity::Of(const StateKey& state_key) const {
  StateKey stable = state_key;
  stable.action_hash = ActionOf(state_key.action_hash);
  return stable;
}

CallIdentity StableIdentity::Of(const CallIdentity& call) const {
  CallIdentity stable = call;
  auto digest = call_digests_.find(call);
  if (digest != call_digests_.end()) stable.args_digest = digest->second;
  stable.state_key.action_hash = ActionOf(call.state_key.action_hash);
  return stable;
}

}  // namespace durasim
