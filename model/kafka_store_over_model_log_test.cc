// Unit tests for KafkaActionStateStore over the in-memory Kafka model
// (KafkaLog + MemoryLogClient), with write faults injected by wrapping the
// client in a FaultyLogClient. Every test runs in simulated time: timings
// asserted here are read from the simulated clock, never from a wall clock.
#include "store/kafka_action_state_store.h"

#include <gtest/gtest.h>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/fault_plan.h"
#include "model/faulty_log_client.h"
#include "model/kafka_log.h"
#include "model/memory_log_client.h"
#include "model/scheduler.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;

constexpr uint64_t kEvent = 0xe1;
constexpr uint64_t kAction = 0xa1;
// Far beyond any timer these tests arm; Run() must end idle before it.
constexpr SimTime kRunDeadline = std::chrono::seconds(60);

StateKey Key(const std::string& key, int64_t seq, uint64_t event_hash = kEvent, uint64_t action_hash = kAction) {
  return StateKey{key, seq, event_hash, action_hash};
}

// A state told apart from others by `tag`: one pending call whose result
// slot carries the tag, so two states with different tags are unequal.
ActionState StateTagged(int64_t tag, bool completed = false) {
  ActionState state;
  state.call_results.push_back(CallResult{"fn", 0xabc, CallStatus::kSucceeded, tag, ""});
  state.memory_updates.push_back(MemoryUpdate{"slot", tag});
  state.emitted_events.push_back(EmittedEvent{kOutputEventType, tag});
  state.completed = completed;
  return state;
}

LogConfig Config(int32_t partitions, int64_t linger_ms = 5, int64_t ack_latency_ms = 1) {
  LogConfig config;
  config.partitions = partitions;
  config.linger_ms = linger_ms;
  config.ack_latency_ms = ack_latency_ms;
  return config;
}

// One agent process: a scheduler, a client and a store over a shared log and
// clock. Destroying it is a crash; the log survives.
struct Process {
  Process(SimClock& clock, KafkaLog& log, const LogConfig& config)
      : scheduler(clock), client(scheduler, log, config), store(client) {}
  Scheduler scheduler;
  MemoryLogClient client;
  KafkaActionStateStore store;
};

// What a spawned put reported, and when.
struct PutOutcome {
  std::optional<Status> status;
  SimTime finished_at{-1};
  bool cancellation_visible = false;
};

// Puts by value: the store's Put takes references that must outlive the wait.
boost::asio::awaitable<void> PutAndRecord(Scheduler& scheduler, ActionStateStore& store, StateKey state_key,
                                          ActionState state, std::shared_ptr<PutOutcome> outcome) {
  // Cancellation is reported through Status, as in the agent runtime.
  co_await boost::asio::this_coro::throw_if_cancelled(false);
  Status status = co_await store.Put(state_key, state);
  outcome->finished_at = scheduler.now();
  auto cancellation = co_await boost::asio::this_coro::cancellation_state;
  outcome->cancellation_visible = cancellation.cancelled() != boost::asio::cancellation_type::none;
  outcome->status = std::move(status);
}

void RethrowOnError(std::exception_ptr error) {
  if (error) std::rethrow_exception(error);
}

// Spawns a put without running the scheduler.
std::shared_ptr<PutOutcome> SpawnPut(Scheduler& scheduler, ActionStateStore& store, const StateKey& state_key,
                                     const ActionState& state) {
  auto outcome = std::make_shared<PutOutcome>();
  boost::asio::co_spawn(scheduler.executor(), PutAndRecord(scheduler, store, state_key, state, outcome),
                        RethrowOnError);
  return outcome;
}

// Runs one put to completion on `scheduler` and returns its status.
Status RunPut(Scheduler& scheduler, ActionStateStore& store, const StateKey& state_key, const ActionState& state) {
  std::shared_ptr<PutOutcome> outcome = SpawnPut(scheduler, store, state_key, state);
  EXPECT_EQ(scheduler.Run(scheduler.now() + kRunDeadline), Scheduler::RunEnd::kIdle);
  if (!outcome->status.has_value()) return Status(StatusCode::kInternal, "put did not finish");
  return *outcome->status;
}

Status RunPut(Process& process, const StateKey& state_key, const ActionState& state) {
  return RunPut(process.scheduler, process.store, state_key, state);
}

// Fault hooks for tests that expect neither crashes nor hook-driven cancels.
FaultPlan::Hooks StrictHooks(std::vector<std::string>* fired) {
  FaultPlan::Hooks hooks;
  hooks.crash = [](const std::string& reason) { ADD_FAILURE() << "unexpected crash: " << reason; };
  hooks.cancel_wait = [](const FaultPoint& /*put*/) { ADD_FAILURE() << "unexpected cancel_wait"; };
  hooks.fired = [fired](size_t /*armed*/, FaultKind fault, int64_t nth, const FaultPoint& /*point*/) {
    fired->push_back("fault.fired fault=" + std::string(NameOf(fault)) + " nth=" + std::to_string(nth));
  };
  return hooks;
}

// A marker of the model's topic as every fresh KafkaLog is.
RecoveryMarker ModelMarker(MarkerOffsets offsets) { return MarkerOf(KafkaLog(1).topic(), std::move(offsets)); }

// The store's marker at `completed`, with the boundaries taken out: a Kafka
// store writes them whether or not it emits tombstones, as given.
RecoveryMarker MarkerOrDie(ActionStateStore& store, const CompletedBoundaries& completed) {
  Result<RecoveryMarker> marker = store.GetRecoveryMarker(completed);
  EXPECT_TRUE(marker.ok()) << marker.status().ToString();
  if (!marker.ok()) return ModelMarker({});
  EXPECT_EQ(marker->completed, completed);
  marker->completed.clear();
  return *marker;
}

// Whether `message` contains `part`, with the message in the failure output.
::testing::AssertionResult Mentions(const Status& status, const std::string& part) {
  if (status.message().find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << status.message() << "\" does not mention \"" << part << "\"";
}

class KafkaActionStateStoreTest : public ::testing::Test {
 protected:
  SimClock clock_;
};

// --- Put and Get -----------------------------------------------------------

TEST_F(KafkaActionStateStoreTest, PutThenGetReturnsTheState) {
  // Strategy: an acknowledged put is returned by Get for exactly its state
  // key; keys differing in any one field stay empty; a later put of the same
  // state key replaces the cached state without adding an entry.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(10)).ok());

  ASSERT_TRUE(process.store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*process.store.Get(Key("a", 1)), StateTagged(10));
  EXPECT_FALSE(process.store.Get(Key("b", 1)).has_value());
  EXPECT_FALSE(process.store.Get(Key("a", 2)).has_value());
  EXPECT_FALSE(process.store.Get(Key("a", 1, kEvent + 1)).has_value());
  EXPECT_FALSE(process.store.Get(Key("a", 1, kEvent, kAction + 1)).has_value());
  EXPECT_EQ(log.total_records(), 1u);

  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(11, true)).ok());
  EXPECT_EQ(*process.store.Get(Key("a", 1)), StateTagged(11, true));
  EXPECT_EQ(process.store.Stats().cached_states, 1u);
  EXPECT_EQ(process.store.Stats().bookkeeping_entries, 1u);
  EXPECT_EQ(log.total_records(), 2u);
}

TEST_F(KafkaActionStateStoreTest, GetOfUnknownKeyIsEmpty) {
  // Strategy: a fresh store, and a store holding other keys, return nothing
  // for a key never put, including keys with '_' that resemble others.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  EXPECT_FALSE(process.store.Get(Key("a", 1)).has_value());
  ASSERT_TRUE(RunPut(process, Key("a_1", 1), StateTagged(1)).ok());
  EXPECT_FALSE(process.store.Get(Key("a", 1)).has_value());
  EXPECT_FALSE(process.store.Get(Key("a_1_1", 1)).has_value());
  EXPECT_TRUE(process.store.Get(Key("a_1", 1)).has_value());
}

