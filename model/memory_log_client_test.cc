// Tests of the log model: KafkaLog (the broker's durable state),
// MemoryLogClient (the producer in simulated time: linger, acknowledgement
// latency, broker outages, crashes), FaultyLogClient driven by a FaultPlan,
// and the Mailbox that serialises the runtime's coroutines.
#include "model/memory_log_client.h"

#include <gtest/gtest.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/fault_plan.h"
#include "model/faulty_log_client.h"
#include "model/kafka_log.h"
#include "model/mailbox.h"
#include "model/scheduler.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

LogConfig TestConfig() {
  LogConfig config;
  config.partitions = 2;
  config.linger_ms = 5;
  config.ack_latency_ms = 1;
  config.delivery_timeout_ms = 300;
  return config;
}

// What a waiter for an acknowledgement saw, and when.
struct AckSeen {
  std::optional<Result<RecordPosition>> result;
  SimTime at{-1};
};

asio::awaitable<void> AwaitAckInto(LogClient& client, ProduceTicket ticket, const SimClock& clock, AckSeen& seen) {
  seen.result = co_await client.AwaitAck(ticket);
  seen.at = clock.now;
}

// Spawns a waiter for `ticket`; a coroutine that throws fails the test.
void SpawnAwait(Scheduler& scheduler, LogClient& client, ProduceTicket ticket, const SimClock& clock,
                AckSeen& seen) {
  asio::co_spawn(scheduler.executor(), AwaitAckInto(client, ticket, clock, seen), [](std::exception_ptr error) {
    if (error) ADD_FAILURE() << "ack waiter threw";
  });
}

// Records the simulated time of every append to `log`.
struct AppendWatch {
  std::vector<SimTime> times;
  std::vector<std::string> keys;
};
void WatchAppends(KafkaLog& log, const SimClock& clock, AppendWatch& watch) {
  log.set_append_listener([&clock, &watch](const LogRecord& record) {
    watch.times.push_back(clock.now);
    watch.keys.push_back(record.key);
  });
}

// ---------------------------------------------------------------- KafkaLog

TEST(KafkaLogTest, AppendAssignsOffsetsPerPartition) {
  // Strategy: appends to two partitions get dense offsets from 0 in each;
  // Offsets reports [0, count) per partition; the append listener sees each
  // stored record.
  KafkaLog log(2);
  std::vector<LogRecord> seen;
  log.set_append_listener([&](const LogRecord& record) { seen.push_back(record); });
  EXPECT_EQ(log.Append(0, "a", "1"), (RecordPosition{0, 0}));
  EXPECT_EQ(log.Append(1, "b", "2"), (RecordPosition{1, 0}));
  EXPECT_EQ(log.Append(0, "c", "3"), (RecordPosition{0, 1}));

  EXPECT_EQ(log.partitions(), 2);
  EXPECT_EQ(log.total_records(), 3u);
  EXPECT_EQ(log.Offsets(0).start, 0);
  EXPECT_EQ(log.Offsets(0).end, 2);
  EXPECT_EQ(log.Offsets(1).start, 0);
  EXPECT_EQ(log.Offsets(1).end, 1);

  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[2].partition, 0);
  EXPECT_EQ(seen[2].offset, 1);
  EXPECT_EQ(seen[2].key, "c");
  EXPECT_EQ(seen[2].value, "3");
}

