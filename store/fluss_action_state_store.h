// FlussActionStateStore: the `fluss` store design. Action states go to a
// Fluss log table, following Flink Agents 0.3.0's FlussActionStateStore,
// and the recovery marker is made correct.
//
// Sources: apache/flink-agents tag release-0.3.0, FlussActionStateStore.java,
// and the apache/fluss #3838 thread; docs/store-designs.md ("fluss") cites
// them. Each point below is marked READ (read in that code or thread) or
// INFERRED (reasoned, with no source).
//
// Modelled: the Fluss log table over the LogClient port, the same port the
// Kafka store uses.
// - A bucket is a partition of the port. Its [earliest, latest) offsets are
//   the partition's [start, end).
// - The table has no primary key and is distributed by agent_key (READ).
//   The bucket of a state is PartitionForKey(input key, bucket count); the
//   hash Fluss itself uses is not modelled.
// - The state_key and state_payload columns are the record key and value of
//   the record codec (store/state_codec.h).
// Not modelled: the Fluss server (tablet servers, coordinator,
// replication), its client (writer batching, the LogScanner's
// subscribe/poll, listOffsets as an RPC), KV (primary-key) tables, remote
// log tiering, and the table's database and path.
//
// Taken from 0.3.0 (READ):
// - `put` waits for the append (`writer.append(row).get()`) and caches the
//   state only after it.
// - The rebuild clears the cache first and captures each bucket's earliest
//   and latest offsets at the start. It fails on a bucket-set mismatch and
//   on data loss: a marker offset below a bucket's earliest offset, or past
//   its end. It reads each bucket from the marker's offset to the captured
//   end. Merging a union list's markers by per-bucket minimum is done by
//   the runtime (MinimumMarker), not here.
// - The table is append-only: no tombstones and no cleanup records. Log
//   retention does the physical cleanup. A record with an empty value, or
//   a cleanup record, is one this store never writes, so a rebuild rejects
//   it (kInvalidRecovery).
// - Prune is cache-only and scoped by the prefix `key + "_"`.
//
// Changed from 0.3.0 on purpose:
// - The marker. 0.3.0's getRecoveryMarker returns the bucket end offsets at
//   snapshot time (READ). That is the #1158 shape: a state written before
//   the checkpoint for an action still unfinished at it lies below the
//   marker and is lost. Here each bucket's end offset is rewound to the
//   oldest cached record of an unfinished action, as kafka-rewind does
//   (KafkaActionStateStore::MarkerAt). RewindsMarker() is the seam for a
//   mutant: on fluss, the legacy end-offset marker IS the shipped 0.3.0
//   behaviour.
// - Prune. 0.3.0 parses each prefixed entry with ActionStateUtil.parseKey,
//   which requires exactly four '_'-separated fields. An entry that does
//   not parse, such as any state of an input key containing '_', is logged
//   and left in the cache (READ): such keys are never evicted. Our codec
//   parses from the right, so an input key may contain '_'. A raw prefix
//   match would then make Prune("a", n) drop the states of "a_b" too
//   (INFERRED; the brief calls this the #885 hazard, whereas the notes file
//   #885 under tombstones breaking the replay of older checkpoints). Here
//   the parsed input key must equal `key`. PruneMatches() is the seam.
// - Ownership. SetOwnership filters the rebuild as in the Kafka store. The
//   0.3.0 release has no filter; the head of PR #1024 adds one to the Fluss
//   rebuild (READ).
// - The end of a rebuild. A bucket is read up to its captured end, counted
//   by the offsets each fetch covers. The stall bound is the Kafka store's
//   (kRebuildStallMax, 30 s). 0.3.0 counts a bucket done when it has seen a
//   record at or after end-1, within a 5-minute overall timeout (READ). An
//   empty or filtered batch would leave it waiting (INFERRED risk; compare
//   apache/fluss #3909/#3910).
// - An empty marker is a bucket-set mismatch. In 0.3.0, an empty merged
//   marker returns with the cache cleared (READ).
//
// Hazards left as seams for mutants (see properties/mutants/fluss_*):
// - OffsetOfUnmarkedBucket(): apache/fluss #3838 (READ). Its undo
//   recovery treated a bucket missing from the checkpoint as offset 0. The
//   bug is in Fluss, not in Flink Agents, whose marker lists every bucket
//   and whose rebuild fails on a bucket-set mismatch (READ). Production
//   fails. Mutant fluss-missing-bucket-as-zero.
// - ClearCacheBeforeRebuild(): 0.3.0 clears the cache before a rebuild;
//   the Kafka store does not (READ). A rebuild that keeps the old cache
//   serves states the marker does not vouch for. No mutant: every restore
//   builds a new store, so no rebuild meets a non-empty cache (the store
//   test shows the seam; docs/store-designs.md "fluss").
//
// Not detected (INFERRED): a table dropped and created again with as many
// buckets and refilled past the marker. The marker carries no table
// identity (fluss_marker.h), and 0.3.0 has no table id either (READ).
// Fluss's own fix for #3838 (PR #3839) keeps the table identity in its V2
// state (READ).
// Buckets added after a checkpoint also fail the rebuild (a bucket-set
// mismatch, as in 0.3.0), where the Kafka store reads them from offset 0.
//
// Reuse: the store is KafkaActionStateStore in its kafka-rewind mode
// without tombstones. From it come put, get, the cache and its index, the
// fetch loop with its stall bound (ReadPartition), the record check
// (TakeRecord), the marker's rewind (MarkerAt), Stats and CachedInputKeys.
// This class adds the Fluss marker, the rebuild, prune, and the seams. An
// error about a record names its bucket as "partition N offset M", the
// port's word, as the base's record check writes it.
//
// Thread-safety: none; used from one coroutine strand.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/fluss_marker.h"
#include "store/kafka_action_state_store.h"
#include "store/log_client.h"
#include "store/store_design.h"