TEST_F(KafkaActionStateStoreTest, EvictOnDivergenceEvictsLaterStatesOfEveryKeyOnAMissOrADivergence) {
  // Strategy: the real get() (StoreOptions::evict_on_divergence). A hit
  // with one cached state of its (key, seq) evicts nothing; a hit whose
  // (key, seq) has two cached states (another action) evicts every state of
  // a higher sequence number, of the other key too; a miss evicts the same
  // way. The counts say what happened. A store without the option keeps all.
  for (const bool evict : {true, false}) {
    SCOPED_TRACE(evict ? "evict_on_divergence" : "lookup");
    KafkaLog log(1);
    Scheduler scheduler(clock_);
    MemoryLogClient client(scheduler, log, Config(1));
    StoreOptions options;
    options.evict_on_divergence = evict;
    KafkaActionStateStore store(client, options);
    for (const StateKey& state_key : {Key("a", 1), Key("a", 2), Key("a", 3), Key("b", 3), Key("c", 5)}) {
      ASSERT_TRUE(RunPut(scheduler, store, state_key, StateTagged(state_key.seq)).ok());
    }
    EXPECT_TRUE(store.Get(Key("a", 1)).has_value());  // a hit, no divergence
    EXPECT_EQ(store.EvictionsByGet().states_evicted, 0u);
    EXPECT_EQ(store.EvictionsByGet().later_states_kept, evict ? 1u : 0u);

    ASSERT_TRUE(RunPut(scheduler, store, Key("a", 2, kEvent, kAction + 1), StateTagged(20)).ok());
    EXPECT_TRUE(store.Get(Key("a", 2)).has_value());  // a hit, but two states of ("a", 2)
    EXPECT_EQ(store.Get(Key("a", 3)).has_value(), !evict);
    EXPECT_EQ(store.Get(Key("b", 3)).has_value(), !evict);  // another key's, too
    EXPECT_EQ(store.Get(Key("c", 5)).has_value(), !evict);
    EXPECT_EQ(store.EvictionsByGet().states_evicted, evict ? 3u : 0u);

    EXPECT_FALSE(store.Get(Key("z", 1)).has_value());  // a miss: both states of ("a", 2) go
    EXPECT_EQ(store.Get(Key("a", 2)).has_value(), !evict);
    EXPECT_EQ(store.Get(Key("a", 2, kEvent, kAction + 1)).has_value(), !evict);
    EXPECT_TRUE(store.Get(Key("a", 1)).has_value());
    EXPECT_EQ(store.EvictionsByGet().states_evicted, evict ? 5u : 0u);
    EXPECT_EQ(store.Stats().cached_states, evict ? 1u : 6u);
  }
}

TEST_F(KafkaActionStateStoreTest, PutWritesTheRecordToTheKeysPartition) {
  // Strategy: the record lands on PartitionForKey(key) under the encoded
  // record key, and its value decodes back to the state.
  KafkaLog log(4);
  Process process(clock_, log, Config(4));
  ASSERT_TRUE(RunPut(process, Key("a", 3), StateTagged(5)).ok());
  const int32_t partition = PartitionForKey("a", 4);
  ASSERT_EQ(log.Offsets(partition).end, 1);
  const LogRecord* record = log.Find(partition, 0);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->key, EncodeRecordKey(Key("a", 3)));
  Result<DecodedState> decoded = DecodeStateValue(record->value);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->state_key, Key("a", 3));
  EXPECT_EQ(decoded->state, StateTagged(5));
  EXPECT_EQ(log.total_records(), 1u);
}

TEST_F(KafkaActionStateStoreTest, PutFlushesBeforeAwaitingTheAck) {
  // Strategy: with a 50 ms linger and a 1 ms ack latency, a put that flushes
  // first completes 1 ms of simulated time after it started; one that waited
  // out the linger would complete at 51 ms. The simulated clock is exact.
  KafkaLog log(1);
  Process process(clock_, log, Config(1, /*linger_ms=*/50, /*ack_latency_ms=*/1));
  clock_.now = milliseconds(100);  // start off zero so the delta is measured
  std::shared_ptr<PutOutcome> outcome = SpawnPut(process.scheduler, process.store, Key("a", 1), StateTagged(1));
  ASSERT_EQ(process.scheduler.Run(kRunDeadline), Scheduler::RunEnd::kIdle);
  ASSERT_TRUE(outcome->status.has_value());
  ASSERT_TRUE(outcome->status->ok()) << outcome->status->ToString();
  EXPECT_EQ(outcome->finished_at, SimTime(milliseconds(101)));
  EXPECT_EQ(process.client.buffered(), 0u);
}

TEST_F(KafkaActionStateStoreTest, ConcurrentPutsEachCompleteAfterOneAckLatency) {
  // Strategy: two puts spawned together are both flushed at once, so both
  // complete at 1 ms (not one after the linger), and both are cached.
  KafkaLog log(1);
  Process process(clock_, log, Config(1, /*linger_ms=*/50, /*ack_latency_ms=*/1));
  auto first = SpawnPut(process.scheduler, process.store, Key("a", 1), StateTagged(1));
  auto second = SpawnPut(process.scheduler, process.store, Key("b", 1), StateTagged(2));
  ASSERT_EQ(process.scheduler.Run(kRunDeadline), Scheduler::RunEnd::kIdle);
  ASSERT_TRUE(first->status.has_value() && second->status.has_value());
  EXPECT_TRUE(first->status->ok());
  EXPECT_TRUE(second->status->ok());
  EXPECT_EQ(first->finished_at, SimTime(milliseconds(1)));
  EXPECT_EQ(second->finished_at, SimTime(milliseconds(1)));
  EXPECT_EQ(process.store.Stats().cached_states, 2u);
}

// --- Failed writes ---------------------------------------------------------

TEST_F(KafkaActionStateStoreTest, RejectedPutIsNotPersistedAndNotCached) {
  // Strategy: the 2nd put is rejected by the broker. It reports
  // kNotPersisted, Get keeps the state of the 1st put, the log holds only the
  // 1st record; a rejected first write of another key leaves Get empty.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  std::vector<std::string> fired;
  FaultPlan plan(StrictHooks(&fired));
  plan.Arm(FaultKind::kRejectPut, 2);
  plan.Arm(FaultKind::kRejectPut, 3);
  FaultyLogClient faulty(process.client, plan);
  KafkaActionStateStore store(faulty);

  ASSERT_TRUE(RunPut(process.scheduler, store, Key("a", 1), StateTagged(1)).ok());
  const Status rejected = RunPut(process.scheduler, store, Key("a", 1), StateTagged(2));
  EXPECT_EQ(rejected.code(), StatusCode::kNotPersisted) << rejected.ToString();
  ASSERT_TRUE(store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*store.Get(Key("a", 1)), StateTagged(1));

  const Status rejected_new = RunPut(process.scheduler, store, Key("b", 1), StateTagged(3));
  EXPECT_EQ(rejected_new.code(), StatusCode::kNotPersisted) << rejected_new.ToString();
  EXPECT_FALSE(store.Get(Key("b", 1)).has_value());

  EXPECT_EQ(log.total_records(), 1u);
  EXPECT_EQ(store.Stats().cached_states, 1u);
  EXPECT_EQ(store.Stats().bookkeeping_entries, 1u);
  EXPECT_EQ(fired.size(), 2u);
}