TEST(KafkaLogTest, ReadReturnsTheRangeClippedToThePartition) {
  // Strategy: reads of [from, to) ranges inside, across and outside the
  // partition's records return exactly the records in both, in offset order.
  KafkaLog log(1);
  for (int i = 0; i < 4; ++i) (void)log.Append(0, "k" + std::to_string(i), "v" + std::to_string(i));

  auto offsets_of = [&](int64_t from, int64_t to) {
    std::vector<int64_t> offsets;
    for (const LogRecord& record : log.Read(0, from, to)) offsets.push_back(record.offset);
    return offsets;
  };
  EXPECT_EQ(offsets_of(0, 4), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(offsets_of(1, 3), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(offsets_of(2, 100), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(offsets_of(-5, 1), (std::vector<int64_t>{0}));
  EXPECT_TRUE(offsets_of(2, 2).empty());
  EXPECT_TRUE(offsets_of(3, 1).empty());
  EXPECT_TRUE(offsets_of(4, 10).empty());

  const std::vector<LogRecord> records = log.Read(0, 1, 2);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].key, "k1");
  EXPECT_EQ(records[0].value, "v1");
}

TEST(KafkaLogTest, FindAndCorrupt) {
  // Strategy: Find returns the stored record or nullptr for any position the
  // log does not hold (bad partition, negative or past-the-end offset).
  // Corrupt rewrites only the value of an existing record, and returns false,
  // changing nothing, for a missing one.
  KafkaLog log(2);
  (void)log.Append(1, "key", "value");

  const LogRecord* found = log.Find(1, 0);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->key, "key");
  EXPECT_EQ(found->value, "value");
  EXPECT_EQ(log.Find(0, 0), nullptr);
  EXPECT_EQ(log.Find(1, 1), nullptr);
  EXPECT_EQ(log.Find(1, -1), nullptr);
  EXPECT_EQ(log.Find(2, 0), nullptr);
  EXPECT_EQ(log.Find(-1, 0), nullptr);

  EXPECT_FALSE(log.Corrupt(0, 0));
  EXPECT_FALSE(log.Corrupt(1, 1));
  EXPECT_FALSE(log.Corrupt(1, -1));
  EXPECT_FALSE(log.Corrupt(5, 0));
  EXPECT_EQ(log.Find(1, 0)->value, "value");
  EXPECT_EQ(log.total_records(), 1u);

  EXPECT_TRUE(log.Corrupt(1, 0));
  EXPECT_EQ(log.Find(1, 0)->key, "key");
  EXPECT_NE(log.Find(1, 0)->value, "value");
  EXPECT_EQ(log.total_records(), 1u);
}

TEST(KafkaLogTest, AvailabilityWindow) {
  // Strategy: the broker is down strictly before down_until and up from it.
  KafkaLog log(1);
  EXPECT_TRUE(log.IsUp(SimTime(0)));
  log.SetDownUntil(milliseconds(50));
  EXPECT_FALSE(log.IsUp(SimTime(0)));
  EXPECT_FALSE(log.IsUp(SimTime(49999)));
  EXPECT_TRUE(log.IsUp(milliseconds(50)));
  EXPECT_EQ(log.down_until(), milliseconds(50));
}

// --------------------------------------------------------- MemoryLogClient

TEST(MemoryLogClientTest, ProduceWithoutFlushIsSentAfterLinger) {
  // Strategy: a produce at t=0 stays buffered (log empty) until the 5 ms
  // linger; it is appended at 5 ms and acknowledged 1 ms later, at 6 ms,
  // with its position.
  SimClock clock;
  KafkaLog log(2);
  AppendWatch appends;
  WatchAppends(log, clock, appends);
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());

  const ProduceTicket ticket = client.Produce(1, "k", "v");
  EXPECT_EQ(client.buffered(), 1u);
  AckSeen seen;
  SpawnAwait(scheduler, client, ticket, clock, seen);

  EXPECT_EQ(scheduler.Run(SimTime(4999)), Scheduler::RunEnd::kDeadline);
  EXPECT_EQ(log.total_records(), 0u);
  EXPECT_FALSE(seen.result.has_value());

  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(appends.times, std::vector<SimTime>{milliseconds(5)});
  EXPECT_EQ(client.buffered(), 0u);
  ASSERT_TRUE(seen.result.has_value());
  ASSERT_TRUE(seen.result->ok()) << seen.result->status().ToString();
  EXPECT_EQ(seen.result->value(), (RecordPosition{1, 0}));
  EXPECT_EQ(seen.at, milliseconds(6));
  const LogRecord* record = log.Find(1, 0);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->key, "k");
  EXPECT_EQ(record->value, "v");
}

TEST(MemoryLogClientTest, FlushSendsAtOnce) {
  // Strategy: Produce then Flush at t=2 ms appends before any handler runs;
  // the acknowledgement comes at 3 ms, not after the linger. Records keep
  // their produce order in the partition.
  SimClock clock;
  clock.now = milliseconds(2);
  KafkaLog log(2);
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());

  const ProduceTicket first = client.Produce(0, "k1", "v1");
  const ProduceTicket second = client.Produce(0, "k2", "v2");
  client.Flush();
  EXPECT_EQ(client.buffered(), 0u);
  ASSERT_EQ(log.total_records(), 2u);
  EXPECT_EQ(log.Find(0, 0)->key, "k1");
  EXPECT_EQ(log.Find(0, 1)->key, "k2");

  AckSeen seen_first;
  AckSeen seen_second;
  SpawnAwait(scheduler, client, first, clock, seen_first);
  SpawnAwait(scheduler, client, second, clock, seen_second);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  ASSERT_TRUE(seen_first.result.has_value());
  ASSERT_TRUE(seen_second.result.has_value());
  ASSERT_TRUE(seen_first.result->ok());
  ASSERT_TRUE(seen_second.result->ok());
  EXPECT_EQ(seen_first.result->value(), (RecordPosition{0, 0}));
  EXPECT_EQ(seen_second.result->value(), (RecordPosition{0, 1}));
  EXPECT_EQ(seen_first.at, milliseconds(3));
  EXPECT_EQ(seen_second.at, milliseconds(3));
  EXPECT_EQ(log.total_records(), 2u);  // the later linger sends nothing twice
}

