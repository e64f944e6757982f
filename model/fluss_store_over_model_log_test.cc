// Unit tests for FlussActionStateStore over the in-memory log model: the
// model's topic stands for the Fluss log table and its partitions for the
// buckets (store/fluss_action_state_store.h). Every test runs in simulated
// time. The seams the mutants take are tested through local subclasses that
// override them as properties/mutants/fluss_*.h do; this floor cannot
// include those.
#include "store/fluss_action_state_store.h"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "model/kafka_log.h"
#include "model/memory_log_client.h"
#include "model/scheduler.h"
#include "store/forwarding_log_client.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

constexpr SimTime kIdleBy = std::chrono::seconds(60);  // every put here ends long before

StateKey At(const std::string& key, int64_t seq) { return StateKey{key, seq, 0xe1, 0xa1}; }

// A state told apart by `tag`.
ActionState Tagged(int64_t tag) {
  ActionState state;
  state.call_results.push_back(CallResult{"fn", 0xabc, CallStatus::kSucceeded, tag, ""});
  return state;
}

LogConfig TableConfig(int32_t buckets, int64_t ack_latency_ms = 1) {
  LogConfig config;
  config.partitions = buckets;
  config.ack_latency_ms = ack_latency_ms;
  return config;
}

asio::awaitable<void> PutInto(ActionStateStore& store, StateKey state_key, ActionState state,
                              std::optional<Status>& status) {
  status = co_await store.Put(state_key, state);
}

// One incarnation of a subtask over a shared table (a crash destroys it; the
// table survives). `Store`: the production store or a seam's variant.
template <typename Store = FlussActionStateStore>
struct Incarnation {
  Incarnation(SimClock& clock, KafkaLog& table, int64_t ack_latency_ms = 1)
      : scheduler(clock), client(scheduler, table, TableConfig(table.partitions(), ack_latency_ms)), store(client) {}

  // Starts a put; the scheduler is not run.
  void StartPut(const StateKey& state_key, const ActionState& state, std::optional<Status>& status) {
    asio::co_spawn(scheduler.executor(), PutInto(store, state_key, state, status), [](std::exception_ptr error) {
      if (error) std::rethrow_exception(error);
    });
  }
  // Runs one put to its end.
  Status Put(const StateKey& state_key, const ActionState& state) {
    std::optional<Status> status;
    StartPut(state_key, state, status);
    EXPECT_EQ(scheduler.Run(scheduler.now() + kIdleBy), Scheduler::RunEnd::kIdle);
    return status.value_or(Status(StatusCode::kInternal, "the put did not end"));
  }
  RecoveryMarker Marker(const CompletedBoundaries& completed) {
    Result<RecoveryMarker> marker = store.GetRecoveryMarker(completed);
    EXPECT_TRUE(marker.ok()) << marker.status().ToString();
    return marker.ok() ? *marker : RecoveryMarker{};
  }

  Scheduler scheduler;
  MemoryLogClient client;
  Store store;
};

RecoveryMarker Buckets(MarkerOffsets offsets) { return RecoveryMarkerOf(FlussMarker{std::move(offsets)}); }

::testing::AssertionResult Names(const Status& status, const std::string& part) {
  if (status.code() != StatusCode::kInvalidRecovery) return ::testing::AssertionFailure() << status.ToString();
  if (status.message().find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << status.message() << "\" does not name \"" << part << "\"";
}

// The seams, overridden as the mutants override them.
class EndOffsetMarkerStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;

 protected:
  bool RewindsMarker() const override { return false; }  // Flink Agents 0.3.0's marker
};

class MissingBucketAsZeroStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;

 protected:
  Result<int64_t> OffsetOfUnmarkedBucket(int32_t, const FlussMarker&, int32_t) const override { return int64_t{0}; }
};

class CacheNotClearedStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;

 protected:
  void ClearCacheBeforeRebuild() override {}
};

class RawPrefixPruneStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;

 protected:
  bool PruneMatches(const std::string&, const StateKey&) const override { return true; }
};

