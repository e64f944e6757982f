// KafkaActionStateStore implementation.
#include "store/kafka_action_state_store.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "store/check.h"
#include "store/format.h"
#include "store/state_codec.h"

namespace durasim {

KafkaActionStateStore::KafkaActionStateStore(LogClient& client, const StoreOptions& options)
    : client_(client),
      design_(options.design),
      tombstones_(options.tombstones),
      cleanup_records_(options.tombstones && options.cleanup_records),
      reject_added_partitions_(options.reject_added_partitions),
      evict_on_divergence_(options.evict_on_divergence) {
  // The Kafka store's two designs; another design is another store.
  DURASIM_CHECK(design_ == StoreDesign::kKafkaRewind || design_ == StoreDesign::kKafkaRewrite);
}

boost::asio::awaitable<Status> KafkaActionStateStore::Put(const StateKey& state_key, const ActionState& state) {
  std::string record_key = EncodeRecordKey(state_key);
  const int32_t partition = PartitionOfState(record_key, state_key.key);
  const ProduceTicket ticket = client_.Produce(partition, record_key, EncodeStateValue(state_key, state));
  // Flush before awaiting: awaiting first would wait out the producer's linger.
  client_.Flush();
  Result<RecordPosition> ack = co_await client_.AwaitAck(ticket);
  // On error (including cancellation) the caches stay as they were, and the
  // caller's cancellation state is left as the cancellation set it.
  if (!ack.ok()) co_return ack.status();
  DURASIM_CHECK_EQ(ack->partition, partition);  // acknowledged where it was produced
  Remember(record_key, CachedState{state_key, state, *ack});
  co_return Status::Ok();
}

int32_t KafkaActionStateStore::PartitionOfState(const std::string& record_key, const std::string& input_key) const {
  // A state written before partitions were added stays on its partition:
  // its next record must follow the last in one partition's order (a
  // rebuild reads partition after partition, and compaction keeps the
  // latest record of a key per partition).
  auto cached = cache_.find(record_key);
  if (cached != cache_.end()) return cached->second.position.partition;
  return PartitionForKey(input_key, client_.partition_count());
}

std::optional<ActionState> KafkaActionStateStore::Get(const StateKey& state_key) {
  const std::string record_key = EncodeRecordKey(state_key);
  if (evict_on_divergence_) {
    if (EvictsOnLookup(state_key, cache_.contains(record_key))) {
      EvictLaterStates(state_key.seq);
    } else if (HasStatesAfter(state_key.seq)) {
      ++evictions_by_get_.later_states_kept;
    }
  }
  auto it = cache_.find(record_key);
  if (it == cache_.end()) return std::nullopt;
  return it->second.state;
}

bool KafkaActionStateStore::EvictsOnLookup(const StateKey& state_key, bool cached) const {
  return !cached || HasDivergence(state_key);
}

bool KafkaActionStateStore::HasDivergence(const StateKey& state_key) const {
  // k.startsWith(key + "_" + seqNum + "_"), counted over the cached keys: a
  // raw prefix, so key "a" seq 1 also counts key "a_1" (as the real one).
  const std::string prefix = state_key.key + "_" + std::to_string(state_key.seq) + "_";
  size_t count = 0;
  for (const auto& [record_key, cached] : cache_) {
    if (record_key.starts_with(prefix)) ++count;
  }
  return count > 1;
}

void KafkaActionStateStore::EvictLaterStates(int64_t seq) {
  // removeIf(stateSeqNum > seqNum), with no filter on the input key. The
  // sequence number is the decoded state key's. The real one re-parses the
  // record key, and for an input key holding '_' its parseKey throws (not
  // modelled here: docs/findings.md, finding 1).
  std::vector<std::pair<std::string, std::string>> evicted;  // record key, input key
  for (const auto& [record_key, cached] : cache_) {
    if (cached.state_key.seq > seq) evicted.emplace_back(record_key, cached.state_key.key);
  }
  for (const auto& [record_key, input_key] : evicted) Forget(record_key, input_key);
  evictions_by_get_.states_evicted += evicted.size();
  DURASIM_CHECK(!HasStatesAfter(seq));
}

bool KafkaActionStateStore::HasStatesAfter(int64_t seq) const {
  return std::any_of(cache_.begin(), cache_.end(), [seq](const auto& entry) { return entry.second.state_key.seq > seq; });
}

void KafkaActionStateStore::Remember(const std::string& record_key, CachedState cached) {
  // The cache is keyed by the record key of the state it holds (rebuild
  // accepts only canonical record keys), at a position in the topic.
  DURASIM_CHECK(IsRecordKeyOf(record_key, cached.state_key));
  DURASIM_CHECK_GE(cached.position.partition, 0);
  DURASIM_CHECK_LT(cached.position.partition, client_.partition_count());
  DURASIM_CHECK_GE(cached.position.offset, 0);
  record_keys_by_input_[cached.state_key.key].insert(record_key);
  cache_[record_key] = std::move(cached);
}

void KafkaActionStateStore::Forget(const std::string& record_key, const std::string& input_key) {
  auto cached = cache_.find(record_key);
  if (cached != cache_.end()) DURASIM_CHECK(cached->second.state_key.key == input_key);
  cache_.erase(record_key);
  auto index = record_keys_by_input_.find(input_key);
  if (index == record_keys_by_input_.end()) return;
  index->second.erase(record_key);
  if (index->second.empty()) record_keys_by_input_.erase(index);
}

void KafkaActionStateStore::ForgetRebuildState() {
  cache_.clear();
  record_keys_by_input_.clear();
  held_tombstones_.clear();  // their states are the log's again
  records_scanned_ = 0;
}

Status KafkaActionStateStore::RebuildFromList(const std::vector<RecoveryMarker>& markers) {
  if (tombstones_ && HasLegacyMarker(markers)) {
    ForgetRebuildState();
    return Status(StatusCode::kInvalidRecovery,
                  "a version-1 recovery marker holds no completed boundaries, which a store with tombstones needs to "
                  "tell a committed cleanup from a state the checkpoint still needs");
  }
  Result<RecoveryMarker> merged = MergeMarkers(markers);
  if (!merged.ok()) {
    ForgetRebuildState();
    return merged.status();
  }
  return Rebuild(*merged);
}

Status KafkaActionStateStore::Rebuild(const RecoveryMarker& marker) {
  ForgetRebuildState();
  Result<std::vector<PartitionOffsets>> offsets = client_.Offsets();
  if (!offsets.ok()) return offsets.status();
  Result<TopicIdentity> topic = client_.Topic();
  if (!topic.ok()) return topic.status();
  // The whole marker is checked before anything is read, so a rejected
  // marker leaves nothing behind.
  if (Status usable = CheckMarker(marker, *topic, *offsets, reject_added_partitions_); !usable.ok()) return usable;
  rebuilding_completed_ = marker.completed;
  const Status read = ReadFromMarker(marker, *offsets);
  if (!read.ok()) {
    // A half-read log is no recovery state: the store stays empty.
    cache_.clear();
    record_keys_by_input_.clear();
  }
  return read;
}

Status KafkaActionStateStore::ReadFromMarker(const RecoveryMarker& marker, const std::vector<PartitionOffsets>& offsets) {
  std::vector<ReadRange> reads;
  for (int32_t partition = 0; partition < static_cast<int32_t>(offsets.size()); ++partition) {
    // Rebuild checked the marker: partitions 0..n-1 of the topic, each
    // offset within its log; a partition past them was added after the
    // checkpoint and is read from where it began (CheckMarker).
    const auto marked = marker.offsets.find(partition);
    const int64_t from = marked != marker.offsets.end() ? marked->second : 0;
    // The end is captured once, so records appended during the rebuild are
    // not read.
    const PartitionOffsets range = offsets[static_cast<size_t>(partition)];
    DURASIM_CHECK(from >= range.start && from <= range.end);
    reads.push_back(ReadRange{partition, from, range.end});
  }
  client_.WillRead(reads);  // partition by partition below, but fetched together
  for (const ReadRange& read : reads) {
    const PartitionOffsets range = offsets[static_cast<size_t>(read.partition)];
    if (Status done = ReadPartition(read.partition, read.from, range); !done.ok()) return done;
  }
  return Status::Ok();
}

Status KafkaActionStateStore::ReadPartition(int32_t partition, int64_t from, const PartitionOffsets& range) {
  int64_t next = from;
  std::chrono::milliseconds stalled{0};
  while (next < range.end) {
    Result<FetchResult> fetched = client_.Fetch(partition, next, range.end);
    if (!fetched.ok()) return fetched.status();
    if (fetched->records.empty() && fetched->next_offset <= next) {
      // Nothing yet: an empty fetch is no end (the first design stopped at
      // the first empty poll). A fetch that says it waited nothing still
      // counts, so the loop is bounded.
      stalled += std::max(fetched->waited, std::chrono::milliseconds(1));
      if (stalled >= kRebuildStallMax) {
        return Status(StatusCode::kUnavailable,
                      fmt::format("rebuild made no progress for {} ms at partition {} offset {} (reading to {}): "
                                  "giving up",
                                  stalled.count(), partition, next, range.end));
      }
      continue;
    }
    stalled = std::chrono::milliseconds(0);
    for (const LogRecord& record : fetched->records) {
      // The port's contract: records of that partition in [next, end), in
      // increasing offset order (compaction may leave gaps).
      DURASIM_CHECK_EQ(record.partition, partition);
      DURASIM_CHECK_GE(record.offset, next);
      DURASIM_CHECK_LT(record.offset, range.end);
      next = record.offset + 1;
      ++records_scanned_;
      if (Status taken = TakeRecord(record); !taken.ok()) return taken;
    }
    next = std::max(next, std::min(fetched->next_offset, range.end));
  }
  return Status::Ok();
}

Status KafkaActionStateStore::TakeRecord(const LogRecord& record) {
  // Formatted only for an error or a check that may report one.
  auto where = [&record] { return fmt::format("partition {} offset {}", record.partition, record.offset); };
  if (std::optional<std::string> cleaned = ParseCleanupKey(record.key)) {
    const std::optional<int64_t> seq = ParseCleanupValue(record.value);
    if (!seq) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("{}: cleanup record of key {:?} holds no sequence number", where(), *cleaned));
    }
    return CheckCleanupBoundary(*cleaned, *seq, where());
  }
  Result<StateKey> parsed_key = ParseRecordKey(record.key);
  if (!parsed_key.ok()) {
    return Status(StatusCode::kInvalidRecovery, fmt::format("{}: {}", where(), parsed_key.status().message()));
  }
  if (record.value.empty()) {  // a tombstone: the state was pruned
    if (Status usable = CheckTombstone(*parsed_key, where()); !usable.ok()) return usable;
    if (Owns(parsed_key->key)) Forget(record.key, parsed_key->key);
    return Status::Ok();
  }
  Result<DecodedState> decoded = DecodeStateValue(record.value);
  if (!decoded.ok()) {
    return Status(StatusCode::kInvalidRecovery, fmt::format("{}: {}", where(), decoded.status().message()));
  }
  if (decoded->state_key != *parsed_key) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("{}: record key \"{}\" does not match the state key in its value", where(), record.key));
  }
  // Every record scanned is checked; only an owned key's state is kept.
  if (!Owns(parsed_key->key)) return Status::Ok();
  Remember(record.key,
           CachedState{*parsed_key, std::move(decoded->state), RecordPosition{record.partition, record.offset}});
  return Status::Ok();
}