TEST(MemoryLogClientTest, CrashBeforeLingerLosesTheUnsentRecord) {
  // Strategy: produce, run to 3 ms (before the 5 ms linger), then destroy the
  // client and its scheduler (a crash). The log stays empty, also after a new
  // scheduler and client run well past the old linger.
  SimClock clock;
  KafkaLog log(2);
  {
    Scheduler scheduler(clock);
    MemoryLogClient client(scheduler, log, TestConfig());
    (void)client.Produce(0, "k", "v");
    EXPECT_EQ(scheduler.Run(milliseconds(3)), Scheduler::RunEnd::kDeadline);
    EXPECT_EQ(client.buffered(), 1u);
  }
  EXPECT_EQ(log.total_records(), 0u);

  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(log.total_records(), 0u);
}

TEST(MemoryLogClientTest, RecordSentBeforeACrashStaysInTheLog) {
  // Strategy: produce and flush, start waiting for the acknowledgement, and
  // crash at t=0 before the 1 ms acknowledgement is delivered. The waiter
  // never hears back, but the log holds the record.
  SimClock clock;
  KafkaLog log(2);
  AckSeen seen;
  {
    Scheduler scheduler(clock);
    MemoryLogClient client(scheduler, log, TestConfig());
    const ProduceTicket ticket = client.Produce(1, "k", "v");
    client.Flush();
    SpawnAwait(scheduler, client, ticket, clock, seen);
    EXPECT_EQ(scheduler.Run(SimTime(0)), Scheduler::RunEnd::kDeadline);
  }
  EXPECT_FALSE(seen.result.has_value());
  EXPECT_EQ(log.total_records(), 1u);
  const LogRecord* record = log.Find(1, 0);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->key, "k");
  EXPECT_EQ(record->value, "v");
}

TEST(MemoryLogClientTest, ProduceWhileDownIsAppendedWhenTheBrokerReturnsInTime) {
  // Strategy: the broker is down until 50 ms, well inside the 300 ms delivery
  // timeout. A produce at t=0 is not appended at the 5 ms linger but at
  // 50 ms, and acknowledged at 51 ms.
  SimClock clock;
  KafkaLog log(2);
  log.SetDownUntil(milliseconds(50));
  AppendWatch appends;
  WatchAppends(log, clock, appends);
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());

  const ProduceTicket ticket = client.Produce(0, "k", "v");
  AckSeen seen;
  SpawnAwait(scheduler, client, ticket, clock, seen);

  EXPECT_EQ(scheduler.Run(milliseconds(49)), Scheduler::RunEnd::kDeadline);
  EXPECT_EQ(log.total_records(), 0u);
  EXPECT_EQ(client.buffered(), 1u);

  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(appends.times, std::vector<SimTime>{milliseconds(50)});
  ASSERT_TRUE(seen.result.has_value());
  ASSERT_TRUE(seen.result->ok()) << seen.result->status().ToString();
  EXPECT_EQ(seen.result->value(), (RecordPosition{0, 0}));
  EXPECT_EQ(seen.at, milliseconds(51));
}

TEST(MemoryLogClientTest, ProduceWhileDownUntilExactlyTheTimeoutIsAppended) {
  // Strategy: the boundary: the broker returns exactly delivery_timeout_ms
  // after the produce; the record is appended then, not failed.
  SimClock clock;
  KafkaLog log(2);
  log.SetDownUntil(milliseconds(300));
  AppendWatch appends;
  WatchAppends(log, clock, appends);
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());

  const ProduceTicket ticket = client.Produce(0, "k", "v");
  AckSeen seen;
  SpawnAwait(scheduler, client, ticket, clock, seen);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(appends.times, std::vector<SimTime>{milliseconds(300)});
  ASSERT_TRUE(seen.result.has_value());
  EXPECT_TRUE(seen.result->ok()) << seen.result->status().ToString();
}

