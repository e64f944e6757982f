// Tests of FaultyLogClient driven by a FaultPlan: rejected puts, lost
// acknowledgements, the broker's write faults, crashes after a persisted or
// acknowledged put, cancelled waits.
#include "model/faulty_log_client.h"


#include <gtest/gtest.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "model/fault_plan.h"
#include "model/kafka_log.h"
#include "model/log_client_test_support.h"
#include "model/memory_log_client.h"
#include "model/scheduler.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using log_test::AckSeen;
using log_test::SpawnAwait;
using log_test::TestConfig;

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
    hooks.cancel_wait = [this](const FaultPoint& /*put*/) {
      ++cancels;
      if (on_cancel) on_cancel();
    };
    hooks.fired = [this](size_t /*armed*/, FaultKind fault, int64_t nth, const FaultPoint& /*point*/) {
      records.push_back("fault.fired fault=" + std::string(NameOf(fault)) + " nth=" + std::to_string(nth));
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
  log.set_append_listener([&](const LogRecord& record) { plan.OnPersisted(record.partition, record.offset, PutFaultPoint(record.key, record.value, 0));
  });
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

}  // namespace
}  // namespace durasim