TEST_F(KafkaActionStateStoreTest, LostAckIsPossiblyPersistedNotCachedButFoundByRebuild) {
  // Strategy: the put's acknowledgement is lost. It reports
  // kPossiblyPersisted and Get stays empty, yet the log holds the record, and
  // a rebuild from offset 0 (same store, then a fresh process) finds it.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  std::vector<std::string> fired;
  FaultPlan plan(StrictHooks(&fired));
  plan.Arm(FaultKind::kLoseAck, 1);
  FaultyLogClient faulty(process.client, plan);
  KafkaActionStateStore store(faulty);

  const Status lost = RunPut(process.scheduler, store, Key("a", 1), StateTagged(7));
  EXPECT_EQ(lost.code(), StatusCode::kPossiblyPersisted) << lost.ToString();
  EXPECT_FALSE(store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(store.Stats().cached_states, 0u);
  EXPECT_EQ(store.Stats().bookkeeping_entries, 0u);
  ASSERT_EQ(log.total_records(), 1u);
  ASSERT_EQ(fired.size(), 1u);

  ASSERT_TRUE(store.Rebuild(ModelMarker({{0, 0}})).ok());
  ASSERT_TRUE(store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*store.Get(Key("a", 1)), StateTagged(7));

  Process restored(clock_, log, Config(1));
  ASSERT_TRUE(restored.store.Rebuild(ModelMarker({{0, 0}})).ok());
  ASSERT_TRUE(restored.store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*restored.store.Get(Key("a", 1)), StateTagged(7));
}

// --- Cancellation ----------------------------------------------------------

TEST_F(KafkaActionStateStoreTest, CancelledPutReportsCancelledAndLeavesCacheAndSignalAlone) {
  // Strategy: spawn a put over an earlier state with a cancellation slot and
  // post a terminal cancel, which runs while the put waits for its ack (due
  // at 1 ms). The put returns kCancelled at time 0, Get still returns the
  // earlier state, and the coroutine still sees its cancellation afterwards.
  // The ack that arrives later must not update the cache either.
  KafkaLog log(1);
  Process process(clock_, log, Config(1, /*linger_ms=*/50, /*ack_latency_ms=*/1));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(1)).ok());
  const SimTime started = clock_.now;

  boost::asio::cancellation_signal signal;
  auto outcome = std::make_shared<PutOutcome>();
  boost::asio::co_spawn(process.scheduler.executor(),
                        PutAndRecord(process.scheduler, process.store, Key("a", 1), StateTagged(2), outcome),
                        boost::asio::bind_cancellation_slot(signal.slot(), RethrowOnError));
  boost::asio::post(process.scheduler.io(), [&signal] { signal.emit(boost::asio::cancellation_type::terminal); });
  ASSERT_EQ(process.scheduler.Run(started + kRunDeadline), Scheduler::RunEnd::kIdle);

  ASSERT_TRUE(outcome->status.has_value());
  EXPECT_EQ(outcome->status->code(), StatusCode::kCancelled) << outcome->status->ToString();
  EXPECT_EQ(outcome->finished_at, started) << "the put waited for its ack instead of returning on cancel";
  EXPECT_TRUE(outcome->cancellation_visible);
  ASSERT_TRUE(process.store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*process.store.Get(Key("a", 1)), StateTagged(1));
  // The flushed record reached the log (a cancelled wait says nothing about
  // persistence), but only an acknowledged put may change the cache.
  EXPECT_EQ(log.total_records(), 2u);
  EXPECT_EQ(process.store.Stats().cached_states, 1u);
}

TEST_F(KafkaActionStateStoreTest, CancelledFirstPutOfAKeyLeavesGetEmpty) {
  // Strategy: as above but with no earlier state, cancelled from a timer at
  // 0.5 ms of simulated time through a FaultyLogClient: Get stays empty and
  // no per-key bookkeeping is created.
  KafkaLog log(1);
  Process process(clock_, log, Config(1, /*linger_ms=*/5, /*ack_latency_ms=*/1));
  std::vector<std::string> fired;
  FaultPlan plan(StrictHooks(&fired));
  FaultyLogClient faulty(process.client, plan);
  KafkaActionStateStore store(faulty);

  boost::asio::cancellation_signal signal;
  auto outcome = std::make_shared<PutOutcome>();
  boost::asio::co_spawn(process.scheduler.executor(),
                        PutAndRecord(process.scheduler, store, Key("a", 1), StateTagged(2), outcome),
                        boost::asio::bind_cancellation_slot(signal.slot(), RethrowOnError));
  process.scheduler.AsyncSleep(std::chrono::microseconds(500),
                               [&signal](ErrorCode) { signal.emit(boost::asio::cancellation_type::terminal); });
  ASSERT_EQ(process.scheduler.Run(kRunDeadline), Scheduler::RunEnd::kIdle);

  ASSERT_TRUE(outcome->status.has_value());
  EXPECT_EQ(outcome->status->code(), StatusCode::kCancelled) << outcome->status->ToString();
  EXPECT_EQ(outcome->finished_at, SimTime(std::chrono::microseconds(500)));
  EXPECT_TRUE(outcome->cancellation_visible);
  EXPECT_FALSE(store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(store.Stats().cached_states, 0u);
  EXPECT_EQ(store.Stats().bookkeeping_entries, 0u);
}

TEST_F(KafkaActionStateStoreTest, UncancelledPutWithSlotIsNotCancelled) {
  // Strategy: the control for the cancellation tests: the same spawn with a
  // connected slot but no emit completes ok at the ack and reports no
  // cancellation, so the assertions above are not vacuous.
  KafkaLog log(1);
  Process process(clock_, log, Config(1, /*linger_ms=*/50, /*ack_latency_ms=*/1));
  boost::asio::cancellation_signal signal;
  auto outcome = std::make_shared<PutOutcome>();
  boost::asio::co_spawn(process.scheduler.executor(),
                        PutAndRecord(process.scheduler, process.store, Key("a", 1), StateTagged(2), outcome),
                        boost::asio::bind_cancellation_slot(signal.slot(), RethrowOnError));
  ASSERT_EQ(process.scheduler.Run(kRunDeadline), Scheduler::RunEnd::kIdle);
  ASSERT_TRUE(outcome->status.has_value());
  EXPECT_TRUE(outcome->status->ok()) << outcome->status->ToString();
  EXPECT_EQ(outcome->finished_at, SimTime(milliseconds(1)));
  EXPECT_FALSE(outcome->cancellation_visible);
  EXPECT_EQ(*process.store.Get(Key("a", 1)), StateTagged(2));
}

// --- Recovery marker -------------------------------------------------------

TEST_F(KafkaActionStateStoreTest, UnfinishedStatePinsMarkerToItsLatestRecord) {
  // Strategy: one partition. Offsets: 0 a/1 (first write), 1 b/1, 2 a/1
  // (update), 3 b/2. With b finished up to 2 and a unfinished, the marker is
  // the offset of a/1's latest record (2), not its first (0) nor the end (4).
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(process, Key("b", 1), StateTagged(2)).ok());
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(3)).ok());
  ASSERT_TRUE(RunPut(process, Key("b", 2), StateTagged(4)).ok());
  ASSERT_EQ(log.Offsets(0).end, 4);

  EXPECT_EQ(MarkerOrDie(process.store, {{"b", 2}}), (ModelMarker({{0, 2}})));
  // b/2 unfinished too: its record at 3 does not lower the minimum.
  EXPECT_EQ(MarkerOrDie(process.store, {{"b", 1}}), (ModelMarker({{0, 2}})));
  // Nothing finished: b/1 at offset 1 is the oldest live record.
  EXPECT_EQ(MarkerOrDie(process.store, {}), (ModelMarker({{0, 1}})));
}

TEST_F(KafkaActionStateStoreTest, FinishedInputDoesNotPinMarker) {
  // Strategy: a/1 at offset 0, a/2 at offset 1. The completed boundary of a
  // decides: seq <= boundary is finished (no pin); another key's boundary and
  // a boundary below both leave both pinned.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(1, true)).ok());
  ASSERT_TRUE(RunPut(process, Key("a", 2), StateTagged(2)).ok());

  EXPECT_EQ(MarkerOrDie(process.store, {{"a", 0}}), (ModelMarker({{0, 0}})));
  EXPECT_EQ(MarkerOrDie(process.store, {{"z", 5}}), (ModelMarker({{0, 0}})));
  EXPECT_EQ(MarkerOrDie(process.store, {{"a", 1}}), (ModelMarker({{0, 1}})));
  EXPECT_EQ(MarkerOrDie(process.store, {{"a", 2}}), (ModelMarker({{0, 2}})));
  EXPECT_EQ(MarkerOrDie(process.store, {{"a", 99}}), (ModelMarker({{0, 2}})));
}