TEST(MemoryLogClientTest, ProduceWhileDownTooLongFailsAsNotPersisted) {
  // Strategy: the broker is down until 1 s, past the 300 ms delivery
  // timeout. The produce at t=0 fails with kNotPersisted at 300 ms, and the
  // log never holds it, also after the broker returns.
  SimClock clock;
  KafkaLog log(2);
  log.SetDownUntil(seconds(1));
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());

  const ProduceTicket ticket = client.Produce(0, "k", "v");
  AckSeen seen;
  SpawnAwait(scheduler, client, ticket, clock, seen);
  EXPECT_EQ(scheduler.Run(seconds(5)), Scheduler::RunEnd::kIdle);

  ASSERT_TRUE(seen.result.has_value());
  ASSERT_FALSE(seen.result->ok());
  EXPECT_EQ(seen.result->status().code(), StatusCode::kNotPersisted) << seen.result->status().ToString();
  EXPECT_EQ(seen.at, milliseconds(300));
  EXPECT_EQ(client.buffered(), 0u);
  EXPECT_EQ(log.total_records(), 0u);
}

TEST(MemoryLogClientTest, TimeoutIsPerRecordFromItsProduce) {
  // Strategy: broker down until 1 s; one record produced at 0 and one at
  // 200 ms. Each fails exactly 300 ms after its own produce (300 ms and
  // 500 ms), not together.
  SimClock clock;
  KafkaLog log(1);
  log.SetDownUntil(seconds(1));
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());

  AckSeen first;
  AckSeen second;
  SpawnAwait(scheduler, client, client.Produce(0, "a", "1"), clock, first);
  scheduler.AsyncSleep(milliseconds(200),
                       [&](ErrorCode) { SpawnAwait(scheduler, client, client.Produce(0, "b", "2"), clock, second); });
  EXPECT_EQ(scheduler.Run(seconds(5)), Scheduler::RunEnd::kIdle);

  ASSERT_TRUE(first.result.has_value());
  ASSERT_TRUE(second.result.has_value());
  EXPECT_EQ(first.result->status().code(), StatusCode::kNotPersisted);
  EXPECT_EQ(second.result->status().code(), StatusCode::kNotPersisted);
  EXPECT_EQ(first.at, milliseconds(300));
  EXPECT_EQ(second.at, milliseconds(500));
  EXPECT_EQ(log.total_records(), 0u);
}

TEST(MemoryLogClientTest, OffsetsAndReadAreUnavailableWhileDown) {
  // Strategy: with records in the log and the broker down until 10 ms,
  // Offsets and Read fail with kUnavailable; from 10 ms they return the
  // partition ranges and the records. A read of a missing partition is
  // kInvalidArgument.
  SimClock clock;
  KafkaLog log(2);
  (void)log.Append(0, "a", "1");
  (void)log.Append(1, "b", "2");
  (void)log.Append(1, "c", "3");
  log.SetDownUntil(milliseconds(10));
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());
  EXPECT_EQ(client.partition_count(), 2);

  const Result<std::vector<PartitionOffsets>> offsets_down = client.Offsets();
  ASSERT_FALSE(offsets_down.ok());
  EXPECT_EQ(offsets_down.status().code(), StatusCode::kUnavailable);
  const Result<std::vector<LogRecord>> read_down = client.Read(1, 0, 2);
  ASSERT_FALSE(read_down.ok());
  EXPECT_EQ(read_down.status().code(), StatusCode::kUnavailable);

  clock.now = milliseconds(10);
  const Result<std::vector<PartitionOffsets>> offsets = client.Offsets();
  ASSERT_TRUE(offsets.ok());
  ASSERT_EQ(offsets->size(), 2u);
  EXPECT_EQ((*offsets)[0].end, 1);
  EXPECT_EQ((*offsets)[1].start, 0);
  EXPECT_EQ((*offsets)[1].end, 2);
  const Result<std::vector<LogRecord>> read = client.Read(1, 1, 2);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ((*read)[0].key, "c");

  const Result<std::vector<LogRecord>> bad = client.Read(2, 0, 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(MemoryLogClientTest, AwaitAckOfAnUnknownTicketIsInternal) {
  // Strategy: waiting on a ticket never produced (or already consumed)
  // returns kInternal instead of hanging.
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient client(scheduler, log, TestConfig());
  AckSeen never_produced;
  SpawnAwait(scheduler, client, 99, clock, never_produced);

  const ProduceTicket ticket = client.Produce(0, "k", "v");
  client.Flush();
  AckSeen first;
  SpawnAwait(scheduler, client, ticket, clock, first);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  AckSeen again;
  SpawnAwait(scheduler, client, ticket, clock, again);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);

  ASSERT_TRUE(never_produced.result.has_value());
  EXPECT_EQ(never_produced.result->status().code(), StatusCode::kInternal);
  ASSERT_TRUE(first.result.has_value());
  EXPECT_TRUE(first.result->ok());
  ASSERT_TRUE(again.result.has_value());
  EXPECT_EQ(again.result->status().code(), StatusCode::kInternal);
}