namespace durasim {

class FlussActionStateStore : public KafkaActionStateStore {
 public:
  // REQUIRES: `client` outlives the store. Its partitions are the table's
  // buckets. `options` is taken so that the store is built as every store
  // is (StoreOf<T>, model/parts.h); a log table has no tombstones, so
  // `options.tombstones` and `options.cleanup_records` are not used.
  explicit FlussActionStateStore(LogClient& client, const StoreOptions& options = StoreOptions{});

  // Clears the cache. Then it reads every bucket from the marker's offset to
  // the end captured at the start, and keeps the owned states. Errors are
  // kInvalidRecovery naming the bucket and its offsets: the marker is not a
  // Fluss marker, its bucket set is not the table's, records it needs were
  // deleted (data loss), its offset is past the bucket's end, or a record
  // does not decode. kUnavailable comes from the log. A failed rebuild
  // leaves the cache empty.
  Status Rebuild(const RecoveryMarker& marker) override;
  // Drops the cached states of `key` with sequence numbers <= `seq`, looking
  // among the record keys that start with `key + "_"`. Writes nothing: a
  // log table has no tombstones.
  void Prune(const std::string& key, int64_t seq) override;
  // Every bucket's end offset, rewound (RewindsMarker) to the oldest cached
  // record of an action unfinished at `completed`. It is a Fluss marker
  // (RecoveryMarkerOf): no table identity, no boundaries.
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;
  // Writes nothing at a snapshot.
  boost::asio::awaitable<Status> CompleteSnapshot(const CompletedBoundaries& /*completed*/,
                                                  const RecoveryMarker& /*marker*/) override {
    co_return Status::Ok();
  }

 protected:
  // Seams for mutants. Production behaviour is documented on each.

  // Whether the marker is rewound to unfinished actions' records. Production:
  // true. False is 0.3.0's marker, the bucket end offsets (#1158).
  virtual bool RewindsMarker() const { return true; }
  // The offset to read a table bucket from when the marker does not list
  // it. Production: kInvalidRecovery (a bucket-set mismatch). #3838 read it
  // from offset 0.
  virtual Result<int64_t> OffsetOfUnmarkedBucket(int32_t bucket, const FlussMarker& marker,
                                                 int32_t bucket_count) const;
  // Empties the cache before a rebuild reads anything. Production: clears it
  // (ClearCache).
  virtual void ClearCacheBeforeRebuild() { ClearCache(); }
  // Whether Prune(key, ...) drops `cached`, a state whose record key starts
  // with `key + "_"`. Production: its parsed input key is `key`. True
  // always is the raw prefix match.
  virtual bool PruneMatches(const std::string& key, const StateKey& cached) const { return cached.key == key; }

  // Drops every cached state and its bookkeeping.
  void ClearCache();
  // Where each bucket's read starts: the marker's offset, checked against
  // the bucket's captured [earliest, end]. kInvalidRecovery on a bucket-set
  // mismatch or data loss.
  Result<std::vector<int64_t>> ReadStarts(const FlussMarker& marker,
                                          const std::vector<PartitionOffsets>& buckets) const;

  // A log table holds no tombstones and no cleanup records: reading one is
  // reading a record this store never writes.
  Status CheckTombstone(const StateKey& state_key, const std::string& where) const override;
  Status CheckCleanupBoundary(const std::string& input_key, int64_t seq, const std::string& where) const override;
};

}  // namespace durasim