TEST_F(KafkaActionStateStoreTest, MarkerIsEndOffsetWithoutLiveState) {
  // Strategy: records on the log but none cached (a fresh process, and a
  // store whose states were all pruned) give the end offset of every
  // partition, including an empty partition's 0.
  KafkaLog log(2);
  Process writer(clock_, log, Config(2));
  ASSERT_TRUE(RunPut(writer, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(writer, Key("a", 2), StateTagged(2)).ok());
  const int32_t used = PartitionForKey("a", 2);
  RecoveryMarker end = ModelMarker({{0, 0}, {1, 0}});
  end.offsets[used] = 2;

  Process fresh(clock_, log, Config(2));
  EXPECT_EQ(MarkerOrDie(fresh.store, {}), end);

  writer.store.Prune("a", 2);
  EXPECT_EQ(MarkerOrDie(writer.store, {}), end);
}

TEST_F(KafkaActionStateStoreTest, AfterPartitionsAreAddedACachedStateKeepsItsPartition) {
  // Strategy: a's state is put on a 1-partition topic (partition 0), then
  // the topic grows to 3, where a hashes to partition 1. A new process sees
  // 3 partitions; after a rebuild from the old marker ({0: 0}: partitions 1
  // and 2 read from 0) its next record of a's state follows the first on
  // partition 0, while a new key d goes to PartitionForKey("d", 3) = 2, and
  // with tombstones pruning a puts the tombstone on partition 0 as well, so
  // a rebuild and compaction meet a's records in order.
  ASSERT_EQ(PartitionForKey("a", 3), 1);
  ASSERT_EQ(PartitionForKey("d", 3), 2);
  KafkaLog log(1);
  {
    Process writer(clock_, log, Config(1));
    ASSERT_TRUE(RunPut(writer, Key("a", 1), StateTagged(1)).ok());
  }
  log.AddPartitions(2);
  Process grown(clock_, log, Config(3));
  ASSERT_EQ(grown.client.partition_count(), 3);
  KafkaActionStateStore store(grown.client, /*tombstones=*/true);
  ASSERT_TRUE(store.Rebuild(ModelMarker({{0, 0}})).ok());
  ASSERT_TRUE(RunPut(grown.scheduler, store, Key("a", 1), StateTagged(2)).ok());
  ASSERT_TRUE(RunPut(grown.scheduler, store, Key("d", 1), StateTagged(3)).ok());
  EXPECT_EQ(log.Offsets(0).end, 2);
  EXPECT_EQ(log.Offsets(1).end, 0);
  EXPECT_EQ(log.Offsets(2).end, 1);
  store.Prune("a", 1);
  EXPECT_EQ(grown.scheduler.Run(grown.scheduler.now() + kRunDeadline), Scheduler::RunEnd::kIdle);
  ASSERT_EQ(log.Offsets(0).end, 3);
  EXPECT_EQ(log.Find(0, 2)->value, "");  // the tombstone
  EXPECT_EQ(log.Offsets(1).end, 0);
}

TEST_F(KafkaActionStateStoreTest, EachPartitionGetsItsOwnMinimum) {
  // Strategy: four partitions, keys b, f, c, a on partitions 0, 1, 2, 3.
  // Partition 0: b/1 (0), b/1 (1) unfinished -> 1. Partition 1: f/1 (0)
  // finished, f/2 (1) unfinished -> 1. Partition 2: c/1 (0), c/2 (1) both
  // finished -> end 2. Partition 3: a/1 (0) unfinished, a/2 (1) -> 0.
  ASSERT_EQ(PartitionForKey("b", 4), 0);
  ASSERT_EQ(PartitionForKey("f", 4), 1);
  ASSERT_EQ(PartitionForKey("c", 4), 2);
  ASSERT_EQ(PartitionForKey("a", 4), 3);
  KafkaLog log(4);
  Process process(clock_, log, Config(4));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(process, Key("b", 1), StateTagged(2)).ok());
  ASSERT_TRUE(RunPut(process, Key("c", 1), StateTagged(3, true)).ok());
  ASSERT_TRUE(RunPut(process, Key("f", 1), StateTagged(4, true)).ok());
  ASSERT_TRUE(RunPut(process, Key("b", 1), StateTagged(5)).ok());
  ASSERT_TRUE(RunPut(process, Key("f", 2), StateTagged(6)).ok());
  ASSERT_TRUE(RunPut(process, Key("c", 2), StateTagged(7, true)).ok());
  ASSERT_TRUE(RunPut(process, Key("a", 2), StateTagged(8)).ok());

  const CompletedBoundaries completed{{"a", 0}, {"c", 2}, {"f", 1}};
  EXPECT_EQ(MarkerOrDie(process.store, completed), (ModelMarker({{0, 1}, {1, 1}, {2, 2}, {3, 0}})));
  // Finishing a/1 moves only partition 3, to a/2's record.
  const CompletedBoundaries a_done{{"a", 1}, {"c", 2}, {"f", 1}};
  EXPECT_EQ(MarkerOrDie(process.store, a_done), (ModelMarker({{0, 1}, {1, 1}, {2, 2}, {3, 1}})));
}

TEST_F(KafkaActionStateStoreTest, MarkerFailsWhileBrokerIsDown) {
  // Strategy: the marker needs the end offsets; with the broker unreachable
  // it reports the client's error instead of inventing offsets.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  log.SetDownUntil(milliseconds(10));
  Result<RecoveryMarker> marker = process.store.GetRecoveryMarker({});
  ASSERT_FALSE(marker.ok());
  EXPECT_EQ(marker.status().code(), StatusCode::kUnavailable);
}

// --- Restore ---------------------------------------------------------------

TEST_F(KafkaActionStateStoreTest, RestoreWithoutNewInputKeepsTheSavedState) {
  // Strategy: the #1158 reproduction at store level. a/1 (unfinished) is
  // saved, then b/1 finished moves the end offset past it. Checkpoint
  // (boundaries {b:1}), crash, restore a fresh process from that marker:
  // a/1 is found. Checkpoint again with no new input, crash, restore: a/1 is
  // still found (the pre-fix end-offset marker loses it here).
  KafkaLog log(1);
  RecoveryMarker marker;
  {
    Process first(clock_, log, Config(1));
    ASSERT_TRUE(RunPut(first, Key("a", 1), StateTagged(42)).ok());
    ASSERT_TRUE(RunPut(first, Key("b", 1), StateTagged(1, true)).ok());
    marker = MarkerOrDie(first.store, {{"b", 1}});
  }
  EXPECT_EQ(marker, (ModelMarker({{0, 0}})));
  {
    Process second(clock_, log, Config(1));
    ASSERT_TRUE(second.store.Rebuild(marker).ok());
    ASSERT_TRUE(second.store.Get(Key("a", 1)).has_value());
    EXPECT_EQ(*second.store.Get(Key("a", 1)), StateTagged(42));
    marker = MarkerOrDie(second.store, {{"b", 1}});
  }
  EXPECT_EQ(marker, (ModelMarker({{0, 0}})));
  Process third(clock_, log, Config(1));
  ASSERT_TRUE(third.store.Rebuild(marker).ok());
  ASSERT_TRUE(third.store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*third.store.Get(Key("a", 1)), StateTagged(42));
}