// ------------------------------------------------- FaultyLogClient + plan

// A FaultPlan whose hooks only record what they were asked to do.
struct PlanProbe {
  std::vector<std::string> crashes;
  int cancels = 0;
  std::vector<std::string> records;
  std::function<void()> on_crash;   // optional extra action
  std::function<void()> on_cancel;  // optional extra action

  FaultPlan::Hooks Hooks() {
    FaultPlan::Hooks hooks;
    hooks.crash = [this](const std::string& reason) {
      crashes.push_back(reason);
      if (on_crash) on_crash();
    };
    hooks.cancel_wait = [this] {
      ++cancels;
      if (on_cancel) on_cancel();
    };
    hooks.fired = [this](FaultKind fault, int64_t nth, std::optional<PutPoint> /*put*/) {
      records.push_back("fault.fired fault=" + std::string(FaultKindName(fault)) + " nth=" + std::to_string(nth));
    };
    return hooks;
  }
};

// Produces keys k1..kN through `client`, flushes, and waits for each.
std::vector<AckSeen> ProduceAndAwait(Scheduler& scheduler, LogClient& client, const SimClock& clock, int count) {
  std::vector<AckSeen> seen(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    const ProduceTicket ticket = client.Produce(0, "k" + std::to_string(i + 1), "v" + std::to_string(i + 1));
    SpawnAwait(scheduler, client, ticket, clock, seen[static_cast<size_t>(i)]);
  }
  client.Flush();
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  return seen;
}

TEST(FaultyLogClientTest, RejectPutRejectsOnlyTheNthPut) {
  // Strategy: reject_put nth=2 over three puts: the 2nd fails with
  // kNotPersisted and is never forwarded (the log holds k1 and k3 only); the
  // 1st and 3rd are acknowledged; the fault is traced once.
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient inner(scheduler, log, TestConfig());
  PlanProbe probe;
  FaultPlan plan(probe.Hooks());
  plan.Arm(FaultKind::kRejectPut, 2);
  FaultyLogClient client(inner, plan);

  const std::vector<AckSeen> seen = ProduceAndAwait(scheduler, client, clock, 3);
  ASSERT_EQ(seen.size(), 3u);
  for (const AckSeen& s : seen) ASSERT_TRUE(s.result.has_value());
  EXPECT_TRUE(seen[0].result->ok());
  EXPECT_EQ(seen[1].result->status().code(), StatusCode::kNotPersisted);
  EXPECT_TRUE(seen[2].result->ok());
  EXPECT_EQ(seen[2].result->value(), (RecordPosition{0, 1}));

  ASSERT_EQ(log.total_records(), 2u);
  EXPECT_EQ(log.Find(0, 0)->key, "k1");
  EXPECT_EQ(log.Find(0, 1)->key, "k3");
  EXPECT_EQ(probe.records, std::vector<std::string>{"fault.fired fault=reject_put nth=2"});
  EXPECT_TRUE(probe.crashes.empty());
}

TEST(FaultyLogClientTest, LoseAckReportsPossiblyPersistedWhileTheLogHoldsTheRecord) {
  // Strategy: lose_ack nth=1: the put is forwarded and persisted, but its
  // waiter hears kPossiblyPersisted; a lost acknowledgement does not count
  // as acknowledged, so crash_after_put_acked nth=1 fires on the 2nd put.
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient inner(scheduler, log, TestConfig());
  PlanProbe probe;
  FaultPlan plan(probe.Hooks());
  plan.Arm(FaultKind::kLoseAck, 1);
  plan.Arm(FaultKind::kCrashAfterPutAcked, 1);
  FaultyLogClient client(inner, plan);

  const std::vector<AckSeen> seen = ProduceAndAwait(scheduler, client, clock, 2);
  ASSERT_TRUE(seen[0].result.has_value());
  EXPECT_EQ(seen[0].result->status().code(), StatusCode::kPossiblyPersisted);
  ASSERT_TRUE(seen[1].result.has_value());
  EXPECT_TRUE(seen[1].result->ok());
  ASSERT_EQ(log.total_records(), 2u);
  EXPECT_EQ(log.Find(0, 0)->key, "k1");
  EXPECT_EQ(probe.crashes, std::vector<std::string>{"crash after put 1 was acknowledged"});
}

