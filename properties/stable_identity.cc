// StableIdentity implementation.
#include "properties/stable_identity.h"

#include "model/identity.h"

namespace durasim {

// A name that stands for itself is not kept: a lookup that finds nothing
// answers the name itself, so erasing it answers what keeping it would. The
// production runtime's names all stand for themselves, so its maps stay empty
// and its lookups are lookups in empty maps.
void StableIdentity::LearnTask(const TaskView& task) {
  const uint64_t stable = ActionHash(task.action);
  if (stable == task.state_key.action_hash) {
    action_hashes_.erase(task.state_key.action_hash);
  } else {
    action_hashes_[task.state_key.action_hash] = stable;
  }
}

void StableIdentity::LearnCall(const CallIdentity& call, const CallArgument& argument) {
  const uint64_t stable = CallArgsDigest(call.function, argument);
  if (stable == call.args_digest) {
    if (!call_digests_.empty()) call_digests_.erase(call);
  } else {
    call_digests_[call] = stable;
  }
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