class FlussStoreTest : public ::testing::Test {
 protected:
  SimClock clock_;
};

// --- Put --------------------------------------------------------------------

TEST_F(FlussStoreTest, PutCachesOnlyAfterTheAppendIsAcknowledged) {
  // Strategy: an acknowledgement 3 ms after the send. While it is in flight
  // the record may be in the table, but Get finds nothing; once the put
  // has returned Ok, Get finds the state.
  KafkaLog table(1);
  Incarnation<> subtask(clock_, table, /*ack_latency_ms=*/3);
  std::optional<Status> status;
  subtask.StartPut(At("a", 1), Tagged(7), status);
  EXPECT_EQ(subtask.scheduler.Run(clock_.now + std::chrono::milliseconds(2)), Scheduler::RunEnd::kDeadline);
  EXPECT_FALSE(status.has_value());
  EXPECT_FALSE(subtask.store.Get(At("a", 1)).has_value());
  EXPECT_EQ(subtask.store.Stats().cached_states, 0u);

  EXPECT_EQ(subtask.scheduler.Run(clock_.now + kIdleBy), Scheduler::RunEnd::kIdle);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->ok()) << status->ToString();
  EXPECT_EQ(subtask.store.Get(At("a", 1)), Tagged(7));
  EXPECT_EQ(subtask.store.CachedInputKeys(), std::vector<std::string>{"a"});
}

TEST_F(FlussStoreTest, PutAppendsTheCodecsRecordToTheInputKeysBucket) {
  // Strategy: the record lands in bucket PartitionForKey(input key, 4)
  // (0.3.0 distributes by agent_key), keyed and valued by the record codec.
  KafkaLog table(4);
  Incarnation<> subtask(clock_, table);
  ASSERT_TRUE(subtask.Put(At("a_b", 2), Tagged(5)).ok());
  const int32_t bucket = PartitionForKey("a_b", 4);
  ASSERT_EQ(table.total_records(), 1u);
  const LogRecord* record = table.Find(bucket, 0);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->key, EncodeRecordKey(At("a_b", 2)));
  EXPECT_EQ(record->value, EncodeStateValue(At("a_b", 2), Tagged(5)));
}

// --- Marker -----------------------------------------------------------------

TEST_F(FlussStoreTest, MarkerListsEveryBucketRewoundToItsOldestUnfinishedRecord) {
  // Strategy: two buckets, "a" and "b" on different ones. a/1 (unfinished)
  // at offset 0 of its bucket, then a/2 and b/1 (finished). The marker
  // names no table and lists both buckets: a's bucket at 0, b's at its end.
  // It survives the codec.
  KafkaLog table(2);
  const int32_t a = PartitionForKey("a", 2);
  const int32_t b = PartitionForKey("b", 2);
  ASSERT_NE(a, b) << "the test needs a and b in different buckets";
  Incarnation<> subtask(clock_, table);
  ASSERT_TRUE(subtask.Put(At("a", 1), Tagged(1)).ok());
  ASSERT_TRUE(subtask.Put(At("a", 2), Tagged(2)).ok());
  ASSERT_TRUE(subtask.Put(At("b", 1), Tagged(3)).ok());

  const RecoveryMarker marker = subtask.Marker({{"a", 0}, {"b", 1}});
  EXPECT_EQ(marker, Buckets({{a, 0}, {b, 1}}));
  EXPECT_EQ(marker.topic, TopicIdentity{});
  EXPECT_EQ(subtask.Marker({{"a", 1}, {"b", 1}}), Buckets({{a, 1}, {b, 1}}));
  EXPECT_EQ(subtask.Marker({{"a", 2}, {"b", 1}}), Buckets({{a, 2}, {b, 1}}));

  Result<FlussMarker> fluss = FlussMarkerOf(marker);
  ASSERT_TRUE(fluss.ok()) << fluss.status().ToString();
  Result<FlussMarker> decoded = DecodeFlussMarker(EncodeFlussMarker(*fluss));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(RecoveryMarkerOf(*decoded), marker);
}

