// ActionStateStore: where an agent runtime keeps action states and durable
// call results so that a restored action can reuse them.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/status.h"
#include "store/action_state.h"
#include "store/recovery_marker.h"

namespace durasim {

// What the store holds in memory, for the bounded-memory invariant.
struct StoreStats {
  size_t cached_states = 0;       // latest state per state key
  size_t bookkeeping_entries = 0; // per-input-key index entries
  size_t records_scanned = 0;     // by the last rebuild
  // Written at snapshots since the store was built (kafka-rewrite's
  // rewrites): records and their key and value bytes.
  size_t snapshot_records = 0;
  size_t snapshot_bytes = 0;
};

class ActionStateStore {
 public:
  virtual ~ActionStateStore() = default;

  // Persists `state`. Returns only after the log acknowledged it; the cache
  // changes only then. A cancelled wait returns kCancelled and leaves the
  // caller's cancellation state set.
  virtual boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) = 0;
  // The latest acknowledged (or rebuilt) state, if any. Not const: a store
  // with StoreOptions::evict_on_divergence evicts on a lookup, as the real
  // get() does.
  virtual std::optional<ActionState> Get(const StateKey& state_key) = 0;
  // What the lookups of a store with StoreOptions::evict_on_divergence did
  // so far (another store's stay zero).
  struct LookupEvictions {
    size_t states_evicted = 0;  // cached states a lookup evicted
    size_t later_states_kept = 0;  // lookups that evicted nothing while the cache held a later sequence number
  };
  virtual LookupEvictions EvictionsByGet() const { return {}; }
  // Replaces the cache with the log's contents from `marker` to the end.
  // Rejects markers and records it cannot use (kInvalidRecovery). Keeps only
  // the states of input keys the store owns (SetOwnership).
  virtual Status Rebuild(const RecoveryMarker& marker) = 0;
  // Rebuilds from a checkpoint's union list of markers, every subtask's entry
  // (Flink Agents' rebuildState(List<Object>)): merges them (MergeMarkers:
  // per partition the smallest offset) and rebuilds from the result. A list
  // that cannot be merged is rejected before anything is read.
  virtual Status RebuildFromList(const std::vector<RecoveryMarker>& markers) {
    Result<RecoveryMarker> merged = MergeMarkers(markers);
    return merged.ok() ? Rebuild(*merged) : merged.status();
  }
  // The input keys whose states this store keeps from a rebuild: those of
  // its subtask's key groups (Flink Agents #1010). Default: every key.
  using KeyOwnership = std::function<bool(const std::string& input_key)>;
  virtual void SetOwnership(KeyOwnership owns) = 0;
  // Drops the states of `key` with sequence numbers <= `seq`.
  virtual void Prune(const std::string& key, int64_t seq) = 0;
  // Whether a prune left something to send once the log answers it
  // (FinishPrunes).
  virtual bool PrunesPending() const { return false; }
  // Sends what earlier prunes left until the log answered them (Kafka with
  // cleanup records: each tombstone once its cleanup record is
  // acknowledged). The runtime runs it as a task of its own after a
  // checkpoint's prunes, without the mailbox, as a producer's delivery
  // callback would. The default sends nothing and returns at once.
  virtual boost::asio::awaitable<void> FinishPrunes() { co_return; }
  // The marker a checkpoint saves, given that checkpoint's boundaries.
  virtual Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) = 0;
  // What the design writes at a snapshot once `marker` is taken and before
  // the snapshot is handed over (kafka-rewrite: every unfinished state
  // again, each acknowledged). The checkpoint is declined unless it returns
  // Ok. The default writes nothing and returns at once, without suspending.
  virtual boost::asio::awaitable<Status> CompleteSnapshot(const CompletedBoundaries& /*completed*/,
                                                          const RecoveryMarker& /*marker*/) {
    co_return Status::Ok();
  }

  virtual StoreStats Stats() const = 0;
  // The input keys whose states the store caches now, in key order: the
  // harness's view, for the per-subtask ownership of memory.
  virtual std::vector<std::string> CachedInputKeys() const = 0;
  // Every state the store caches now, in state key order: the harness's
  // view, for `expect: restores: cache:`.
  virtual std::vector<std::pair<StateKey, ActionState>> CachedStates() const = 0;
};

}  // namespace durasim