void KafkaActionStateStore::Prune(const std::string& key, int64_t seq) {
  auto index = record_keys_by_input_.find(key);
  if (index == record_keys_by_input_.end()) return;
  std::set<std::string>& record_keys = index->second;
  std::vector<std::pair<std::string, int32_t>> dropped;  // record key, partition
  for (auto it = record_keys.begin(); it != record_keys.end();) {
    auto cached = cache_.find(*it);
    // The index names only cached states, each under its own input key.
    DURASIM_CHECK(cached != cache_.end());
    DURASIM_CHECK(cached->second.state_key.key == key);
    if (cached->second.state_key.seq <= seq) {
      if (tombstones_) dropped.emplace_back(*it, cached->second.position.partition);
      cache_.erase(cached);
      it = record_keys.erase(it);
    } else {
      ++it;
    }
  }
  if (dropped.empty()) {
    if (record_keys.empty()) ForgetInput(key);
    return;
  }
  if (!cleanup_records_) {
    // Sent without waiting, like Flink's: a lost tombstone only leaves the
    // record in the log for longer. Each goes where its state's record is,
    // so that compaction and a rebuild meet them in order.
    for (const auto& [record_key, partition] : dropped) client_.Produce(partition, record_key, "");
    client_.Flush();
  } else {
    // The cleanup record goes first (#1101 records the boundary before the
    // data goes), on every partition a tombstone goes to: the states of one
    // key may lie on two partitions after partitions were added. Its
    // tombstones are held until it is acknowledged (HoldTombstones,
    // FinishPrunes).
    int64_t highest = 0;
    for (const auto& [record_key, partition] : dropped) {
      Result<StateKey> state_key = ParseRecordKey(record_key);
      DURASIM_CHECK(state_key.ok());  // cached under canonical record keys
      highest = std::max(highest, state_key->seq);
    }
    std::set<int32_t> partitions;
    for (const auto& [record_key, partition] : dropped) partitions.insert(partition);
    HeldTombstones held;
    for (int32_t partition : partitions) {
      held.cleanup_by_partition[partition] =
          client_.Produce(partition, EncodeCleanupKey(key), fmt::format("{}", highest));
    }
    client_.Flush();
    held.tombstones = std::move(dropped);
    HoldTombstones(std::move(held));
  }
  if (record_keys.empty()) ForgetInput(key);
}

