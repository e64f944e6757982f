// Identities of the agent runtime's work (identity.h).
#include "model/identity.h"

#include "model/scenario.h"
#include "store/format.h"
#include "store/hash.h"

namespace durasim {
namespace {

uint64_t StateKeyDigest(const StateKey& k) {
  uint64_t digest = HashString(k.key);
  digest = HashCombine(digest, static_cast<uint64_t>(k.seq));
  digest = HashCombine(digest, k.event_hash);
  return HashCombine(digest, k.action_hash);
}

}  // namespace

uint64_t ActionHash(const std::string& action_name) { return HashString(action_name); }

uint64_t InputEventHash(int64_t value) {
  return HashCombine(HashString(kInputEventType), static_cast<uint64_t>(value));
}

uint64_t ChildEventHash(const StateKey& origin, uint64_t emit_index, const std::string& type, int64_t value) {
  uint64_t hash = HashCombine(StateKeyDigest(origin), emit_index);
  return HashCombine(hash, HashCombine(HashString(type), static_cast<uint64_t>(value)));
}

StateKey TaskStateKey(const std::string& key, const ActionTask& task, const std::string& action_name) {
  return StateKey{key, task.seq, task.event.hash, ActionHash(action_name)};
}

uint64_t CallArgsDigest(const std::string& function, int64_t arg) {
  return HashCombine(HashString(function), static_cast<uint64_t>(arg));
}

uint64_t CallArgsDigest(const std::string& function, const CallArgument& arg) {
  const uint64_t digest = CallArgsDigest(function, arg.value);
  if (!arg.attempt.has_value()) return digest;
  return HashCombine(HashCombine(digest, HashString("attempt")), static_cast<uint64_t>(*arg.attempt));
}

std::string DescribeStateKey(const StateKey& k) {
  return fmt::format("{}", StateKeyText{k});
}

std::string CallIdentity::ToString() const {
  return fmt::format("{}", CallText{*this});
}

}  // namespace durasim