TEST_F(FlussStoreTest, TheShippedEndOffsetMarkerLosesAnUnfinishedActionsState) {
  // Strategy: the #1158 shape. a/1 is unfinished, b/1 finished after it. The
  // production marker finds a/1 on restore; the seam taking 0.3.0's marker
  // (the bucket end offsets) does not.
  KafkaLog table(1);
  RecoveryMarker rewound;
  RecoveryMarker shipped;
  {
    Incarnation<EndOffsetMarkerStore> legacy(clock_, table);
    ASSERT_TRUE(legacy.Put(At("a", 1), Tagged(42)).ok());
    ASSERT_TRUE(legacy.Put(At("b", 1), Tagged(1)).ok());
    shipped = legacy.Marker({{"b", 1}});
    Incarnation<> production(clock_, table);
    ASSERT_TRUE(production.store.Rebuild(Buckets({{0, 0}})).ok());
    rewound = production.Marker({{"b", 1}});
  }
  EXPECT_EQ(shipped, Buckets({{0, 2}}));
  EXPECT_EQ(rewound, Buckets({{0, 0}}));
  Incarnation<> restored(clock_, table);
  ASSERT_TRUE(restored.store.Rebuild(shipped).ok());
  EXPECT_FALSE(restored.store.Get(At("a", 1)).has_value());
  ASSERT_TRUE(restored.store.Rebuild(rewound).ok());
  EXPECT_EQ(restored.store.Get(At("a", 1)), Tagged(42));
}

// --- Rebuild ----------------------------------------------------------------

// Appends a record to the table at the first fetch: a writer racing the
// rebuild.
class AppendingAtFirstFetch : public ForwardingLogClient {
 public:
  AppendingAtFirstFetch(LogClient& inner, KafkaLog& table, LogRecord record)
      : ForwardingLogClient(inner), table_(table), record_(std::move(record)) {}
  Result<FetchResult> Fetch(int32_t partition, int64_t from, int64_t to) override {
    if (!appended_) table_.Append(record_.partition, record_.key, record_.value);
    appended_ = true;
    return ForwardingLogClient::Fetch(partition, from, to);
  }

 private:
  KafkaLog& table_;
  LogRecord record_;
  bool appended_ = false;
};

TEST_F(FlussStoreTest, RebuildReadsFromTheMarkerToTheEndCapturedAtTheStart) {
  // Strategy: a/1 at offset 0, a/2 at 1 and b/1 at 2 of one bucket; a
  // rebuild from offset 1 keeps a/2 and b/1, not a/1. The first fetch
  // appends c/1: it lies past the captured end, so it is not read.
  KafkaLog table(1);
  Incarnation<> writer(clock_, table);
  ASSERT_TRUE(writer.Put(At("a", 1), Tagged(1)).ok());
  ASSERT_TRUE(writer.Put(At("a", 2), Tagged(2)).ok());
  ASSERT_TRUE(writer.Put(At("b", 1), Tagged(3)).ok());

  Scheduler scheduler(clock_);
  MemoryLogClient inner(scheduler, table, TableConfig(1));
  AppendingAtFirstFetch client(inner, table, LogRecord{0, 0, EncodeRecordKey(At("c", 1)),
                                                       EncodeStateValue(At("c", 1), Tagged(4))});
  FlussActionStateStore store(client);
  const Status rebuilt = store.Rebuild(Buckets({{0, 1}}));
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.ToString();
  EXPECT_EQ(table.Offsets(0).end, 4);
  EXPECT_FALSE(store.Get(At("a", 1)).has_value());
  EXPECT_EQ(store.Get(At("a", 2)), Tagged(2));
  EXPECT_EQ(store.Get(At("b", 1)), Tagged(3));
  EXPECT_FALSE(store.Get(At("c", 1)).has_value());
  EXPECT_EQ(store.Stats().records_scanned, 2u);
  EXPECT_EQ(store.CachedInputKeys(), (std::vector<std::string>{"a", "b"}));
}

