// InstantStateStore implementation.
#include "model/instant_state_store.h"

#include <limits>

namespace durasim {

boost::asio::awaitable<Status> InstantStateStore::Put(const StateKey& state_key, const ActionState& state) {
  states_[state_key] = state;
  co_return Status::Ok();
}

std::optional<ActionState> InstantStateStore::Get(const StateKey& state_key) {
  auto it = states_.find(state_key);
  if (it == states_.end()) return std::nullopt;
  return it->second;
}

Status InstantStateStore::Rebuild(const RecoveryMarker& /*marker*/) {
  return Status(StatusCode::kInternal, "the store of the run without faults has no log to rebuild from");
}

Result<RecoveryMarker> InstantStateStore::GetRecoveryMarker(const CompletedBoundaries& /*completed*/) {
  return Status(StatusCode::kInternal, "the store of the run without faults has no log to mark a position in");
}

void InstantStateStore::SetOwnership(KeyOwnership /*owns*/) {}

void InstantStateStore::Prune(const std::string& key, int64_t seq) {
  // StateKey orders by input key, seq, event hash, action hash.
  constexpr uint64_t kHashMax = std::numeric_limits<uint64_t>::max();
  states_.erase(states_.lower_bound(StateKey{key, std::numeric_limits<int64_t>::min(), 0, 0}),
                states_.upper_bound(StateKey{key, seq, kHashMax, kHashMax}));
}

std::vector<std::pair<StateKey, ActionState>> InstantStateStore::CachedStates() const {
  return {states_.begin(), states_.end()};
}

StoreStats InstantStateStore::Stats() const { return StoreStats{states_.size(), 0, 0}; }

std::vector<std::string> InstantStateStore::CachedInputKeys() const {
  std::vector<std::string> keys;
  for (const auto& [state_key, state] : states_) {
    if (keys.empty() || keys.back() != state_key.key) keys.push_back(state_key.key);
  }
  return keys;
}

}  // namespace durasim
