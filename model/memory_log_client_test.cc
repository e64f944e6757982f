// Tests of MemoryLogClient, the SimulatedLogClient over the model log: the
// producer in simulated time (linger, acknowledgement latency, broker
// outages and the delivery timeout, crashes), offsets and reads.
#include "model/memory_log_client.h"


#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "model/kafka_log.h"
#include "model/log_client_test_support.h"
#include "model/scheduler.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using log_test::AckSeen;
using log_test::SpawnAwait;
using log_test::TestConfig;

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

}  // namespace
}  // namespace durasim