class FlussRebuildTest : public FlussStoreTest {
 protected:
  // Two buckets; a/1 and b/1 in different ones.
  void SetUp() override {
    ASSERT_NE(a_, b_) << "the tests need a and b in different buckets";
    Incarnation<> writer(clock_, table_);
    ASSERT_TRUE(writer.Put(At("a", 1), Tagged(1)).ok());
    ASSERT_TRUE(writer.Put(At("b", 1), Tagged(2)).ok());
  }
  KafkaLog table_{2};
  const int32_t a_ = PartitionForKey("a", 2);
  const int32_t b_ = PartitionForKey("b", 2);
};

TEST_F(FlussRebuildTest, ABucketSetMismatchIsRejectedNamingTheBucket) {
  // Strategy: a marker with a bucket the table lacks, one missing a bucket
  // of the table, and an empty one are each rejected before anything is
  // read. The full set is the control.
  Incarnation<> restored(clock_, table_);
  const Status extra = restored.store.Rebuild(Buckets({{0, 0}, {1, 0}, {2, 0}}));
  EXPECT_TRUE(Names(extra, "bucket-set mismatch: the recovery marker lists bucket 2 (offset 0; marker buckets "
                           "[0, 1, 2]), and the table has buckets 0..1"));
  const Status missing = restored.store.Rebuild(Buckets({{a_, 0}}));
  EXPECT_TRUE(Names(missing, "the recovery marker lists no offset for bucket " + std::to_string(b_)));
  EXPECT_EQ(restored.store.Stats().records_scanned, 0u);
  EXPECT_TRUE(Names(restored.store.Rebuild(Buckets({})), "lists no offset for bucket 0 (marker buckets [])"));
  const Status full = restored.store.Rebuild(Buckets({{0, 0}, {1, 0}}));
  EXPECT_TRUE(full.ok()) << full.ToString();
  EXPECT_EQ(restored.store.Stats().cached_states, 2u);
}

TEST_F(FlussRebuildTest, TheMissingBucketAsZeroSeamReadsTheBucketFromOffsetZero) {
  // Strategy: apache/fluss #3838. The marker lists a's bucket only, at its
  // end. The seam reads b's bucket from offset 0 and finds b/1; a bucket
  // whose records below its end were deleted is still data loss.
  Incarnation<MissingBucketAsZeroStore> restored(clock_, table_);
  const Status rebuilt = restored.store.Rebuild(Buckets({{a_, 1}}));
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.ToString();
  EXPECT_EQ(restored.store.Get(At("b", 1)), Tagged(2));
  EXPECT_FALSE(restored.store.Get(At("a", 1)).has_value());
  EXPECT_EQ(restored.store.Stats().records_scanned, 1u);

  table_.DeleteRecords(b_, 1);
  EXPECT_TRUE(Names(restored.store.Rebuild(Buckets({{a_, 1}})), "data loss: bucket " + std::to_string(b_)));
}

TEST_F(FlussRebuildTest, DataLossIsRejectedNamingTheBucketAndOffsets) {
  // Strategy: b's record is deleted (earliest offset 1). A marker at 0 there
  // needs it: data loss, naming bucket and offsets. A marker past a bucket's
  // end is rejected too. At the earliest offset, the rebuild is accepted.
  table_.DeleteRecords(b_, 1);
  Incarnation<> restored(clock_, table_);
  MarkerOffsets offsets{{a_, 0}, {b_, 0}};
  EXPECT_TRUE(Names(restored.store.Rebuild(Buckets(offsets)),
                    "data loss: bucket " + std::to_string(b_) +
                        ": the recovery marker's offset 0 is below the bucket's earliest offset 1 (end 1)"));
  offsets[a_] = 2;
  offsets[b_] = 1;
  EXPECT_TRUE(Names(restored.store.Rebuild(Buckets(offsets)),
                    "bucket " + std::to_string(a_) +
                        ": the recovery marker's offset 2 is past the bucket's end offset 1"));
  offsets[a_] = 0;
  const Status kept = restored.store.Rebuild(Buckets(offsets));
  ASSERT_TRUE(kept.ok()) << kept.ToString();
  EXPECT_EQ(restored.store.Get(At("a", 1)), Tagged(1));
  EXPECT_EQ(restored.store.Stats().records_scanned, 1u);
}