void KafkaActionStateStore::ForgetInput(const std::string& key) { record_keys_by_input_.erase(key); }

bool KafkaActionStateStore::NeedsReplay(const StateKey& state_key, const CompletedBoundaries& completed) {
  auto it = completed.find(state_key.key);
  return it == completed.end() || state_key.seq > it->second;
}

Result<RecoveryMarker> KafkaActionStateStore::GetRecoveryMarker(const CompletedBoundaries& completed) {
  return MarkerAt(completed, design_ == StoreDesign::kKafkaRewind);
}

Result<RecoveryMarker> KafkaActionStateStore::MarkerAt(const CompletedBoundaries& completed, bool rewind) {
  Result<std::vector<PartitionOffsets>> offsets = client_.Offsets();
  if (!offsets.ok()) return offsets.status();
  Result<TopicIdentity> topic = client_.Topic();
  if (!topic.ok()) return topic.status();
  RecoveryMarker marker = MarkerOf(*topic, {});
  // The boundaries go in whether or not this store emits tombstones: the
  // log may hold the tombstones of a job that did (a configuration
  // migration), and a restore of this marker must tell them apart
  // (mutant boundaries-only-with-tombstones).
  marker.completed = completed;
  for (int32_t p = 0; p < static_cast<int32_t>(offsets->size()); ++p) marker.offsets[p] = (*offsets)[p].end;
  // Rewind each partition to the oldest state a restore must still see.
  for (const auto& [record_key, cached] : cache_) {
    if (!rewind || !NeedsReplay(cached.state_key, completed)) continue;
    auto offset = marker.offsets.find(cached.position.partition);
    DURASIM_CHECK(offset != marker.offsets.end());  // cached positions lie in the topic's partitions
    offset->second = std::min(offset->second, cached.position.offset);
  }
  // One offset per partition of the topic: rewinding adds none.
  DURASIM_CHECK_EQ(marker.offsets.size(), offsets->size());
  return marker;
}

