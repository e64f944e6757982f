// KafkaActionStateStore: action states appended to a compacted Kafka topic
// (through a LogClient), with an in-memory cache of the latest state per
// state key and the position of the record that holds it.
//
// Post-#1158 semantics: the recovery marker of a partition is rewound to the
// smallest offset of any cached state whose input is not finished according
// to the checkpoint's completed boundaries; put flushes before awaiting and
// updates caches only after the acknowledgement; rebuild rejects invalid
// recovery data; per-key bookkeeping is dropped with the key's last state.
// Optionally (Flink Agents' opt-in tombstones), prune also appends a
// tombstone, an empty value, for every state it drops, so that compaction
// can reclaim it; a rebuild that reads a tombstone forgets the state. A
// restore of a checkpoint older than the prune then no longer finds those
// states: such a restore is rejected (the committed cleanup boundary: the
// tombstones in the replayed range and, when compaction removes tombstones,
// a cleanup record appended before them, #1101).
//
// Thread-safety: none; used from one coroutine strand.
#pragma once

#include <map>
#include <set>
#include <string>

#include "store/action_state_store.h"
#include "store/log_client.h"
#include "store/store_design.h"

namespace durasim {

class KafkaActionStateStore : public ActionStateStore {
 public:
  // REQUIRES: `client` outlives the store.
  // `cleanup_records`: with tombstones, a prune first appends the cleanup
  // record of its key (EncodeCleanupKey), so that the boundary outlives the
  // tombstones where compaction removes them (log.delete_retention_ms).
  explicit KafkaActionStateStore(LogClient& client, bool tombstones = false, bool cleanup_records = false)
      : KafkaActionStateStore(client, StoreOptions{StoreDesign::kKafkaRewind, tombstones, cleanup_records}) {}
  // `options.design`: kKafkaRewind or kKafkaRewrite (store/store_design.h).
  KafkaActionStateStore(LogClient& client, const StoreOptions& options);

  boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) override;
  // With StoreOptions::evict_on_divergence, a lookup first evicts as the
  // real get() does (EvictsOnLookup, EvictLaterStates).
  std::optional<ActionState> Get(const StateKey& state_key) override;
  LookupEvictions EvictionsByGet() const override { return evictions_by_get_; }
  Status Rebuild(const RecoveryMarker& marker) override;
  // As the base's, and a store with tombstones also rejects a list with a
  // version-1 entry: such a marker holds no completed boundaries, which the
  // rebuild needs to tell a committed cleanup from a state still needed.
  Status RebuildFromList(const std::vector<RecoveryMarker>& markers) override;
  void Prune(const std::string& key, int64_t seq) override;
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;
  // With cleanup records: whether a prune holds tombstones back.
  bool PrunesPending() const override { return !held_tombstones_.empty(); }
  // Sends each held tombstone whose partition's cleanup record was
  // acknowledged and drops the others (a state left in the log costs space
  // only); waits for nothing but those acknowledgements.
  boost::asio::awaitable<void> FinishPrunes() override;
  // kafka-rewrite: writes the cached state of every unfinished action again
  // (each after `marker`, on its record's partition), waits for every
  // acknowledgement and moves the cache to the new records. Fails, naming
  // the first, when any rewrite is not acknowledged: a marker whose
  // rewrites may be missing must not be handed over.
  boost::asio::awaitable<Status> CompleteSnapshot(const CompletedBoundaries& completed,
                                                  const RecoveryMarker& marker) override;

  StoreStats Stats() const override;
  std::vector<std::string> CachedInputKeys() const override;
  std::vector<std::pair<StateKey, ActionState>> CachedStates() const override;
  void SetOwnership(KeyOwnership owns) override { owns_ = std::move(owns); }

 protected:
  // Whether the states of `input_key` are this store's to keep.
  bool Owns(const std::string& input_key) const { return !owns_ || owns_(input_key); }

  // Empties the cache and what a rebuild counts: what a rejected rebuild
  // leaves.
  void ForgetRebuildState();

  struct CachedState {
    StateKey state_key;
    ActionState state;
    RecordPosition position;
  };