TEST_F(FlussRebuildTest, RecordsAndMarkersThisStoreNeverWritesAreRejected) {
  // Strategy: a record that does not decode, a record with an empty value (a
  // Kafka tombstone: a log table has none), a cleanup record, and a Kafka
  // store's marker (it names its topic) each fail the rebuild, which
  // leaves nothing cached.
  Incarnation<> restored(clock_, table_);
  const MarkerOffsets from_start{{0, 0}, {1, 0}};
  EXPECT_TRUE(Names(restored.store.Rebuild(MarkerOf(table_.topic(), from_start)), "it is a Kafka store's marker"));

  const RecordPosition empty = table_.Append(a_, EncodeRecordKey(At("a", 2)), "");
  EXPECT_TRUE(Names(restored.store.Rebuild(Buckets(from_start)), "holds no tombstones"));
  EXPECT_EQ(restored.store.Stats().cached_states, 0u);

  const MarkerOffsets past_empty{{a_, empty.offset + 1}, {b_, 0}};
  table_.Append(b_, EncodeCleanupKey("b"), "1");
  EXPECT_TRUE(Names(restored.store.Rebuild(Buckets(past_empty)), "holds no cleanup records"));

  ASSERT_TRUE(table_.Corrupt(a_, 0));
  const Status corrupt = restored.store.Rebuild(Buckets({{a_, 0}, {b_, table_.Offsets(b_).end}}));
  EXPECT_TRUE(Names(corrupt, "partition " + std::to_string(a_) + " offset 0"));  // the port's word for a bucket
  EXPECT_TRUE(Names(corrupt, "does not decode"));
  EXPECT_EQ(restored.store.Stats().cached_states, 0u);
  EXPECT_EQ(restored.store.Stats().bookkeeping_entries, 0u);
}

TEST_F(FlussRebuildTest, RebuildClearsTheCacheFirstEvenWhenItFails) {
  // Strategy: a subtask caches c/1 of its own, then rebuilds from the end
  // of every bucket: c/1 is gone (the marker does not vouch for it). Cached
  // again, it is gone after a rebuild that fails on its marker too.
  Incarnation<> subtask(clock_, table_);
  ASSERT_TRUE(subtask.Put(At("c", 1), Tagged(3)).ok());
  ASSERT_TRUE(subtask.store.Rebuild(subtask.Marker({{"a", 1}, {"b", 1}, {"c", 1}})).ok());
  EXPECT_FALSE(subtask.store.Get(At("c", 1)).has_value());
  EXPECT_EQ(subtask.store.Stats().cached_states, 0u);

  ASSERT_TRUE(subtask.Put(At("c", 1), Tagged(3)).ok());
  EXPECT_FALSE(subtask.store.Rebuild(Buckets({{0, 0}, {1, 0}, {2, 0}})).ok());
  EXPECT_EQ(subtask.store.Stats().cached_states, 0u);
  EXPECT_TRUE(subtask.store.CachedInputKeys().empty());
}

TEST_F(FlussRebuildTest, TheCacheNotClearedSeamKeepsStatesTheMarkerDoesNotVouchFor) {
  // Strategy: the same first rebuild with the seam: c/1 stays cached beside
  // nothing read.
  Incarnation<CacheNotClearedStore> subtask(clock_, table_);
  ASSERT_TRUE(subtask.Put(At("c", 1), Tagged(3)).ok());
  ASSERT_TRUE(subtask.store.Rebuild(subtask.Marker({{"a", 1}, {"b", 1}, {"c", 1}})).ok());
  EXPECT_EQ(subtask.store.Get(At("c", 1)), Tagged(3));
  EXPECT_EQ(subtask.store.Stats().records_scanned, 0u);
}