std::vector<std::string> KafkaActionStateStore::StatesToRewrite(const CompletedBoundaries& completed) const {
  std::vector<std::string> record_keys;
  for (const auto& [record_key, cached] : cache_) {
    if (NeedsReplay(cached.state_key, completed)) record_keys.push_back(record_key);
  }
  return record_keys;
}

boost::asio::awaitable<void> KafkaActionStateStore::FinishPrunes() {
  std::vector<HeldTombstones> held = std::exchange(held_tombstones_, {});
  bool sent = false;
  for (const HeldTombstones& prune : held) {
    std::set<int32_t> acknowledged;
    for (const auto& [partition, ticket] : prune.cleanup_by_partition) {
      const Result<RecordPosition> ack = co_await client_.AwaitAck(ticket);
      if (ack.ok()) acknowledged.insert(partition);
    }
    for (const auto& [record_key, partition] : prune.tombstones) {
      if (!acknowledged.contains(partition)) continue;
      client_.Produce(partition, record_key, "");
      sent = true;
    }
  }
  if (sent) client_.Flush();
}

boost::asio::awaitable<Status> KafkaActionStateStore::CompleteSnapshot(const CompletedBoundaries& completed,
                                                                       const RecoveryMarker& marker) {
  if (design_ != StoreDesign::kKafkaRewrite) co_return Status::Ok();
  std::vector<std::pair<std::string, ProduceTicket>> sent;
  for (const std::string& record_key : StatesToRewrite(completed)) {
    const CachedState& cached = cache_.at(record_key);
    std::string value = EncodeStateValue(cached.state_key, cached.state);
    ++snapshot_records_;
    snapshot_bytes_ += record_key.size() + value.size();
    // On its record's partition: the rewrite must follow it there.
    sent.emplace_back(record_key, client_.Produce(cached.position.partition, record_key, std::move(value)));
  }
  if (sent.empty()) co_return Status::Ok();
  client_.Flush();
  // Every acknowledgement is awaited, a failed one too, so that none is
  // left pending; the first failure declines the snapshot.
  Status first_failure = Status::Ok();
  for (const auto& [record_key, ticket] : sent) {
    const Result<RecordPosition> ack = co_await client_.AwaitAck(ticket);
    const Status taken = TakeRewriteAck(record_key, ack, marker);
    if (first_failure.ok() && !taken.ok()) first_failure = taken;
  }
  co_return first_failure;
}