  // How long a rebuild may fetch without progress before it gives up
  // (#1101: 30 s), counted in the time the fetches say they waited.
  static constexpr std::chrono::milliseconds kRebuildStallMax{30'000};

  // Where the next record of a state goes: where its cached record is, or
  // its input key's partition among the topic's partitions now.
  int32_t PartitionOfState(const std::string& record_key, const std::string& input_key) const;
  // Reads the log from a checked marker into the cache: every partition of
  // the topic, from the marker's offset or, for a partition added after the
  // checkpoint, from offset 0.
  virtual Status ReadFromMarker(const RecoveryMarker& marker, const std::vector<PartitionOffsets>& offsets);
  // Reads `partition` from `from` to exactly `range.end` (captured when the
  // rebuild started, whatever the fetches return meanwhile), fetch by
  // fetch. kUnavailable when no fetch made progress for kRebuildStallMax.
  virtual Status ReadPartition(int32_t partition, int64_t from, const PartitionOffsets& range);
  // Takes one record of a rebuild into the cache (or forgets the state of a
  // tombstone). kInvalidRecovery for a record that does not decode.
  Status TakeRecord(const LogRecord& record);
  // A tombstone for `state_key` in the replayed range: kInvalidRecovery when
  // the checkpoint still needs that state (its input was not finished at the
  // checkpoint: a later checkpoint's completed prune removed it, #691). The
  // tombstones and the checkpoint's boundaries in the marker are the
  // committed cleanup boundary.
  virtual Status CheckTombstone(const StateKey& state_key, const std::string& where) const;
  // A cleanup record in the replayed range: a committed cleanup pruned the
  // states of `input_key` up to `seq`. kInvalidRecovery when the checkpoint
  // still needs one of them (its boundary for the key is below `seq`).
  virtual Status CheckCleanupBoundary(const std::string& input_key, int64_t seq, const std::string& where) const;
  // Records an acknowledged or rebuilt state in the cache and the index.
  void Remember(const std::string& record_key, CachedState cached);
  // Drops a state a rebuild found a tombstone for.
  void Forget(const std::string& record_key, const std::string& input_key);
  // Drops the bookkeeping of an input key Prune left with no live state.
  virtual void ForgetInput(const std::string& key);
  // With evict_on_divergence: whether a lookup of `state_key` evicts first.
  // The real get(): when the state is not cached (`cached` false), or when
  // more than one cached state has its (key, seq) (checkDivergence).
  virtual bool EvictsOnLookup(const StateKey& state_key, bool cached) const;
  // checkDivergence(key, seq): more than one cached record key starts with
  // "<key>_<seq>_".
  bool HasDivergence(const StateKey& state_key) const;
  // The real get()'s removeIf: drops every cached state whose sequence
  // number is greater than `seq`, of every input key.
  void EvictLaterStates(int64_t seq);
  // Whether a cached state of any input key has a sequence number above `seq`.
  bool HasStatesAfter(int64_t seq) const;

  // The tombstones of one prune with cleanup records, and the cleanup
  // record sent ahead of them on each of their partitions.
  struct HeldTombstones {
    std::map<int32_t, ProduceTicket> cleanup_by_partition;
    std::vector<std::pair<std::string, int32_t>> tombstones;  // record key, partition
  };
  // A tombstone may only follow a cleanup record the log holds: were the
  // record refused and its tombstones compacted away, a restore of an older
  // checkpoint would find neither the states nor their boundary (finding
  // 3). So the tombstones wait for their cleanup records' acknowledgements
  // (FinishPrunes).
  virtual void HoldTombstones(HeldTombstones held) { held_tombstones_.push_back(std::move(held)); }
  // Whether a state must be replayed: its input is not finished at `completed`.
  static bool NeedsReplay(const StateKey& state_key, const CompletedBoundaries& completed);
  // The partitions' end offsets, rewound (kafka-rewind) to the oldest cached
  // record a restore must still see; the end offsets alone otherwise.
  Result<RecoveryMarker> MarkerAt(const CompletedBoundaries& completed, bool rewind);
  // The record keys of the cached states a snapshot at `completed` rewrites.
  std::vector<std::string> StatesToRewrite(const CompletedBoundaries& completed) const;
  // Takes the acknowledgement of the rewrite of `record_key` into the
  // cache; a rewrite lies at or after the marker it follows.
  Status TakeRewriteAck(const std::string& record_key, const Result<RecordPosition>& ack,
                        const RecoveryMarker& marker);

  LogClient& client_;
  StoreDesign design_ = StoreDesign::kKafkaRewind;
  bool tombstones_ = false;
  bool cleanup_records_ = false;
  bool reject_added_partitions_ = false;  // StoreOptions::reject_added_partitions
  bool evict_on_divergence_ = false;      // StoreOptions::evict_on_divergence
  LookupEvictions evictions_by_get_;
  std::map<std::string, CachedState> cache_;                  // by record key
  std::map<std::string, std::set<std::string>> record_keys_by_input_;  // input key -> record keys
  size_t records_scanned_ = 0;
  size_t snapshot_records_ = 0;
  size_t snapshot_bytes_ = 0;
  KeyOwnership owns_;  // empty: every key
  // The completed boundaries of the marker a rebuild reads from (with
  // tombstones): a tombstone past them is a cleanup the checkpoint predates.
  CompletedBoundaries rebuilding_completed_;
  std::vector<HeldTombstones> held_tombstones_;  // oldest prune first
};

}  // namespace durasim
