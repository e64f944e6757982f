// FlussActionStateStore implementation.
#include "store/fluss_action_state_store.h"

#include <fmt/ranges.h>

#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// The Kafka store's mode this store builds on: the rewind, without
// tombstones or cleanup records (a log table is append-only), with the
// options' get(): 0.3.0's FlussActionStateStore.get evicts as the Kafka one.
StoreOptions BaseOptions(const StoreOptions& options) {
  StoreOptions base{StoreDesign::kKafkaRewind, false, false};
  base.evict_on_divergence = options.evict_on_divergence;
  return base;
}

std::vector<int32_t> BucketsOf(const FlussMarker& marker) {
  std::vector<int32_t> buckets;
  for (const auto& [bucket, offset] : marker.bucket_offsets) buckets.push_back(bucket);
  return buckets;
}

}  // namespace

FlussActionStateStore::FlussActionStateStore(LogClient& client, const StoreOptions& options)
    : KafkaActionStateStore(client, BaseOptions(options)) {
  // Prune never writes, and the marker never carries boundaries.
  DURASIM_CHECK(!tombstones_ && !cleanup_records_);
}

Result<RecoveryMarker> FlussActionStateStore::GetRecoveryMarker(const CompletedBoundaries& completed) {
  Result<RecoveryMarker> marker = MarkerAt(completed, RewindsMarker());
  if (!marker.ok()) return marker.status();
  // Only what a Fluss marker holds: every bucket's offset.
  const FlussMarker fluss{marker->offsets};
  DURASIM_CHECK(ListsEveryBucket(fluss));
  return RecoveryMarkerOf(fluss);
}

void FlussActionStateStore::ClearCache() {
  cache_.clear();
  record_keys_by_input_.clear();
}

Status FlussActionStateStore::Rebuild(const RecoveryMarker& marker) {
  // First, as 0.3.0 does: whatever follows, the old cache is gone.
  ClearCacheBeforeRebuild();
  records_scanned_ = 0;
  Result<FlussMarker> fluss = FlussMarkerOf(marker);
  if (!fluss.ok()) return fluss.status();
  // Captured once: records appended while the rebuild reads are not read.
  Result<std::vector<PartitionOffsets>> buckets = client_.Offsets();
  if (!buckets.ok()) return buckets.status();
  // Every bucket is checked before any is read, so a rejected marker reads
  // nothing.
  Result<std::vector<int64_t>> starts = ReadStarts(*fluss, *buckets);
  if (!starts.ok()) return starts.status();
  DURASIM_CHECK_EQ(starts->size(), buckets->size());
  std::vector<ReadRange> reads;
  for (int32_t bucket = 0; bucket < static_cast<int32_t>(buckets->size()); ++bucket) {
    const auto b = static_cast<size_t>(bucket);
    reads.push_back(ReadRange{bucket, (*starts)[b], (*buckets)[b].end});
  }
  client_.WillRead(reads);  // bucket by bucket below, but fetched together
  for (int32_t bucket = 0; bucket < static_cast<int32_t>(buckets->size()); ++bucket) {
    const PartitionOffsets range = (*buckets)[static_cast<size_t>(bucket)];
    const int64_t from = (*starts)[static_cast<size_t>(bucket)];
    DURASIM_CHECK(from >= range.start && from <= range.end);  // ReadStarts checked it
    if (Status read = ReadPartition(bucket, from, range); !read.ok()) {
      // A half-read table is no recovery state: the store stays empty.
      ClearCache();
      return read;
    }
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> FlussActionStateStore::ReadStarts(const FlussMarker& marker,
                                                               const std::vector<PartitionOffsets>& buckets) const {
  const auto bucket_count = static_cast<int32_t>(buckets.size());
  for (const auto& [bucket, offset] : marker.bucket_offsets) {
    if (bucket < 0 || bucket >= bucket_count) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("bucket-set mismatch: the recovery marker lists bucket {} (offset {}; marker buckets "
                                "{}), and the table has buckets 0..{}: the table was re-created or its bucket count "
                                "changed; a fresh start is required",
                                bucket, offset, BucketsOf(marker), bucket_count - 1));
    }
  }
  std::vector<int64_t> starts;
  for (int32_t bucket = 0; bucket < bucket_count; ++bucket) {
    const PartitionOffsets range = buckets[static_cast<size_t>(bucket)];
    auto marked = marker.bucket_offsets.find(bucket);
    const Result<int64_t> from = marked != marker.bucket_offsets.end()
                                     ? Result<int64_t>(marked->second)
                                     : OffsetOfUnmarkedBucket(bucket, marker, bucket_count);
    if (!from.ok()) return from.status();
    if (*from < range.start) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("data loss: bucket {}: the recovery marker's offset {} is below the bucket's earliest "
                                "offset {} (end {}): records the restore needs were deleted; increase the log "
                                "retention",
                                bucket, *from, range.start, range.end));
    }
    if (*from > range.end) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("data loss: bucket {}: the recovery marker's offset {} is past the bucket's end offset "
                                "{} (earliest {}): the table was re-created or truncated",
                                bucket, *from, range.end, range.start));
    }
    starts.push_back(*from);
  }
  return starts;
}

Result<int64_t> FlussActionStateStore::OffsetOfUnmarkedBucket(int32_t bucket, const FlussMarker& marker,
                                                              int32_t bucket_count) const {
  return Status(StatusCode::kInvalidRecovery,
                fmt::format("bucket-set mismatch: the recovery marker lists no offset for bucket {} (marker buckets "
                            "{}), and the table has buckets 0..{}: the table was re-created or its bucket count "
                            "changed; a fresh start is required",
                            bucket, BucketsOf(marker), bucket_count - 1));
}

void FlussActionStateStore::Prune(const std::string& key, int64_t seq) {
  // The record key puts the input key first, then '_': every state of `key`
  // lies in this range of the cache's order, and so may another key's.
  const std::string prefix = key + "_";
  std::vector<std::pair<std::string, std::string>> dropped;  // record key, its input key
  for (auto it = cache_.lower_bound(prefix); it != cache_.end() && it->first.starts_with(prefix); ++it) {
    const StateKey& cached = it->second.state_key;
    if (cached.seq <= seq && PruneMatches(key, cached)) dropped.emplace_back(it->first, cached.key);
  }
  for (const auto& [record_key, input_key] : dropped) Forget(record_key, input_key);
  // What is left of `key` lies past `seq`.
  if (auto index = record_keys_by_input_.find(key); index != record_keys_by_input_.end()) {
    for (const std::string& record_key : index->second) DURASIM_CHECK_GT(cache_.at(record_key).state_key.seq, seq);
  }
}

Status FlussActionStateStore::CheckTombstone(const StateKey& state_key, const std::string& where) const {
  return Status(StatusCode::kInvalidRecovery,
                fmt::format("{}: the record of key {:?} sequence number {} has an empty value: a Fluss log table is "
                            "append-only and holds no tombstones, so it is no state this store wrote",
                            where, state_key.key, state_key.seq));
}

Status FlussActionStateStore::CheckCleanupBoundary(const std::string& input_key, int64_t /*seq*/,
                                                   const std::string& where) const {
  return Status(StatusCode::kInvalidRecovery,
                fmt::format("{}: a cleanup record of key {:?}: a Fluss log table holds no cleanup records, so it is "
                            "no record this store wrote",
                            where, input_key));
}

}  // namespace durasim
