// InstantStateStore: the store of the run without faults (the reference a
// generated or hand-written scenario's answer is judged against). It keeps
// each state in memory and acknowledges every put at once, without a log.
//
// Why it may stand in for the production store there: that run has one
// attempt, no fault, no checkpoint and no restore, so the store is only
// written and read back within the attempt, and what it is asked for is the
// agent's answer (outputs, memory, whether a call failure fails the job
// over), which the `same-answer` invariant already requires not to depend on
// how long a put takes (but for a supplier's `fails: {nth}`, which counts
// invocations across keys: hand-written scenarios only). What it saves: encoding every state, the producer's
// timers and the log's observers, about a sixth of a generated run
// (docs/benchmarks.md, "Issue 15, part 6").
//
// Not thread-safe; one per subtask of the run without faults.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/action_state_store.h"

namespace durasim {

class InstantStateStore : public ActionStateStore {
 public:
  // Keeps `state` as the latest of `state_key`; never suspends, never fails.
  boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) override;
  std::optional<ActionState> Get(const StateKey& state_key) override;
  // There is no log to rebuild from, nor a marker to save: the run without
  // faults neither restores nor checkpoints. Both are kInternal errors.
  Status Rebuild(const RecoveryMarker& marker) override;
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;
  // Ownership matters only to a rebuild: ignored.
  void SetOwnership(KeyOwnership owns) override;
  void Prune(const std::string& key, int64_t seq) override;
  StoreStats Stats() const override;
  std::vector<std::string> CachedInputKeys() const override;
  std::vector<std::pair<StateKey, ActionState>> CachedStates() const override;

 private:
  std::map<StateKey, ActionState> states_;  // ordered by input key, then seq
};

}  // namespace durasim