TEST_F(KafkaActionStateStoreTest, RestoreWithEmptyBoundariesFindsTheSavedState) {
  // Strategy: the brief's minimal case: a/1 incomplete, marker with no
  // boundaries, rebuild a fresh store (new client on the same log) from it.
  KafkaLog log(1);
  Process first(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(first, Key("a", 1), StateTagged(9)).ok());
  const RecoveryMarker marker = MarkerOrDie(first.store, {});
  EXPECT_EQ(marker, (ModelMarker({{0, 0}})));

  Process restored(clock_, log, Config(1));
  ASSERT_TRUE(restored.store.Rebuild(marker).ok());
  ASSERT_TRUE(restored.store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*restored.store.Get(Key("a", 1)), StateTagged(9));
  EXPECT_EQ(restored.store.Stats().records_scanned, 1u);
}

TEST_F(KafkaActionStateStoreTest, RebuildKeepsTheLatestRecordOfEachStateKeyAndReplacesTheCache) {
  // Strategy: two records of one state key: rebuild keeps the later one. A
  // rebuild from the end drops everything cached before it.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(2, true)).ok());

  Process restored(clock_, log, Config(1));
  ASSERT_TRUE(restored.store.Rebuild(ModelMarker({{0, 0}})).ok());
  EXPECT_EQ(*restored.store.Get(Key("a", 1)), StateTagged(2, true));
  EXPECT_EQ(restored.store.Stats().cached_states, 1u);

  ASSERT_TRUE(restored.store.Rebuild(ModelMarker({{0, 2}})).ok());
  EXPECT_FALSE(restored.store.Get(Key("a", 1)).has_value());
  EXPECT_EQ(restored.store.Stats().cached_states, 0u);
  EXPECT_EQ(restored.store.Stats().bookkeeping_entries, 0u);
  EXPECT_EQ(restored.store.Stats().records_scanned, 0u);
}

TEST_F(KafkaActionStateStoreTest, RebuildOfNonCanonicalRecordKeyIsFoundByGet) {
  // Strategy: a record whose key spells seq with a leading zero ("a_01_...")
  // and whose value names a/1 would be cached out of Get's reach: the
  // rebuild rejects it as not canonical.
  KafkaLog log(1);
  const std::string canonical = EncodeRecordKey(Key("a", 1));
  ASSERT_EQ(canonical.substr(0, 4), "a_1_");
  log.Append(0, "a_01_" + canonical.substr(4), EncodeStateValue(Key("a", 1), StateTagged(3)));
  Process restored(clock_, log, Config(1));
  const Status rebuilt = restored.store.Rebuild(ModelMarker({{0, 0}}));
  EXPECT_EQ(rebuilt.code(), StatusCode::kInvalidRecovery);
  EXPECT_NE(rebuilt.message().find("canonical"), std::string::npos) << rebuilt.message();
  EXPECT_NE(rebuilt.message().find("partition 0 offset 0"), std::string::npos) << rebuilt.message();
}

// --- Invalid recovery data -------------------------------------------------

class InvalidRecoveryTest : public KafkaActionStateStoreTest {
 protected:
  // Two partitions; a/1 and b/1 on whichever partitions they hash to.
  void SetUp() override {
    process_ = std::make_unique<Process>(clock_, log_, Config(2));
    ASSERT_TRUE(RunPut(*process_, Key("a", 1), StateTagged(1)).ok());
    ASSERT_TRUE(RunPut(*process_, Key("b", 1), StateTagged(2)).ok());
    restored_ = std::make_unique<Process>(clock_, log_, Config(2));
  }
  Status Rebuild(const RecoveryMarker& marker) { return restored_->store.Rebuild(marker); }
  Status Rebuild(MarkerOffsets offsets) { return Rebuild(ModelMarker(std::move(offsets))); }

  KafkaLog log_{2};
  std::unique_ptr<Process> process_;
  std::unique_ptr<Process> restored_;
};

TEST_F(InvalidRecoveryTest, ValidMarkerIsAccepted) {
  // Strategy: the control: the start-of-log marker and the end-offset marker
  // of the same topic are accepted, so the rejections below are about the
  // one thing each breaks.
  const Status from_start = Rebuild({{0, 0}, {1, 0}});
  EXPECT_TRUE(from_start.ok()) << from_start.ToString();
  EXPECT_EQ(restored_->store.Stats().cached_states, 2u);
  const Status from_end = Rebuild({{0, log_.Offsets(0).end}, {1, log_.Offsets(1).end}});
  EXPECT_TRUE(from_end.ok()) << from_end.ToString();
}

TEST_F(InvalidRecoveryTest, MarkerOfFewerPartitionsReadsTheLaterOnesFromTheirStart) {
  // Strategy: a marker for partition 0 only, on a 2-partition topic, is a
  // checkpoint taken before partition 1 was added: the rebuild reads
  // partition 1 from offset 0 and finds both states, as the start-of-log
  // marker does. A marker naming partition 1 but not 0 is no partition set
  // the topic ever had.
  const Status status = Rebuild({{0, 0}});
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(restored_->store.Stats().cached_states, 2u);
  const Status gap = Rebuild({{1, 0}});
  EXPECT_EQ(gap.code(), StatusCode::kInvalidRecovery) << gap.ToString();
  EXPECT_TRUE(Mentions(gap, "recovery marker partitions {1} are not a partition set of the topic"));
}

TEST_F(InvalidRecoveryTest, MarkerWithAnExtraPartitionIsRejected) {
  // Strategy: a marker naming a partition 2 the topic does not have, and one
  // naming partition -1.
  const Status extra = Rebuild({{0, 0}, {1, 0}, {2, 0}});
  EXPECT_EQ(extra.code(), StatusCode::kInvalidRecovery) << extra.ToString();
  EXPECT_TRUE(Mentions(extra, "are not a partition set of the topic"));
  const Status negative = Rebuild({{-1, 0}, {0, 0}, {1, 0}});
  EXPECT_EQ(negative.code(), StatusCode::kInvalidRecovery) << negative.ToString();
  EXPECT_TRUE(Mentions(negative, "are not a partition set of the topic"));
}

TEST_F(InvalidRecoveryTest, EmptyMarkerIsRejected) {
  // Strategy: an empty marker (e.g. a checkpoint with no operator state) is
  // not "read nothing": it does not match the topic.
  const Status status = Rebuild(MarkerOffsets{});
  EXPECT_EQ(status.code(), StatusCode::kInvalidRecovery) << status.ToString();
  EXPECT_TRUE(Mentions(status, "recovery marker partitions"));
}

TEST_F(InvalidRecoveryTest, OffsetBelowStartIsRejected) {
  // Strategy: offset -1 on partition 1 is below the log start (0).
  const Status status = Rebuild({{0, 0}, {1, -1}});
  EXPECT_EQ(status.code(), StatusCode::kInvalidRecovery) << status.ToString();
  EXPECT_TRUE(Mentions(status, "offset -1 for partition 1 is outside the log"));
}

TEST_F(InvalidRecoveryTest, OffsetAboveEndIsRejected) {
  // Strategy: one past the end of partition 0 is rejected; the end itself
  // (an empty read) was accepted by ValidMarkerIsAccepted.
  const int64_t end = log_.Offsets(0).end;
  const Status status = Rebuild({{0, end + 1}, {1, 0}});
  EXPECT_EQ(status.code(), StatusCode::kInvalidRecovery) << status.ToString();
  EXPECT_TRUE(Mentions(status, "offset " + std::to_string(end + 1) + " for partition 0 is outside the log"));
}