// A broker's write-fault controls that answer as told and record the calls.
struct BrokerProbe : BrokerWriteFaults {
  Result<RecordPosition> refusal = Status(StatusCode::kNotPersisted, "INVALID_RECORD");
  std::vector<std::string> calls;

  Result<RecordPosition> SendRefused(int32_t partition, std::string key, std::string /*value*/) override {
    calls.push_back("refuse " + std::to_string(partition) + " " + key);
    return refusal;
  }
  void LoseAckOf(int32_t partition, const std::string& key, const std::string& /*value*/) override {
    calls.push_back("lose " + std::to_string(partition) + " " + key);
  }
  void ForgetLostAck(int32_t partition, const std::string& key, const std::string& /*value*/) override {
    calls.push_back("forget " + std::to_string(partition) + " " + key);
  }
};

TEST(FaultyLogClientTest, BrokerRefusalGivesTheModelsAnswerAndAnUnexpectedOneIsInternal) {
  // Strategy: with the broker's controls, reject_put nth=1 sends the record
  // to be refused (never through the inner client) and the waiter hears the
  // model's words; a broker that acknowledges the refused record instead is
  // a kInternal error naming the offset.
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient inner(scheduler, log, TestConfig());
  PlanProbe probe;
  FaultPlan plan(probe.Hooks());
  plan.Arm(FaultKind::kRejectPut, 1);
  plan.Arm(FaultKind::kRejectPut, 2);
  BrokerProbe broker;
  FaultyLogClient client(inner, plan, &broker);

  std::vector<AckSeen> seen = ProduceAndAwait(scheduler, client, clock, 1);
  ASSERT_TRUE(seen[0].result.has_value());
  EXPECT_EQ(seen[0].result->status().ToString(), "not-persisted: put 1 rejected by the broker");
  EXPECT_EQ(broker.calls, std::vector<std::string>{"refuse 0 k1"});
  EXPECT_EQ(log.total_records(), 0u);

  broker.refusal = RecordPosition{0, 7};
  seen = ProduceAndAwait(scheduler, client, clock, 1);
  ASSERT_TRUE(seen[0].result.has_value());
  EXPECT_EQ(seen[0].result->status().code(), StatusCode::kInternal);
  EXPECT_NE(seen[0].result->status().message().find("answered offset 7"), std::string::npos)
      << seen[0].result->status().ToString();
}

TEST(FaultyLogClientTest, BrokerLostAckIsAnnouncedAndAnAcknowledgementAnywayIsInternal) {
  // Strategy: with the broker's controls, lose_ack nth=1 announces the record
  // to the broker before producing it; the inner (model) client acknowledges
  // it, which a broker that was to lose it must not do: kInternal. A lost-ack
  // put whose delivery times out (broker down past the delivery timeout) is
  // not persisted and withdrawn from the broker.
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient inner(scheduler, log, TestConfig());
  PlanProbe probe;
  FaultPlan plan(probe.Hooks());
  plan.Arm(FaultKind::kLoseAck, 1);
  plan.Arm(FaultKind::kLoseAck, 2);
  BrokerProbe broker;
  FaultyLogClient client(inner, plan, &broker);

  std::vector<AckSeen> seen = ProduceAndAwait(scheduler, client, clock, 1);
  ASSERT_TRUE(seen[0].result.has_value());
  EXPECT_EQ(seen[0].result->status().code(), StatusCode::kInternal);
  EXPECT_NE(seen[0].result->status().message().find("acknowledged offset 0"), std::string::npos)
      << seen[0].result->status().ToString();

  log.SetDownUntil(clock.now + seconds(10));
  seen = ProduceAndAwait(scheduler, client, clock, 1);
  ASSERT_TRUE(seen[0].result.has_value());
  EXPECT_EQ(seen[0].result->status().code(), StatusCode::kNotPersisted);
  EXPECT_EQ(broker.calls, (std::vector<std::string>{"lose 0 k1", "lose 0 k1", "forget 0 k1"}));
}

