// NoStore implementation.
#include "model/no_store.h"

namespace durasim {

boost::asio::awaitable<Status> NoStore::Put(const StateKey& /*state_key*/, const ActionState& /*state*/) {
  co_return Status::Ok();
}

std::optional<ActionState> NoStore::Get(const StateKey& /*state_key*/) { return std::nullopt; }

Status NoStore::Rebuild(const RecoveryMarker& /*marker*/) { return Status::Ok(); }

Status NoStore::RebuildFromList(const std::vector<RecoveryMarker>& /*markers*/) { return Status::Ok(); }

Result<RecoveryMarker> NoStore::GetRecoveryMarker(const CompletedBoundaries& /*completed*/) { return RecoveryMarker{}; }

void NoStore::SetOwnership(KeyOwnership /*owns*/) {}

void NoStore::Prune(const std::string& /*key*/, int64_t /*seq*/) {}

StoreStats NoStore::Stats() const { return StoreStats{}; }

std::vector<std::string> NoStore::CachedInputKeys() const { return {}; }

std::vector<std::pair<StateKey, ActionState>> NoStore::CachedStates() const { return {}; }

}  // namespace durasim