TEST_F(InvalidRecoveryTest, UndecodableRecordIsRejected) {
  // Strategy: corrupt a's record; a rebuild that reads it names the
  // partition and offset and says the value does not decode. A rebuild whose
  // marker starts past the corrupt record does not read it and succeeds.
  const int32_t partition = PartitionForKey("a", 2);
  const int64_t offset = log_.Offsets(partition).end - 1;
  const LogRecord* record = log_.Find(partition, offset);
  ASSERT_NE(record, nullptr);
  ASSERT_EQ(record->key, EncodeRecordKey(Key("a", 1)));
  ASSERT_TRUE(DecodeStateValue(record->value).ok());
  ASSERT_TRUE(log_.Corrupt(partition, offset));

  const Status status = Rebuild({{0, 0}, {1, 0}});
  EXPECT_EQ(status.code(), StatusCode::kInvalidRecovery) << status.ToString();
  EXPECT_TRUE(Mentions(status, "partition " + std::to_string(partition) + " offset " + std::to_string(offset)));
  EXPECT_TRUE(Mentions(status, "does not decode"));

  RecoveryMarker past = ModelMarker({{0, 0}, {1, 0}});
  past.offsets[partition] = offset + 1;
  const Status skipped = Rebuild(past);
  EXPECT_TRUE(skipped.ok()) << skipped.ToString();
}

TEST_F(InvalidRecoveryTest, RejectedRebuildLeavesNothingCached) {
  // Strategy: a and b on distinct partitions; corrupt b's record and rebuild
  // from the start. Whichever partition is read first, the rejected rebuild
  // must not leave a half-read cache behind (a's state is not served), and a
  // marker with a bad offset on the last partition is rejected before
  // anything is read.
  const int32_t a_partition = PartitionForKey("a", 2);
  const int32_t b_partition = PartitionForKey("b", 2);
  ASSERT_NE(a_partition, b_partition) << "the test needs a and b on different partitions";
  ASSERT_TRUE(log_.Corrupt(b_partition, log_.Offsets(b_partition).end - 1));
  EXPECT_EQ(Rebuild({{0, 0}, {1, 0}}).code(), StatusCode::kInvalidRecovery);
  EXPECT_EQ(restored_->store.Stats().cached_states, 0u);
  EXPECT_EQ(restored_->store.Stats().bookkeeping_entries, 0u);
  EXPECT_FALSE(restored_->store.Get(Key("a", 1)).has_value());

  RecoveryMarker bad = ModelMarker({{0, 0}, {1, 0}});
  bad.offsets[b_partition] = log_.Offsets(b_partition).end + 1;
  EXPECT_EQ(Rebuild(bad).code(), StatusCode::kInvalidRecovery);
  EXPECT_EQ(restored_->store.Stats().records_scanned, 0u);
  EXPECT_EQ(restored_->store.Stats().cached_states, 0u);
}

TEST_F(InvalidRecoveryTest, RecordWithUnparsableKeyIsRejected) {
  // Strategy: a raw record whose key has no seq/hash fields, with a valid
  // value, is rejected naming its position and its key.
  const RecordPosition at = log_.Append(1, "not-a-record-key", EncodeStateValue(Key("x", 1), StateTagged(1)));
  const Status status = Rebuild({{0, 0}, {1, 0}});
  EXPECT_EQ(status.code(), StatusCode::kInvalidRecovery) << status.ToString();
  EXPECT_TRUE(Mentions(status, "partition 1 offset " + std::to_string(at.offset)));
  EXPECT_TRUE(Mentions(status, "\"not-a-record-key\""));
}

TEST_F(InvalidRecoveryTest, RecordWhoseKeyDisagreesWithItsValueIsRejected) {
  // Strategy: a record keyed a/2 holding the value of a/3: both parse, but
  // they name different states, so the rebuild rejects it. Likewise a value
  // differing only in the action hash.
  const RecordPosition at =
      log_.Append(0, EncodeRecordKey(Key("a", 2)), EncodeStateValue(Key("a", 3), StateTagged(1)));
  const Status status = Rebuild({{0, 0}, {1, 0}});
  EXPECT_EQ(status.code(), StatusCode::kInvalidRecovery) << status.ToString();
  EXPECT_TRUE(Mentions(status, "partition 0 offset " + std::to_string(at.offset)));
  EXPECT_TRUE(Mentions(status, "does not match the state key in its value"));
  EXPECT_TRUE(Mentions(status, EncodeRecordKey(Key("a", 2))));

  KafkaLog other(1);
  other.Append(0, EncodeRecordKey(Key("a", 1)), EncodeStateValue(Key("a", 1, kEvent, kAction + 1), StateTagged(1)));
  Process reader(clock_, other, Config(1));
  const Status hash = reader.store.Rebuild(ModelMarker({{0, 0}}));
  EXPECT_EQ(hash.code(), StatusCode::kInvalidRecovery) << hash.ToString();
  EXPECT_TRUE(Mentions(hash, "does not match the state key in its value"));
}

TEST_F(InvalidRecoveryTest, RebuildFailsWhileBrokerIsDown) {
  // Strategy: an unreachable broker is reported as such, not as invalid data.
  log_.SetDownUntil(clock_.now + milliseconds(10));
  const Status status = Rebuild({{0, 0}, {1, 0}});
  EXPECT_EQ(status.code(), StatusCode::kUnavailable) << status.ToString();
}

// --- Prune and bookkeeping -------------------------------------------------

TEST_F(KafkaActionStateStoreTest, PruneDropsOnlyThatKeysStatesUpToSeq) {
  // Strategy: a/1, a/2 (two actions), a/3 and b/1 cached. Prune(a, 2) drops
  // a/1 and both a/2 states only; b/1 and a/3 stay, and so does a's
  // bookkeeping while a/3 is live. Prune(a, 3) then drops a's bookkeeping;
  // Prune(b, 1) empties the store.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(process, Key("a", 2), StateTagged(2)).ok());
  ASSERT_TRUE(RunPut(process, Key("a", 2, kEvent, kAction + 1), StateTagged(3)).ok());
  ASSERT_TRUE(RunPut(process, Key("a", 3), StateTagged(4)).ok());
  ASSERT_TRUE(RunPut(process, Key("b", 1), StateTagged(5)).ok());
  ASSERT_EQ(process.store.Stats().cached_states, 5u);
  ASSERT_EQ(process.store.Stats().bookkeeping_entries, 2u);

  process.store.Prune("a", 2);
  EXPECT_FALSE(process.store.Get(Key("a", 1)).has_value());
  EXPECT_FALSE(process.store.Get(Key("a", 2)).has_value());
  EXPECT_FALSE(process.store.Get(Key("a", 2, kEvent, kAction + 1)).has_value());
  EXPECT_TRUE(process.store.Get(Key("a", 3)).has_value());
  EXPECT_TRUE(process.store.Get(Key("b", 1)).has_value());
  EXPECT_EQ(process.store.Stats().cached_states, 2u);
  EXPECT_EQ(process.store.Stats().bookkeeping_entries, 2u);

  process.store.Prune("a", 3);
  EXPECT_FALSE(process.store.Get(Key("a", 3)).has_value());
  EXPECT_EQ(process.store.Stats().bookkeeping_entries, 1u);

  process.store.Prune("b", 1);
  EXPECT_EQ(process.store.Stats().cached_states, 0u);
  EXPECT_EQ(process.store.Stats().bookkeeping_entries, 0u);
}

TEST_F(KafkaActionStateStoreTest, PruneBelowAllSeqsOrOfUnknownKeyChangesNothing) {
  // Strategy: Prune(a, 1) when a only has seq 2, and Prune of a key never
  // seen (including a key that is a prefix of a cached one), drop nothing and
  // create no bookkeeping.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(process, Key("a", 2), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(process, Key("a_b", 1), StateTagged(2)).ok());
  process.store.Prune("a", 1);
  process.store.Prune("zzz", 100);
  process.store.Prune("a_", 100);
  EXPECT_TRUE(process.store.Get(Key("a", 2)).has_value());
  EXPECT_TRUE(process.store.Get(Key("a_b", 1)).has_value());
  EXPECT_EQ(process.store.Stats().cached_states, 2u);
  EXPECT_EQ(process.store.Stats().bookkeeping_entries, 2u);
}