TEST_F(FlussRebuildTest, RebuildKeepsOwnedKeysAndCountsEveryRecordScanned) {
  // Strategy: a subtask owning "a" only reads both records and keeps a/1.
  Incarnation<> restored(clock_, table_);
  restored.store.SetOwnership([](const std::string& key) { return key == "a"; });
  ASSERT_TRUE(restored.store.Rebuild(Buckets({{0, 0}, {1, 0}})).ok());
  EXPECT_EQ(restored.store.Get(At("a", 1)), Tagged(1));
  EXPECT_FALSE(restored.store.Get(At("b", 1)).has_value());
  EXPECT_EQ(restored.store.Stats().records_scanned, 2u);
  EXPECT_EQ(restored.store.CachedInputKeys(), std::vector<std::string>{"a"});
}

TEST_F(FlussRebuildTest, RebuildFailsWhileTheTableIsUnreachable) {
  // Strategy: an unreachable server is no invalid recovery.
  table_.SetDownUntil(clock_.now + std::chrono::milliseconds(10));
  Incarnation<> restored(clock_, table_);
  EXPECT_EQ(restored.store.Rebuild(Buckets({{0, 0}, {1, 0}})).code(), StatusCode::kUnavailable);
}

// --- Prune ------------------------------------------------------------------

TEST_F(FlussStoreTest, PruneIsScopedToTheExactInputKey) {
  // Strategy: "a" and "a_b" share the prefix "a_". Prune("a", 2) drops a/1
  // and a/2, not a_b/1 nor a/3. Prune("a_b", 1), a key 0.3.0 never prunes
  // (its parse wants four fields), drops a_b/1.
  KafkaLog table(1);
  Incarnation<> subtask(clock_, table);
  for (const StateKey& state_key : {At("a", 1), At("a", 2), At("a", 3), At("a_b", 1)}) {
    ASSERT_TRUE(subtask.Put(state_key, Tagged(state_key.seq)).ok());
  }
  subtask.store.Prune("a", 2);
  EXPECT_FALSE(subtask.store.Get(At("a", 1)).has_value());
  EXPECT_FALSE(subtask.store.Get(At("a", 2)).has_value());
  EXPECT_TRUE(subtask.store.Get(At("a", 3)).has_value());
  EXPECT_TRUE(subtask.store.Get(At("a_b", 1)).has_value());
  EXPECT_EQ(subtask.store.Stats().cached_states, 2u);

  subtask.store.Prune("a_b", 1);
  subtask.store.Prune("a", 3);
  EXPECT_EQ(subtask.store.Stats().cached_states, 0u);
  EXPECT_EQ(subtask.store.Stats().bookkeeping_entries, 0u);
  EXPECT_EQ(table.total_records(), 4u);  // prune writes nothing
}

TEST_F(FlussStoreTest, TheRawPrefixSeamPrunesAnotherKeysStates) {
  // Strategy: with the raw prefix match, Prune("a", 2) also drops a_b/1;
  // the index still follows the cache.
  KafkaLog table(1);
  Incarnation<RawPrefixPruneStore> subtask(clock_, table);
  ASSERT_TRUE(subtask.Put(At("a", 1), Tagged(1)).ok());
  ASSERT_TRUE(subtask.Put(At("a_b", 1), Tagged(2)).ok());
  ASSERT_TRUE(subtask.Put(At("ab", 1), Tagged(3)).ok());
  subtask.store.Prune("a", 2);
  EXPECT_FALSE(subtask.store.Get(At("a_b", 1)).has_value());
  EXPECT_TRUE(subtask.store.Get(At("ab", 1)).has_value());
  EXPECT_EQ(subtask.store.CachedInputKeys(), std::vector<std::string>{"ab"});
}

}  // namespace
}  // namespace durasim
