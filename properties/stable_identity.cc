// StableIdentity implementation.
#include "properties/stable_identity.h"

#include "model/identity.h"

namespace durasim {

void StableIdentity::LearnTask(const TaskView& task) { action_names_[task.state_key.action_hash] = task.action; }

void StableIdentity::LearnCall(const CallIdentity& call, const CallArgument& argument) {
  call_digests_[call] = CallArgsDigest(call.function, argument);
}

StateKey StableIdentity::Of(const StateKey& state_key) const {
  StateKey stable = state_key;
  auto name = action_names_.find(state_key.action_hash);
  if (name != action_names_.end()) stable.action_hash = ActionHash(name->second);
  return stable;
}

CallIdentity StableIdentity::Of(const CallIdentity& call) const {
  CallIdentity stable = call;
  auto digest = call_digests_.find(call);
  if (digest != call_digests_.end()) stable.args_digest = digest->second;
  stable.state_key = Of(call.state_key);
  return stable;
}

}  // namespace durasim