TEST_F(KafkaActionStateStoreTest, BookkeepingReturnsToZeroAcrossManyKeys) {
  // Strategy: bounded memory: 50 keys, each put then pruned, leave no cached
  // state and no per-key entry behind (no growth with the number of keys).
  KafkaLog log(2);
  Process process(clock_, log, Config(2));
  for (int i = 0; i < 50; ++i) {
    const std::string key = "k" + std::to_string(i);
    ASSERT_TRUE(RunPut(process, Key(key, 1), StateTagged(i, true)).ok());
    ASSERT_EQ(process.store.Stats().bookkeeping_entries, 1u) << key;
    process.store.Prune(key, 1);
    ASSERT_EQ(process.store.Stats().bookkeeping_entries, 0u) << key;
  }
  EXPECT_EQ(process.store.Stats().cached_states, 0u);
  EXPECT_EQ(log.total_records(), 50u);
}

TEST_F(KafkaActionStateStoreTest, PruneWorksOnRebuiltStates) {
  // Strategy: the per-key index is rebuilt with the cache, so a restored
  // store prunes its states and drops their bookkeeping too.
  KafkaLog log(1);
  Process writer(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(writer, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(writer, Key("a", 2), StateTagged(2)).ok());

  Process restored(clock_, log, Config(1));
  ASSERT_TRUE(restored.store.Rebuild(ModelMarker({{0, 0}})).ok());
  ASSERT_EQ(restored.store.Stats().bookkeeping_entries, 1u);
  restored.store.Prune("a", 1);
  EXPECT_FALSE(restored.store.Get(Key("a", 1)).has_value());
  EXPECT_TRUE(restored.store.Get(Key("a", 2)).has_value());
  EXPECT_EQ(restored.store.Stats().bookkeeping_entries, 1u);
  restored.store.Prune("a", 2);
  EXPECT_EQ(restored.store.Stats().cached_states, 0u);
  EXPECT_EQ(restored.store.Stats().bookkeeping_entries, 0u);
}

TEST_F(KafkaActionStateStoreTest, PruneWithTombstonesAppendsThemAndRebuildForgetsThoseStates) {
  // Strategy: with tombstones on, Prune(a, 1) appends one empty-valued record
  // per dropped state (a/1 on two actions), without waiting; a rebuild from
  // the start of a checkpoint at which a/1 was finished then forgets a/1 and
  // keeps a/2, with a's bookkeeping. A checkpoint older than the prune (a/1
  // not finished there) is rejected at the first tombstone (#691). Without
  // tombstones the same prune appends nothing.
  KafkaLog log(1);
  SimClock clock;
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, Config(1));
  KafkaActionStateStore store(client, /*tombstones=*/true);
  ASSERT_TRUE(RunPut(scheduler, store, Key("a", 1), StateTagged(1, true)).ok());
  ASSERT_TRUE(RunPut(scheduler, store, Key("a", 1, kEvent, kAction + 1), StateTagged(2, true)).ok());
  ASSERT_TRUE(RunPut(scheduler, store, Key("a", 2), StateTagged(3)).ok());
  store.Prune("a", 1);
  ASSERT_EQ(log.total_records(), 5u);  // flushed at once
  EXPECT_EQ(log.Read(0, 3, 5)[0].value, "");
  EXPECT_EQ(log.Read(0, 3, 5)[1].value, "");
  EXPECT_EQ(log.Read(0, 3, 5)[0].key, EncodeRecordKey(Key("a", 1)));

  Process restored(clock_, log, Config(1));
  const Status older = restored.store.Rebuild(ModelMarker({{0, 0}}));
  EXPECT_EQ(older.code(), StatusCode::kInvalidRecovery) << older.ToString();
  EXPECT_TRUE(Mentions(older, "partition 0 offset 3: a tombstone removes the state of key \"a\" sequence number 1, "
                              "which this checkpoint still needs (finished there: up to 0)"));
  EXPECT_EQ(restored.store.Stats().cached_states, 0u);
  RecoveryMarker after_prune = ModelMarker({{0, 0}});
  after_prune.completed = {{"a", 1}};
  ASSERT_TRUE(restored.store.Rebuild(after_prune).ok());
  EXPECT_FALSE(restored.store.Get(Key("a", 1)).has_value());
  EXPECT_FALSE(restored.store.Get(Key("a", 1, kEvent, kAction + 1)).has_value());
  EXPECT_TRUE(restored.store.Get(Key("a", 2)).has_value());
  EXPECT_EQ(restored.store.Stats().cached_states, 1u);
  EXPECT_EQ(restored.store.Stats().bookkeeping_entries, 1u);
  EXPECT_EQ(restored.store.Stats().records_scanned, 5u);

  restored.store.Prune("a", 2);  // this store has tombstones off
  EXPECT_EQ(log.total_records(), 5u);
}

TEST_F(KafkaActionStateStoreTest, RecordsScannedReportsWhatTheRebuildRead) {
  // Strategy: 3 records on partition 0 (key b) and 2 on partition 3 (key
  // a) of 4. A rebuild from {0:1, 3:0} reads 2 + 2 = 4; one from the end
  // reads 0; the count is per rebuild, not cumulative. Superseded records
  // count as scanned even though only the latest is cached.
  ASSERT_EQ(PartitionForKey("b", 4), 0);
  ASSERT_EQ(PartitionForKey("a", 4), 3);
  KafkaLog log(4);
  Process writer(clock_, log, Config(4));
  ASSERT_TRUE(RunPut(writer, Key("b", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(writer, Key("b", 1), StateTagged(2)).ok());
  ASSERT_TRUE(RunPut(writer, Key("b", 2), StateTagged(3)).ok());
  ASSERT_TRUE(RunPut(writer, Key("a", 1), StateTagged(4)).ok());
  ASSERT_TRUE(RunPut(writer, Key("a", 1), StateTagged(5)).ok());
  EXPECT_EQ(writer.store.Stats().records_scanned, 0u);

  Process restored(clock_, log, Config(4));
  ASSERT_TRUE(restored.store.Rebuild(ModelMarker({{0, 1}, {1, 0}, {2, 0}, {3, 0}})).ok());
  EXPECT_EQ(restored.store.Stats().records_scanned, 4u);
  EXPECT_EQ(restored.store.Stats().cached_states, 3u);
  EXPECT_EQ(*restored.store.Get(Key("b", 1)), StateTagged(2));
  EXPECT_EQ(*restored.store.Get(Key("a", 1)), StateTagged(5));

  ASSERT_TRUE(restored.store.Rebuild(ModelMarker({{0, 3}, {1, 0}, {2, 0}, {3, 2}})).ok());
  EXPECT_EQ(restored.store.Stats().records_scanned, 0u);
  EXPECT_EQ(restored.store.Stats().cached_states, 0u);
}

}  // namespace
}  // namespace durasim

namespace durasim {
namespace {

// A client whose fetches return nothing `empty_fetches` times (each saying
// it waited `wait`), then one record per fetch, and which appends a record
// to the log during the rebuild: a rebuild must read to the end it
// captured, no further and no less.
class DribblingClient : public ForwardingLogClient {
 public:
  DribblingClient(LogClient& inner, KafkaLog& log, int empty_fetches, std::chrono::milliseconds wait)
      : ForwardingLogClient(inner), log_(log), empty_fetches_(empty_fetches), wait_(wait) {}
  Result<FetchResult> Fetch(int32_t partition, int64_t from, int64_t /*to*/) override {
    ++fetches;
    if (empty_fetches_-- > 0) return FetchResult{{}, from, wait_};
    if (!appended_) {
      appended_ = true;
      log_.Append(partition, EncodeRecordKey(Key("late", 1)), EncodeStateValue(Key("late", 1), StateTagged(9)));
    }
    Result<std::vector<LogRecord>> one = inner().Read(partition, from, from + 1);
    if (!one.ok()) return one.status();
    return FetchResult{std::move(one).value(), from + 1, std::chrono::milliseconds(0)};
  }
  int fetches = 0;