TEST(FaultyLogClientTest, CrashAfterPutPersistedCallsTheCrashHookOnTheNthAppend) {
  // Strategy: the log's append listener feeds FaultPlan::OnPersisted (as the
  // attempt wires it). crash_after_put_persisted nth=2 calls the crash hook
  // once, with ordinal 2, at the moment the log holds exactly two records.
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient inner(scheduler, log, TestConfig());
  PlanProbe probe;
  std::vector<size_t> records_at_crash;
  probe.on_crash = [&] { records_at_crash.push_back(log.total_records()); };
  FaultPlan plan(probe.Hooks());
  plan.Arm(FaultKind::kCrashAfterPutPersisted, 2);
  log.set_append_listener([&](const LogRecord& record) { plan.OnPersisted(record.partition, record.offset); });
  FaultyLogClient client(inner, plan);

  const std::vector<AckSeen> seen = ProduceAndAwait(scheduler, client, clock, 3);
  EXPECT_EQ(probe.crashes, std::vector<std::string>{"crash after put 2 was persisted"});
  EXPECT_EQ(records_at_crash, std::vector<size_t>{2});
  // The hook here only records; nothing stops, so all three are acknowledged.
  for (const AckSeen& s : seen) {
    ASSERT_TRUE(s.result.has_value());
    EXPECT_TRUE(s.result->ok());
  }
  EXPECT_EQ(probe.records, std::vector<std::string>{"fault.fired fault=crash_after_put_persisted nth=2"});
}

TEST(FaultyLogClientTest, CrashAfterPutAckedCallsTheCrashHookOnTheNthAck) {
  // Strategy: crash_after_put_acked nth=2 calls the crash hook once, with
  // ordinal 2, at the 1 ms acknowledgement time, after the 1st waiter has
  // its result and before the 2nd does (the hook runs inside AwaitAck).
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient inner(scheduler, log, TestConfig());
  PlanProbe probe;
  FaultPlan plan(probe.Hooks());
  plan.Arm(FaultKind::kCrashAfterPutAcked, 2);
  FaultyLogClient client(inner, plan);

  std::vector<AckSeen> seen(3);
  std::vector<bool> results_at_crash;
  SimTime crash_at{-1};
  probe.on_crash = [&] {
    crash_at = clock.now;
    for (const AckSeen& s : seen) results_at_crash.push_back(s.result.has_value());
  };
  for (size_t i = 0; i < seen.size(); ++i) {
    SpawnAwait(scheduler, client, client.Produce(0, "k" + std::to_string(i + 1), "v"), clock, seen[i]);
  }
  client.Flush();
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);

  EXPECT_EQ(probe.crashes, std::vector<std::string>{"crash after put 2 was acknowledged"});
  EXPECT_EQ(crash_at, milliseconds(1));
  EXPECT_EQ(results_at_crash, (std::vector<bool>{true, false, false}));
}

asio::awaitable<void> AwaitAckCancellable(LogClient& client, ProduceTicket ticket, const SimClock& clock,
                                          AckSeen& seen) {
  // As the runtime does: cancellation arrives as a Status, never thrown.
  co_await asio::this_coro::throw_if_cancelled(false);
  seen.result = co_await client.AwaitAck(ticket);
  seen.at = clock.now;
}

TEST(FaultyLogClientTest, CancelPutCallsTheCancelHookForTheNthWait) {
  // Strategy: cancel_put nth=2 calls the cancel hook once, when the wait for
  // the 2nd put starts. The hook, like the runtime's, posts a terminal
  // cancellation to that waiter: it gets kCancelled at t=0 while the record,
  // already flushed, is in the log; the 1st put is acknowledged normally.
  SimClock clock;
  KafkaLog log(1);
  Scheduler scheduler(clock);
  MemoryLogClient inner(scheduler, log, TestConfig());
  PlanProbe probe;
  asio::cancellation_signal signal;
  probe.on_cancel = [&] {
    asio::post(scheduler.executor(), [&] { signal.emit(asio::cancellation_type::terminal); });
  };
  FaultPlan plan(probe.Hooks());
  plan.Arm(FaultKind::kCancelPut, 2);
  FaultyLogClient client(inner, plan);

  AckSeen first;
  AckSeen second;
  const ProduceTicket t1 = client.Produce(0, "k1", "v1");
  const ProduceTicket t2 = client.Produce(0, "k2", "v2");
  client.Flush();
  SpawnAwait(scheduler, client, t1, clock, first);
  asio::co_spawn(scheduler.executor(), AwaitAckCancellable(client, t2, clock, second),
                 asio::bind_cancellation_slot(signal.slot(), [](std::exception_ptr error) {
                   if (error) ADD_FAILURE() << "cancellable waiter threw";
                 }));
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);

  EXPECT_EQ(probe.cancels, 1);
  ASSERT_TRUE(first.result.has_value());
  EXPECT_TRUE(first.result->ok());
  ASSERT_TRUE(second.result.has_value());
  EXPECT_EQ(second.result->status().code(), StatusCode::kCancelled) << second.result->status().ToString();
  EXPECT_EQ(second.at, SimTime(0));
  EXPECT_EQ(log.total_records(), 2u);
  EXPECT_EQ(probe.records, std::vector<std::string>{"fault.fired fault=cancel_put nth=2"});
}