Status KafkaActionStateStore::TakeRewriteAck(const std::string& record_key, const Result<RecordPosition>& ack,
                                             const RecoveryMarker& marker) {
  if (!ack.ok()) {
    return Status(ack.status().code(),
                  fmt::format("the rewrite of state \"{}\" at snapshot was not acknowledged: {}", record_key,
                              ack.status().message()));
  }
  // The driver holds the mailbox while a snapshot completes: no put or
  // prune ran since the rewrite was sent, so its state is still cached.
  auto cached = cache_.find(record_key);
  DURASIM_CHECK(cached != cache_.end());
  DURASIM_CHECK_EQ(ack->partition, cached->second.position.partition);
  // The design's promise: each rewrite lies at or after the marker, where
  // a restore of this checkpoint starts reading.
  const auto from = marker.offsets.find(ack->partition);
  DURASIM_CHECK(from != marker.offsets.end());
  DURASIM_CHECK_GE(ack->offset, from->second);
  cached->second.position = *ack;
  return Status::Ok();
}

Status KafkaActionStateStore::CheckTombstone(const StateKey& state_key, const std::string& where) const {
  if (!NeedsReplay(state_key, rebuilding_completed_)) return Status::Ok();
  auto finished = rebuilding_completed_.find(state_key.key);
  return Status(StatusCode::kInvalidRecovery,
                fmt::format("{}: a tombstone removes the state of key {:?} sequence number {}, which this checkpoint "
                            "still needs (finished there: up to {}): the checkpoint is older than a committed cleanup",
                            where, state_key.key, state_key.seq,
                            finished == rebuilding_completed_.end() ? 0 : finished->second));
}

Status KafkaActionStateStore::CheckCleanupBoundary(const std::string& input_key, int64_t seq,
                                                   const std::string& where) const {
  auto finished = rebuilding_completed_.find(input_key);
  const int64_t finished_seq = finished == rebuilding_completed_.end() ? 0 : finished->second;
  if (seq <= finished_seq) return Status::Ok();
  return Status(StatusCode::kInvalidRecovery,
                fmt::format("{}: a committed cleanup removed the states of key {:?} up to sequence number {}, which "
                            "this checkpoint still needs (finished there: up to {}): the checkpoint is older than a "
                            "committed cleanup",
                            where, input_key, seq, finished_seq));
}

std::vector<std::string> KafkaActionStateStore::CachedInputKeys() const {
  std::vector<std::string> keys;
  for (const auto& [key, record_keys] : record_keys_by_input_) keys.push_back(key);
  return keys;
}

std::vector<std::pair<StateKey, ActionState>> KafkaActionStateStore::CachedStates() const {
  std::vector<std::pair<StateKey, ActionState>> states;
  for (const auto& [record_key, cached] : cache_) states.emplace_back(cached.state_key, cached.state);
  std::sort(states.begin(), states.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return states;
}

StoreStats KafkaActionStateStore::Stats() const {
  return StoreStats{cache_.size(), record_keys_by_input_.size(), records_scanned_, snapshot_records_, snapshot_bytes_};
}

}  // namespace durasim