 private:
  KafkaLog& log_;
  int empty_fetches_;
  std::chrono::milliseconds wait_;
  bool appended_ = false;
};

TEST_F(KafkaActionStateStoreTest, RebuildReadsPastEmptyFetchesToTheCapturedEnd) {
  // Strategy: three states at offsets 0..2; the rebuild meets five empty
  // fetches, then gets one record per fetch while a fourth record is
  // appended: it reads exactly offsets 0..2 (three scans) and not the late
  // record.
  KafkaLog log(1);
  {
    Process first(clock_, log, Config(1));
    for (int64_t seq = 1; seq <= 3; ++seq) ASSERT_TRUE(RunPut(first, Key("a", seq), StateTagged(seq)).ok());
  }
  Process restored(clock_, log, Config(1));
  DribblingClient client(restored.client, log, 5, std::chrono::milliseconds(100));
  KafkaActionStateStore store(client);
  ASSERT_TRUE(store.Rebuild(ModelMarker({{0, 0}})).ok());
  EXPECT_EQ(store.Stats().records_scanned, 3u);
  EXPECT_EQ(store.Stats().cached_states, 3u);
  EXPECT_FALSE(store.Get(Key("late", 1)).has_value());
  EXPECT_EQ(client.fetches, 8);
  EXPECT_EQ(log.Offsets(0).end, 4);
}

TEST_F(KafkaActionStateStoreTest, RebuildGivesUpAfterTheNoProgressBound) {
  // Strategy: fetches that return nothing for longer than 30 s of waiting
  // (301 of 100 ms): the rebuild fails kUnavailable naming the partition and
  // offset, and keeps nothing; fetches that never say they waited are
  // bounded too (one millisecond each).
  KafkaLog log(1);
  {
    Process first(clock_, log, Config(1));
    ASSERT_TRUE(RunPut(first, Key("a", 1), StateTagged(1)).ok());
  }
  Process restored(clock_, log, Config(1));
  DribblingClient slow(restored.client, log, 301, std::chrono::milliseconds(100));
  KafkaActionStateStore store(slow);
  const Status rebuilt = store.Rebuild(ModelMarker({{0, 0}}));
  EXPECT_EQ(rebuilt.code(), StatusCode::kUnavailable) << rebuilt.ToString();
  EXPECT_NE(rebuilt.message().find("no progress for 30000 ms at partition 0 offset 0"), std::string::npos)
      << rebuilt.message();
  EXPECT_EQ(slow.fetches, 300);
  EXPECT_EQ(store.Stats().cached_states, 0u);
  DribblingClient mute(restored.client, log, 1'000'000, std::chrono::milliseconds(0));
  KafkaActionStateStore other(mute);
  EXPECT_EQ(other.Rebuild(ModelMarker({{0, 0}})).code(), StatusCode::kUnavailable);
  EXPECT_EQ(mute.fetches, 30'000);
}

}  // namespace
}  // namespace durasim

// --- kafka-rewrite: the snapshot's rewrites --------------------------------

namespace durasim {
namespace {

// Runs the store's snapshot writes to completion and returns their status.
Status RunCompleteSnapshot(Scheduler& scheduler, ActionStateStore& store, const CompletedBoundaries& completed,
                           const RecoveryMarker& marker) {
  auto outcome = std::make_shared<std::optional<Status>>();
  boost::asio::co_spawn(
      scheduler.executor(),
      [&store, completed, marker, outcome]() -> boost::asio::awaitable<void> {
        *outcome = co_await store.CompleteSnapshot(completed, marker);
      },
      RethrowOnError);
  EXPECT_EQ(scheduler.Run(scheduler.now() + kRunDeadline), Scheduler::RunEnd::kIdle);
  return outcome->value_or(Status(StatusCode::kInternal, "the snapshot writes did not finish"));
}

StoreOptions Rewrite() { return StoreOptions{StoreDesign::kKafkaRewrite, false, false}; }

TEST_F(KafkaActionStateStoreTest, RewriteWritesUnfinishedStatesAtOrAfterTheEndOffsetMarker) {
  // Strategy: a/1 unfinished, b/1 finished. kafka-rewrite's marker is the
  // end offset (2, no rewind); its snapshot writes a/1 again at offset 2 and
  // only that; a new process rebuilding from the marker finds a/1 (not b/1).
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  KafkaActionStateStore store(process.client, Rewrite());
  ASSERT_TRUE(RunPut(process.scheduler, store, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(process.scheduler, store, Key("b", 1), StateTagged(2)).ok());
  const CompletedBoundaries completed = {{"b", 1}};
  const RecoveryMarker marker = MarkerOrDie(store, completed);
  EXPECT_EQ(marker, (ModelMarker({{0, 2}})));
  ASSERT_TRUE(RunCompleteSnapshot(process.scheduler, store, completed, marker).ok());
  EXPECT_EQ(log.Offsets(0).end, 3);
  EXPECT_EQ(store.Stats().snapshot_records, 1u);
  EXPECT_GT(store.Stats().snapshot_bytes, 0u);

  Process restored(clock_, log, Config(1));
  KafkaActionStateStore rebuilt(restored.client, Rewrite());
  ASSERT_TRUE(rebuilt.Rebuild(marker).ok());
  ASSERT_TRUE(rebuilt.Get(Key("a", 1)).has_value());
  EXPECT_EQ(*rebuilt.Get(Key("a", 1)), StateTagged(1));
  EXPECT_FALSE(rebuilt.Get(Key("b", 1)).has_value());
  EXPECT_EQ(rebuilt.Stats().records_scanned, 1u);
}

TEST_F(KafkaActionStateStoreTest, RewindWritesNothingAtSnapshot) {
  // Strategy: the same states on kafka-rewind: the marker is rewound to a/1
  // (offset 0) and the snapshot writes nothing.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  ASSERT_TRUE(RunPut(process, Key("a", 1), StateTagged(1)).ok());
  ASSERT_TRUE(RunPut(process, Key("b", 1), StateTagged(2)).ok());
  const RecoveryMarker marker = MarkerOrDie(process.store, {{"b", 1}});
  EXPECT_EQ(marker, (ModelMarker({{0, 0}})));
  ASSERT_TRUE(RunCompleteSnapshot(process.scheduler, process.store, {{"b", 1}}, marker).ok());
  EXPECT_EQ(log.Offsets(0).end, 2);
  EXPECT_EQ(process.store.Stats().snapshot_records, 0u);
}

TEST_F(KafkaActionStateStoreTest, RefusedRewriteFailsTheSnapshotAndKeepsTheCachedPosition) {
  // Strategy: the broker refuses the rewrite (put 2): the snapshot fails
  // with kNotPersisted naming the rewrite, and the log holds only the first
  // record, below the end-offset marker: a snapshot handed over now would
  // hide a/1 from its restore, so the runtime declines the checkpoint.
  KafkaLog log(1);
  Process process(clock_, log, Config(1));
  std::vector<std::string> fired;
  FaultPlan plan(StrictHooks(&fired));
  plan.Arm(FaultKind::kRejectPut, 2);
  FaultyLogClient faulty(process.client, plan);
  KafkaActionStateStore store(faulty, Rewrite());
  ASSERT_TRUE(RunPut(process.scheduler, store, Key("a", 1), StateTagged(1)).ok());
  const RecoveryMarker marker = MarkerOrDie(store, {});
  const Status written = RunCompleteSnapshot(process.scheduler, store, {}, marker);
  EXPECT_EQ(written.code(), StatusCode::kNotPersisted) << written.ToString();
  EXPECT_TRUE(Mentions(written, "rewrite of state"));
  EXPECT_EQ(log.total_records(), 1u);
  EXPECT_EQ(fired.size(), 1u);
}

}  // namespace
}  // namespace durasim
