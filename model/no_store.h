// NoStore: durable execution off (`durable: {execution: off}`), Flink Agents'
// DurableExecutionManager without an action-state store: every durable
// call is made, nothing is persisted, a checkpoint saves no offsets and a
// restore reads nothing. Calls in flight at a crash, and those of inputs a
// restore replays, are made again: the outside world sees them twice.
//
// Not thread-safe; one per subtask.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "store/action_state_store.h"

namespace durasim {

class NoStore : public ActionStateStore {
 public:
  // Nothing is written; the put returns at once.
  boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) override;
  // Nothing is ever found: no saved result is reused.
  std::optional<ActionState> Get(const StateKey& state_key) override;
  // Nothing to read: every marker, and every list of them, is accepted.
  Status Rebuild(const RecoveryMarker& marker) override;
  Status RebuildFromList(const std::vector<RecoveryMarker>& markers) override;
  // A marker that names no partition: no offsets to save.
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;
  void SetOwnership(KeyOwnership owns) override;
  void Prune(const std::string& key, int64_t seq) override;
  StoreStats Stats() const override;
  std::vector<std::string> CachedInputKeys() const override;
  std::vector<std::pair<StateKey, ActionState>> CachedStates() const override;
};

}  // namespace durasim