// ----------------------------------------------------------------- Mailbox

struct MailboxLog {
  std::vector<std::string> events;
  int holders = 0;
  int holders_max = 0;
};

asio::awaitable<void> HoldMailbox(Mailbox& mailbox, Scheduler& scheduler, bool priority, std::string name,
                                  SimDuration hold, MailboxLog& log) {
  co_await mailbox.Acquire(priority);
  ++log.holders;
  log.holders_max = std::max(log.holders_max, log.holders);
  log.events.push_back(name + "@" + std::to_string(scheduler.now().count() / 1000));
  co_await scheduler.AsyncSleep(hold, asio::use_awaitable);
  --log.holders;
  mailbox.Release();
}

TEST(MailboxTest, FifoHandoverBetweenCoroutines) {
  // Strategy: three coroutines each hold the mailbox for 10 ms. They get it
  // one at a time (never two holders), in the order they asked, each as the
  // previous releases; the mailbox stays held across handovers and is free
  // at the end.
  SimClock clock;
  Scheduler scheduler(clock);
  Mailbox mailbox(scheduler);
  MailboxLog log;
  for (const char* name : {"a", "b", "c"}) {
    asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, false, name, milliseconds(10), log),
                   asio::detached);
  }
  EXPECT_EQ(scheduler.Run(SimTime(0)), Scheduler::RunEnd::kDeadline);
  EXPECT_TRUE(mailbox.held());
  EXPECT_EQ(mailbox.waiting(), 2u);

  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(log.events, (std::vector<std::string>{"a@0", "b@10", "c@20"}));
  EXPECT_EQ(log.holders_max, 1);
  EXPECT_FALSE(mailbox.held());
  EXPECT_EQ(mailbox.waiting(), 0u);
}

TEST(MailboxTest, PriorityAcquirersGoAheadOfOrdinaryWaiters) {
  // Strategy: "a" holds the mailbox; "b" and "c" queue as ordinary waiters
  // at t=0; at 5 ms "p1" then "p2" queue with priority. On each release the
  // priority waiters go first, among themselves in FIFO order, then the
  // ordinary ones in theirs.
  SimClock clock;
  Scheduler scheduler(clock);
  Mailbox mailbox(scheduler);
  MailboxLog log;
  for (const char* name : {"a", "b", "c"}) {
    asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, false, name, milliseconds(10), log),
                   asio::detached);
  }
  scheduler.AsyncSleep(milliseconds(5), [&](ErrorCode) {
    for (const char* name : {"p1", "p2"}) {
      asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, true, name, milliseconds(10), log),
                     asio::detached);
    }
  });
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(log.events, (std::vector<std::string>{"a@0", "p1@10", "p2@20", "b@30", "c@40"}));
  EXPECT_EQ(log.holders_max, 1);
  EXPECT_FALSE(mailbox.held());
}

TEST(MailboxTest, PriorityAcquireOfAFreeMailboxIsImmediate) {
  // Strategy: a priority acquirer of a free mailbox takes it at once, and an
  // ordinary acquirer of a free mailbox after a release does too.
  SimClock clock;
  Scheduler scheduler(clock);
  Mailbox mailbox(scheduler);
  MailboxLog log;
  asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, true, "p", milliseconds(1), log),
                 asio::detached);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, false, "o", milliseconds(1), log),
                 asio::detached);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(log.events, (std::vector<std::string>{"p@0", "o@1"}));
  EXPECT_FALSE(mailbox.held());
}

}  // namespace
}  // namespace durasim
