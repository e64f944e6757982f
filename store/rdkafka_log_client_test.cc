// Tests of RdKafkaLogClient against librdkafka's in-process mock cluster (no
// external broker), and of KafkaActionStateStore over it. Unlike the model
// tests these run in wall-clock time: failure tests use deadlines of a few
// seconds at most and check only generous bounds on elapsed time.
#include "store/rdkafka_log_client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "store/kafka_action_state_store.h"
#include "store/kafka_mock_cluster.h"
#include "store/action_state_store.h"
#include "store/run_sync.h"
#include "store/state_codec.h"
#include "store/test_states.h"

namespace durasim {
namespace {

// A current marker of the topic `client` reads, with `offsets`.
RecoveryMarker MarkerFor(LogClient& client, MarkerOffsets offsets) {
  Result<TopicIdentity> topic = client.Topic();
  EXPECT_TRUE(topic.ok()) << topic.status().ToString();
  return MarkerOf(topic.ok() ? *topic : TopicIdentity{}, std::move(offsets));
}

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr char kTopic[] = "action-state";
constexpr int32_t kPartitions = 3;
constexpr int32_t kBroker = 1;
// Slack on top of a deadline for the checks of how long a failure took.
constexpr milliseconds kSlack{1500};

milliseconds Since(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

class RdKafkaLogClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<KafkaMockCluster>> cluster = KafkaMockCluster::Start(1);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(*cluster);
    ASSERT_TRUE(cluster_->CreateTopic(kTopic, kPartitions).ok());
  }

  RdKafkaConfig Config(milliseconds deadline = milliseconds(5000)) const {
    RdKafkaConfig config;
    config.bootstrap_servers = cluster_->bootstrap_servers();
    config.topic = kTopic;
    config.expected_partitions = kPartitions;
    config.deadline = deadline;
    config.fetch_wait_max = milliseconds(10);
    return config;
  }

  std::unique_ptr<RdKafkaLogClient> Connect(const RdKafkaConfig& config) {
    Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(config);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? std::move(*client) : nullptr;
  }

  static Result<RecordPosition> Put(RdKafkaLogClient& client, int32_t partition, std::string key, std::string value,
                                    bool flush = true) {
    const ProduceTicket ticket = client.Produce(partition, std::move(key), std::move(value));
    if (flush) client.Flush();
    return RunSync(client.AwaitAck(ticket));
  }

  std::unique_ptr<KafkaMockCluster> cluster_;
};

TEST_F(RdKafkaLogClientTest, ProduceFlushAwaitGivesPartitionAndOffsets) {
  // Strategy: three records to one partition, each put = produce, flush,
  // await; the acknowledgements carry that partition and offsets 0, 1, 2.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->partition_count(), kPartitions);
  for (int64_t i = 0; i < 3; ++i) {
    Result<RecordPosition> ack = Put(*client, 1, "k" + std::to_string(i), "v");
    ASSERT_TRUE(ack.ok()) << ack.status().ToString();
    EXPECT_EQ(*ack, (RecordPosition{1, i}));
  }
}

TEST_F(RdKafkaLogClientTest, OffsetsAndReadReturnWhatWasWritten) {
  // Strategy: write records whose keys hold '_', non-ASCII bytes and a NUL,
  // and values with arbitrary bytes, to two partitions; Offsets reports
  // [0, n) for each, and Read returns every record byte for byte, also for
  // a sub-range.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  const std::vector<std::pair<std::string, std::string>> written = {
      {"user_42_7_e1_a1", "{\"v\":1}"},
      {"caf\xc3\xa9_\xe2\x9c\x93_1_2_3", std::string("bin\0\xff\x01", 6)},
      {std::string("nul\0key", 7), ""},
      {"_", std::string(1000, 'x')},
  };
  for (const auto& [key, value] : written) ASSERT_TRUE(Put(*client, 2, key, value).ok());
  ASSERT_TRUE(Put(*client, 0, "other", "p0").ok());

  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  ASSERT_EQ(offsets->size(), static_cast<size_t>(kPartitions));
  EXPECT_EQ((*offsets)[0].start, 0);
  EXPECT_EQ((*offsets)[0].end, 1);
  EXPECT_EQ((*offsets)[1].end, 0);
  EXPECT_EQ((*offsets)[2].start, 0);
  EXPECT_EQ((*offsets)[2].end, 4);

  Result<std::vector<LogRecord>> records = client->Read(2, 0, 4);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ((*records)[i].partition, 2);
    EXPECT_EQ((*records)[i].offset, static_cast<int64_t>(i));
    EXPECT_EQ((*records)[i].key, written[i].first);
    EXPECT_EQ((*records)[i].value, written[i].second);
  }
  Result<std::vector<LogRecord>> middle = client->Read(2, 1, 3);
  ASSERT_TRUE(middle.ok()) << middle.status().ToString();
  ASSERT_EQ(middle->size(), 2u);
  EXPECT_EQ((*middle)[0].offset, 1);
  EXPECT_EQ((*middle)[1].key, written[2].first);
  Result<std::vector<LogRecord>> other = client->Read(0, 0, 1);
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  ASSERT_EQ(other->size(), 1u);
  EXPECT_EQ((*other)[0].value, "p0");
  Result<std::vector<LogRecord>> empty = client->Read(1, 0, 0);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST_F(RdKafkaLogClientTest, ReadRangesReadsEveryPartitionAtOnce) {
  // Strategy: records on partitions 0 and 2, none on 1; one ReadRanges of
  // all three (a sub-range of 2, an empty range of 1) answers per range, in
  // order, what a Read of each range answers; a range past a partition's end
  // fails the whole read naming that range, two ranges of one partition and
  // a partition the topic lacks are invalid arguments; afterwards the
  // client reads as before.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(Put(*client, 0, "a" + std::to_string(i), "v0").ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(Put(*client, 2, "c" + std::to_string(i), "v2").ok());

  Result<std::vector<std::vector<LogRecord>>> all =
      client->ReadRanges({ReadRange{2, 1, 4}, ReadRange{1, 0, 0}, ReadRange{0, 0, 3}});
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  ASSERT_EQ(all->size(), 3u);
  ASSERT_EQ((*all)[0].size(), 3u);
  EXPECT_EQ((*all)[0][0].offset, 1);
  EXPECT_EQ((*all)[0][0].key, "c1");
  EXPECT_EQ((*all)[0][2].key, "c3");
  EXPECT_TRUE((*all)[1].empty());
  ASSERT_EQ((*all)[2].size(), 3u);
  EXPECT_EQ((*all)[2][2].key, "a2");
  EXPECT_EQ((*all)[2][2].partition, 0);
  for (size_t r = 0; r < 3; ++r) {
    const int32_t partition = r == 0 ? 2 : r == 1 ? 1 : 0;
    const int64_t from = r == 0 ? 1 : 0;
    const int64_t to = r == 0 ? 4 : r == 1 ? 0 : 3;
    Result<std::vector<LogRecord>> one = client->Read(partition, from, to);
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    ASSERT_EQ(one->size(), (*all)[r].size());
    for (size_t i = 0; i < one->size(); ++i) EXPECT_EQ((*one)[i].key, (*all)[r][i].key);
  }

  Result<std::vector<std::vector<LogRecord>>> past_end = client->ReadRanges({ReadRange{0, 0, 3}, ReadRange{2, 0, 9}});
  EXPECT_EQ(past_end.status().code(), StatusCode::kInvalidRecovery) << past_end.status().ToString();
  EXPECT_NE(past_end.status().message().find("read of [0, 9) of topic 'action-state' partition 2"), std::string::npos)
      << past_end.status().ToString();
  EXPECT_EQ(client->ReadRanges({ReadRange{0, 0, 1}, ReadRange{0, 1, 2}}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(client->ReadRanges({ReadRange{0, 0, 1}, ReadRange{kPartitions, 0, 1}}).status().code(),
            StatusCode::kInvalidArgument);
  Result<std::vector<std::vector<LogRecord>>> again = client->ReadRanges({ReadRange{0, 0, 3}, ReadRange{2, 0, 5}});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ((*again)[0].size(), 3u);
  EXPECT_EQ((*again)[1].size(), 5u);
}

TEST_F(RdKafkaLogClientTest, WillReadAnswersTheHintedReadsWithTheSameRecords) {
  // Strategy: after WillRead of every partition's range, a Read of exactly
  // each range answers what a fresh client's Read answers, and a read of
  // another range goes to the log, where a record appended after the hint
  // is (a longer range); a hint with a range past a partition's end makes the first hinted
  // Read fail naming that range, and the next one reads the log afresh.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(Put(*client, 0, "a" + std::to_string(i), "v0").ok());
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(Put(*client, 2, "c" + std::to_string(i), "v2").ok());

  client->WillRead({ReadRange{0, 1, 4}, ReadRange{1, 0, 0}, ReadRange{2, 0, 2}});
  ASSERT_TRUE(Put(*client, 2, "late", "v").ok());  // after the hint: offset 2, outside [0, 2)
  std::unique_ptr<RdKafkaLogClient> fresh = Connect(Config());
  ASSERT_NE(fresh, nullptr);
  for (const ReadRange& range : {ReadRange{2, 0, 2}, ReadRange{1, 0, 0}, ReadRange{0, 1, 4}}) {
    Result<std::vector<LogRecord>> hinted = client->Read(range.partition, range.from, range.to);
    Result<std::vector<LogRecord>> direct = fresh->Read(range.partition, range.from, range.to);
    ASSERT_TRUE(hinted.ok() && direct.ok()) << hinted.status().ToString() << direct.status().ToString();
    ASSERT_EQ(hinted->size(), direct->size()) << "partition " << range.partition;
    for (size_t i = 0; i < hinted->size(); ++i) {
      EXPECT_EQ((*hinted)[i].offset, (*direct)[i].offset);
      EXPECT_EQ((*hinted)[i].key, (*direct)[i].key);
      EXPECT_EQ((*hinted)[i].value, (*direct)[i].value);
    }
  }
  Result<std::vector<LogRecord>> longer = client->Read(2, 0, 3);  // not hinted: the log
  ASSERT_TRUE(longer.ok()) << longer.status().ToString();
  ASSERT_EQ(longer->size(), 3u);
  EXPECT_EQ((*longer)[2].key, "late");

  client->WillRead({ReadRange{0, 0, 4}, ReadRange{2, 0, 9}});
  Result<std::vector<LogRecord>> failed = client->Read(0, 0, 4);
  EXPECT_EQ(failed.status().code(), StatusCode::kInvalidRecovery) << failed.status().ToString();
  EXPECT_NE(failed.status().message().find("read of [0, 9) of topic 'action-state' partition 2"), std::string::npos)
      << failed.status().ToString();
  Result<std::vector<LogRecord>> afresh = client->Read(0, 0, 4);
  ASSERT_TRUE(afresh.ok()) << afresh.status().ToString();
  EXPECT_EQ(afresh->size(), 4u);
}

TEST_F(RdKafkaLogClientTest, NewClientAfterCrashKeepsTheData) {
  // Strategy: put through one client, destroy it (a crash), connect a new
  // one to the same cluster: it sees the same offsets and records, and its
  // own puts continue the log.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "a", "1").ok());
  ASSERT_TRUE(Put(*client, 0, "b", "2").ok());
  client.reset();

  std::unique_ptr<RdKafkaLogClient> restarted = Connect(Config());
  ASSERT_NE(restarted, nullptr);
  Result<std::vector<PartitionOffsets>> offsets = restarted->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  EXPECT_EQ((*offsets)[0].end, 2);
  Result<std::vector<LogRecord>> records = restarted->Read(0, 0, 2);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[1].key, "b");
  EXPECT_EQ((*records)[1].value, "2");
  Result<RecordPosition> ack = Put(*restarted, 0, "c", "3");
  ASSERT_TRUE(ack.ok()) << ack.status().ToString();
  EXPECT_EQ(ack->offset, 2);
}

TEST_F(RdKafkaLogClientTest, NotEnoughReplicasWithRetriesExhaustedIsNotPersisted) {
  // Strategy: with one retry allowed, two NOT_ENOUGH_REPLICAS answers fail
  // the record; librdkafka knows the broker did not append it, so the ack is
  // kNotPersisted, and the record is not in the log.
  RdKafkaConfig config = Config();
  config.producer_retries = 1;
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  cluster_->PushProduceErrors(2, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS);
  Result<RecordPosition> ack = Put(*client, 0, "k", "v");
  ASSERT_FALSE(ack.ok());
  EXPECT_EQ(ack.status().code(), StatusCode::kNotPersisted) << ack.status().ToString();
  EXPECT_NE(ack.status().message().find("NOT_ENOUGH_REPLICAS"), std::string::npos) << ack.status().ToString();
  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ((*offsets)[0].end, 0);
  // The producer is still usable.
  Result<RecordPosition> next = Put(*client, 0, "k", "v");
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->offset, 0);
}

TEST_F(RdKafkaLogClientTest, NotEnoughReplicasAfterAppendIsPossiblyPersisted) {
  // Strategy: NOT_ENOUGH_REPLICAS_AFTER_APPEND means the leader appended the
  // record but could not replicate it; with retries exhausted the ack is
  // kPossiblyPersisted, never a success with an offset.
  RdKafkaConfig config = Config();
  config.producer_retries = 1;
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  cluster_->PushProduceErrors(2, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS_AFTER_APPEND);
  Result<RecordPosition> ack = Put(*client, 0, "k", "v");
  ASSERT_FALSE(ack.ok());
  EXPECT_EQ(ack.status().code(), StatusCode::kPossiblyPersisted) << ack.status().ToString();
  EXPECT_NE(ack.status().message().find("NOT_ENOUGH_REPLICAS_AFTER_APPEND"), std::string::npos)
      << ack.status().ToString();
  std::cout << "after NOT_ENOUGH_REPLICAS_AFTER_APPEND: " << ack.status().ToString()
            << "; producer restarts: " << client->producer_restarts() << "\n";
  Result<RecordPosition> next = Put(*client, 0, "k", "v");
  EXPECT_TRUE(next.ok()) << next.status().ToString();
}

TEST_F(RdKafkaLogClientTest, ALateCommitOfTheIncarnationFailsWithinTheDeadline) {
  // Strategy: the first client to ask for the topic's incarnation mints
  // it, a commit in the identity group. The broker answers that commit 4 s
  // late, beyond the 1 s deadline: Topic() gives up within the deadline
  // (plus slack) with kUnavailable naming the commit. librdkafka 2.0.2's
  // synchronous commit, which it used before, waited for the answer however
  // late: 4 s here, for ever on a broker frozen with the request in flight
  // (ctest infra_broker_stopped hung in it). The client, its commit still
  // in flight, is let go at once; with answers on time again a new client
  // reads the incarnation the late commit left.
  const RdKafkaConfig config = Config(milliseconds(1000));
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "k", "v").ok());
  ASSERT_TRUE(cluster_->PushOffsetCommitAnswer(kBroker, RD_KAFKA_RESP_ERR_NO_ERROR, milliseconds(4000)).ok());
  const Clock::time_point start = Clock::now();
  Result<TopicIdentity> late = client->Topic();
  std::cout << "incarnation, commit answered 4 s late: " << late.status().ToString() << " after "
            << Since(start).count() << " ms\n";
  EXPECT_EQ(late.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(late.status().message().find("committing the incarnation"), std::string::npos) << late.status().ToString();
  EXPECT_LT(Since(start), config.deadline + kSlack);
  // librdkafka starts no assigned partition while a commit of the consumer
  // is pending: the client reads with a fresh consumer, at once.
  const Clock::time_point reading = Clock::now();
  Result<std::vector<LogRecord>> read = client->Read(0, 0, 1);
  std::cout << "read after it: " << read.status().ToString() << " after " << Since(reading).count() << " ms\n";
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_LT(Since(reading), config.deadline);
  // Its commit is still in flight: letting go of the client must not wait
  // for it on this thread (librdkafka's consumer close would); the
  // background teardown does.
  const Clock::time_point closing = Clock::now();
  client.reset();
  std::cout << "the client let go after " << Since(closing).count() << " ms\n";
  EXPECT_LT(Since(closing), kSlack);
  std::unique_ptr<RdKafkaLogClient> next = Connect(Config());
  ASSERT_NE(next, nullptr);
  Result<TopicIdentity> topic = next->Topic();
  EXPECT_TRUE(topic.ok()) << topic.status().ToString();
}

TEST_F(RdKafkaLogClientTest, ARefusedCommitOfTheIncarnationIsAClearError) {
  // Strategy: the broker refuses the commit that mints the incarnation
  // (GROUP_AUTHORIZATION_FAILED, at once): Topic() fails with kUnavailable
  // naming the commit and the broker's error, and a read on the same client
  // right after still works.
  const RdKafkaConfig config = Config(milliseconds(2000));
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "k", "v").ok());
  ASSERT_TRUE(
      cluster_->PushOffsetCommitAnswer(kBroker, RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED, milliseconds(0)).ok());
  Result<TopicIdentity> refused = client->Topic();
  std::cout << "incarnation, commit refused: " << refused.status().ToString() << "\n";
  EXPECT_EQ(refused.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(refused.status().message().find("committing the incarnation"), std::string::npos);
  EXPECT_NE(refused.status().message().find("GROUP_AUTHORIZATION_FAILED"), std::string::npos)
      << refused.status().ToString();
  Result<std::vector<LogRecord>> read = client->Read(0, 0, 1);
  EXPECT_TRUE(read.ok()) << read.status().ToString();
}

TEST_F(RdKafkaLogClientTest, BrokerDownFailsWithinTheDeadlineAndRecoversAfterUp) {
  // Strategy: with the only broker down, Offsets, Read, a put (produce,
  // flush, await) and a bare AwaitAck (no flush) each fail within the
  // deadline (plus slack) with an error naming the bootstrap address; after
  // BrokerUp a put succeeds and continues the log.
  RdKafkaConfig config = Config(milliseconds(1000));
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "before", "1").ok());
  ASSERT_TRUE(cluster_->BrokerDown(kBroker).ok());
  const std::string& servers = cluster_->bootstrap_servers();

  Clock::time_point start = Clock::now();
  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  std::cout << "offsets, broker down: " << offsets.status().ToString() << " after " << Since(start).count()
            << " ms\n";
  ASSERT_FALSE(offsets.ok());
  EXPECT_EQ(offsets.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(offsets.status().message().find(servers), std::string::npos) << offsets.status().ToString();
  EXPECT_LT(Since(start), config.deadline + kSlack);

  start = Clock::now();
  Result<std::vector<LogRecord>> records = client->Read(0, 0, 1);
  std::cout << "read, broker down: " << records.status().ToString() << " after " << Since(start).count() << " ms\n";
  ASSERT_FALSE(records.ok());
  EXPECT_EQ(records.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(records.status().message().find(servers), std::string::npos) << records.status().ToString();
  EXPECT_LT(Since(start), config.deadline + kSlack);

  start = Clock::now();
  Result<RecordPosition> ack = Put(*client, 0, "during", "2");
  std::cout << "put, broker down: " << ack.status().ToString() << " after " << Since(start).count() << " ms\n";
  ASSERT_FALSE(ack.ok());
  EXPECT_TRUE(ack.status().code() == StatusCode::kNotPersisted ||
              ack.status().code() == StatusCode::kPossiblyPersisted)
      << ack.status().ToString();
  EXPECT_NE(ack.status().message().find(servers), std::string::npos) << ack.status().ToString();
  // Flush and the ack wait are each bounded by the deadline.
  EXPECT_LT(Since(start), 2 * config.deadline + kSlack);

  start = Clock::now();
  Result<RecordPosition> unflushed = Put(*client, 0, "unflushed", "2", /*flush=*/false);
  std::cout << "await without flush, broker down: " << unflushed.status().ToString() << " after "
            << Since(start).count() << " ms\n";
  ASSERT_FALSE(unflushed.ok());
  EXPECT_TRUE(unflushed.status().code() == StatusCode::kNotPersisted ||
              unflushed.status().code() == StatusCode::kPossiblyPersisted)
      << unflushed.status().ToString();
  EXPECT_NE(unflushed.status().message().find(servers), std::string::npos) << unflushed.status().ToString();
  EXPECT_LT(Since(start), config.deadline + kSlack);

  ASSERT_TRUE(cluster_->BrokerUp(kBroker).ok());
  start = Clock::now();
  Result<RecordPosition> after = Put(*client, 0, "after", "3");
  std::cout << "put after broker up: " << after.status().ToString() << " after " << Since(start).count() << " ms\n";
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_GE(after->offset, 1);
  Result<std::vector<PartitionOffsets>> healed = client->Offsets();
  ASSERT_TRUE(healed.ok()) << healed.status().ToString();
  Result<std::vector<LogRecord>> log = client->Read(0, 0, (*healed)[0].end);
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  EXPECT_EQ(log->back().key, "after");
}

TEST_F(RdKafkaLogClientTest, SlowBrokerBoundsEveryCallAndAnUnackedPutIsFoundLater) {
  // Strategy: every response of the broker is delayed by 2.5 s, beyond a 1 s
  // deadline. Offsets, Read and a put each give up within the deadline
  // (plus slack); the put is kPossiblyPersisted (the mock appended it, only
  // the answer is late), and once the delay is gone the log holds it.
  RdKafkaConfig config = Config(milliseconds(1000));
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "before", "1").ok());
  ASSERT_TRUE(client->Read(0, 0, 1).ok());  // the reader is connected
  ASSERT_TRUE(cluster_->SetRtt(kBroker, milliseconds(2500)).ok());

  Clock::time_point start = Clock::now();
  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  std::cout << "offsets, slow broker: " << offsets.status().ToString() << " after " << Since(start).count()
            << " ms\n";
  EXPECT_EQ(offsets.status().code(), StatusCode::kUnavailable);
  EXPECT_LT(Since(start), config.deadline + kSlack);

  start = Clock::now();
  Result<std::vector<LogRecord>> records = client->Read(0, 0, 1);
  std::cout << "read, slow broker: " << records.status().ToString() << " after " << Since(start).count() << " ms\n";
  EXPECT_EQ(records.status().code(), StatusCode::kUnavailable);
  EXPECT_LT(Since(start), config.deadline + kSlack);

  start = Clock::now();
  Result<RecordPosition> ack = Put(*client, 0, "slow", "2");
  std::cout << "put, slow broker: " << ack.status().ToString() << " after " << Since(start).count() << " ms\n";
  EXPECT_EQ(ack.status().code(), StatusCode::kPossiblyPersisted);
  EXPECT_LT(Since(start), 2 * config.deadline + kSlack);

  ASSERT_TRUE(cluster_->SetRtt(kBroker, milliseconds(0)).ok());
  std::unique_ptr<RdKafkaLogClient> restarted = Connect(config);
  ASSERT_NE(restarted, nullptr);
  Result<std::vector<PartitionOffsets>> healed = restarted->Offsets();
  ASSERT_TRUE(healed.ok()) << healed.status().ToString();
  Result<std::vector<LogRecord>> log = restarted->Read(0, 0, (*healed)[0].end);
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  std::cout << "records after the slow put:";
  for (const LogRecord& record : *log) std::cout << " " << record.offset << ":" << record.key;
  std::cout << "\n";
  EXPECT_TRUE(std::any_of(log->begin(), log->end(), [](const LogRecord& r) { return r.key == "slow"; }));
  std::cout << "old client after heal: " << Put(*client, 0, "again", "3").status().ToString()
            << ", producer restarts " << client->producer_restarts() << "\n";
}

TEST_F(RdKafkaLogClientTest, ABrokerSlowerThanABlockingSliceStillAnswersWithinTheDeadline) {
  // Strategy: every response is delayed by 600 ms, longer than one blocking
  // slice (rdkafka::kBlockingSlice, 250 ms) and shorter than the 4 s
  // deadline. A new client's metadata, the topic's incarnation (a committed
  // offset) and the offsets each get one long wait after their first slice
  // ran out, so each succeeds; slicing that re-asked every slice would drop
  // each answer and fail at the deadline.
  RdKafkaConfig config = Config(milliseconds(4000));
  ASSERT_NE(Connect(config), nullptr);  // the topic and its incarnation exist
  ASSERT_TRUE(cluster_->SetRtt(kBroker, milliseconds(600)).ok());
  const Clock::time_point start = Clock::now();
  std::unique_ptr<RdKafkaLogClient> slow = Connect(config);
  ASSERT_NE(slow, nullptr);
  Result<TopicIdentity> topic = slow->Topic();
  ASSERT_TRUE(topic.ok()) << topic.status().ToString();
  Result<std::vector<PartitionOffsets>> offsets = slow->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  std::cout << "connect, incarnation and offsets on a 600 ms broker: " << Since(start).count() << " ms\n";
  ASSERT_TRUE(cluster_->SetRtt(kBroker, milliseconds(0)).ok());
}

TEST(RdKafkaLogClientConnectTest, UnreachableBootstrapIsAClearErrorInBoundedTime) {
  // Strategy: port 1 on loopback is closed; Connect gives up within its
  // deadline with kUnavailable naming the address, without hanging.
  RdKafkaConfig config;
  config.bootstrap_servers = "127.0.0.1:1";
  config.topic = kTopic;
  config.deadline = milliseconds(1500);
  const Clock::time_point start = Clock::now();
  Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(config);
  std::cout << "unreachable: " << client.status().ToString() << " after " << Since(start).count() << " ms\n";
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(client.status().message().find("127.0.0.1:1"), std::string::npos) << client.status().ToString();
  EXPECT_LT(Since(start), config.deadline + kSlack);
}

TEST_F(RdKafkaLogClientTest, MissingTopicIsAClearError) {
  // Strategy: without create_topic, a topic the cluster lacks is kNotFound
  // naming it, and looking for it does not create it (the mock creates
  // topics named in metadata requests).
  RdKafkaConfig config = Config(milliseconds(2000));
  config.topic = "no-such-topic";
  config.expected_partitions = 0;
  for (int i = 0; i < 2; ++i) {
    Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(config);
    ASSERT_FALSE(client.ok());
    EXPECT_EQ(client.status().code(), StatusCode::kNotFound);
    EXPECT_NE(client.status().message().find("no-such-topic"), std::string::npos) << client.status().ToString();
  }
}

TEST_F(RdKafkaLogClientTest, PartitionCountMismatchIsAClearError) {
  // Strategy: the topic has 3 partitions; expecting 4 is kInvalidArgument
  // naming both counts, also with create_topic (the topic exists), while
  // expecting 0 takes the topic's 3.
  RdKafkaConfig config = Config();
  config.expected_partitions = 4;
  for (bool create : {false, true}) {
    config.create_topic = create;
    Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(config);
    ASSERT_FALSE(client.ok());
    EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(client.status().message().find("has 3 partitions, expected 4"), std::string::npos)
        << client.status().ToString();
  }
  config.expected_partitions = 0;
  config.create_topic = false;
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->partition_count(), kPartitions);
}

TEST_F(RdKafkaLogClientTest, CreateTopicOnTheMockFailsClearlyWithinTheDeadline) {
  // Strategy: the mock cluster has no CreateTopics; create_topic for a
  // missing topic must still end within the deadline with an error naming
  // the topic (against a real broker it creates the topic).
  RdKafkaConfig config = Config(milliseconds(1500));
  config.topic = "to-create";
  config.create_topic = true;
  const Clock::time_point start = Clock::now();
  Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(config);
  std::cout << "create on mock: " << client.status().ToString() << " after " << Since(start).count() << " ms\n";
  ASSERT_FALSE(client.ok());
  EXPECT_NE(client.status().message().find("to-create"), std::string::npos) << client.status().ToString();
  EXPECT_LT(Since(start), config.deadline + kSlack);
}

TEST_F(RdKafkaLogClientTest, ReadOutsideTheLogIsAnError) {
  // Strategy: Read past the end (from beyond it, or `to` beyond it) and
  // below the log start are kInvalidRecovery, never a silent skip. The mock
  // keeps 5 MiB per partition, so 12 records of 700 KiB move the start.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "a", "1").ok());
  ASSERT_TRUE(Put(*client, 0, "b", "2").ok());
  Result<std::vector<LogRecord>> past_end = client->Read(0, 1, 5);
  EXPECT_EQ(past_end.status().code(), StatusCode::kInvalidRecovery) << past_end.status().ToString();
  Result<std::vector<LogRecord>> beyond = client->Read(0, 10, 12);
  EXPECT_EQ(beyond.status().code(), StatusCode::kInvalidRecovery) << beyond.status().ToString();
  std::cout << "past end: " << past_end.status().ToString() << "\nbeyond: " << beyond.status().ToString() << "\n";
  EXPECT_EQ(client->Read(0, 2, 1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(client->Read(7, 0, 1).status().code(), StatusCode::kInvalidArgument);

  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(Put(*client, 1, "big" + std::to_string(i), std::string(700 * 1024, 'b')).ok());
  }
  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  ASSERT_TRUE(offsets.ok());
  const PartitionOffsets range = (*offsets)[1];
  ASSERT_GT(range.start, 0);
  EXPECT_EQ(range.end, 12);
  Result<std::vector<LogRecord>> below = client->Read(1, 0, range.end);
  EXPECT_EQ(below.status().code(), StatusCode::kInvalidRecovery) << below.status().ToString();
  std::cout << "below start: " << below.status().ToString() << "\n";
  Result<std::vector<LogRecord>> kept = client->Read(1, range.start, range.end);
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(kept->size(), static_cast<size_t>(range.end - range.start));
  EXPECT_EQ(kept->back().key, "big11");
  // The failed reads did not spoil later reads of the small partition.
  Result<std::vector<LogRecord>> small = client->Read(0, 0, 2);
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(small->size(), 2u);
}

TEST_F(RdKafkaLogClientTest, AwaitAckOfACancelledWaitIsCancelled) {
  // Strategy: the caller's cancellation is requested before it awaits the
  // acknowledgement (AwaitAck never suspends, so that is the only window):
  // the wait reports kCancelled and the caller's cancellation state stays
  // set; the record itself was still written.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  const ProduceTicket ticket = client->Produce(0, "k", "v");
  client->Flush();
  boost::asio::io_context io;
  boost::asio::cancellation_signal signal;
  std::optional<Result<RecordPosition>> ack;
  bool still_cancelled = false;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        co_await boost::asio::this_coro::throw_if_cancelled(false);
        co_await boost::asio::post(io, boost::asio::use_awaitable);  // the cancellation arrives here
        ack.emplace(co_await client->AwaitAck(ticket));
        boost::asio::cancellation_state state = co_await boost::asio::this_coro::cancellation_state;
        still_cancelled = state.cancelled() != boost::asio::cancellation_type::none;
      },
      boost::asio::bind_cancellation_slot(signal.slot(), boost::asio::detached));
  boost::asio::post(io, [&] { signal.emit(boost::asio::cancellation_type::terminal); });
  io.run();
  ASSERT_TRUE(ack.has_value());
  EXPECT_EQ(ack->status().code(), StatusCode::kCancelled) << ack->status().ToString();
  EXPECT_TRUE(still_cancelled);
  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ((*offsets)[0].end, 1);
}

TEST_F(RdKafkaLogClientTest, FatalProducerErrorRecreatesTheProducer) {
  // Strategy: an OUT_OF_ORDER_SEQUENCE_NUMBER answer is fatal for an
  // idempotent producer; the put in flight fails as possibly persisted with
  // the fatal error named, the client recreates its producer once, and the
  // next put succeeds.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "first", "1").ok());
  cluster_->PushProduceErrors(1, RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER);
  Result<RecordPosition> ack = Put(*client, 0, "second", "2");
  ASSERT_FALSE(ack.ok());
  EXPECT_EQ(ack.status().code(), StatusCode::kPossiblyPersisted) << ack.status().ToString();
  EXPECT_NE(ack.status().message().find("fatal"), std::string::npos) << ack.status().ToString();
  EXPECT_EQ(client->producer_restarts(), 1);
  Result<RecordPosition> next = Put(*client, 0, "third", "3");
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(client->producer_restarts(), 1);
}

TEST_F(RdKafkaLogClientTest, DuplicateSequenceIsPossiblyPersistedWithoutAnOffset) {
  // Strategy: librdkafka reports DUPLICATE_SEQUENCE_NUMBER as a success with
  // offset -1; the client never hands out an offset it does not have, so
  // the ack is kPossiblyPersisted.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(Put(*client, 0, "first", "1").ok());
  cluster_->PushProduceErrors(1, RD_KAFKA_RESP_ERR_DUPLICATE_SEQUENCE_NUMBER);
  Result<RecordPosition> ack = Put(*client, 0, "second", "2");
  ASSERT_FALSE(ack.ok());
  EXPECT_EQ(ack.status().code(), StatusCode::kPossiblyPersisted) << ack.status().ToString();
}

TEST_F(RdKafkaLogClientTest, PutLatencyWithAndWithoutFlush) {
  // Strategy: a measurement, not a check: p50/p99 of produce+flush+await
  // against produce+await (which waits out linger.ms=5), printed and
  // recorded as test properties. Timings are never asserted.
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config());
  ASSERT_NE(client, nullptr);
  constexpr int kWarmup = 20;
  constexpr int kPuts = 200;
  for (bool flush : {true, false}) {
    std::vector<int64_t> latencies_us;
    for (int i = 0; i < kWarmup + kPuts; ++i) {
      const Clock::time_point start = Clock::now();
      ASSERT_TRUE(Put(*client, i % kPartitions, "k" + std::to_string(i), "value", flush).ok());
      if (i >= kWarmup) {
        latencies_us.push_back(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count());
      }
    }
    std::sort(latencies_us.begin(), latencies_us.end());
    const int64_t p50 = latencies_us[latencies_us.size() / 2];
    const int64_t p99 = latencies_us[latencies_us.size() * 99 / 100];
    const std::string name = flush ? "put_with_flush" : "put_without_flush";
    std::cout << name << ": p50 " << p50 << " us, p99 " << p99 << " us over " << kPuts << " puts\n";
    RecordProperty(name + "_p50_us", std::to_string(p50));
    RecordProperty(name + "_p99_us", std::to_string(p99));
  }
}

// --- KafkaActionStateStore over RdKafkaLogClient ------------------------------

TEST_F(RdKafkaLogClientTest, StoreRebuildsFromTheMarkerOverAFreshClient) {
  // Strategy: the real store puts states (input keys with '_' and non-ASCII)
  // through the librdkafka client; after a crash a fresh store over a fresh
  // client rebuilds from the checkpoint's marker and finds every state.
  RdKafkaConfig config = Config();
  const std::vector<StateKey> keys = {Key("user_1", 1), Key("user_1", 2), Key("caf\xc3\xa9", 1), Key("x", 7)};
  RecoveryMarker marker;
  {
    std::unique_ptr<RdKafkaLogClient> client = Connect(config);
    ASSERT_NE(client, nullptr);
    KafkaActionStateStore store(*client);
    for (size_t i = 0; i < keys.size(); ++i) {
      Status put = RunSync(store.Put(keys[i], State(static_cast<int64_t>(i))));
      ASSERT_TRUE(put.ok()) << put.ToString();
    }
    Result<RecoveryMarker> saved = store.GetRecoveryMarker(CompletedBoundaries{});
    ASSERT_TRUE(saved.ok()) << saved.status().ToString();
    marker = *saved;
  }
  std::unique_ptr<RdKafkaLogClient> client = Connect(config);
  ASSERT_NE(client, nullptr);
  KafkaActionStateStore store(*client);
  Status rebuilt = store.Rebuild(marker);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.ToString();
  for (size_t i = 0; i < keys.size(); ++i) {
    std::optional<ActionState> state = store.Get(keys[i]);
    ASSERT_TRUE(state.has_value()) << keys[i].key << " " << keys[i].seq;
    EXPECT_EQ(*state, State(static_cast<int64_t>(i)));
  }
  EXPECT_EQ(store.Stats().records_scanned, keys.size());
}

TEST_F(RdKafkaLogClientTest, StoreRebuildRejectsACorruptValueOrKey) {
  // Strategy: after one valid put, a raw produce appends a record with a
  // valid key and a value that is not a state, then (in a second topic) a
  // valid value under a key that does not parse; Rebuild from offset 0 fails
  // with kInvalidRecovery naming the partition and offset of the bad record.
  const StateKey state_key = Key("k_1", 1);
  const int32_t partition = PartitionForKey(state_key.key, kPartitions);
  ASSERT_TRUE(cluster_->CreateTopic("action-state-2", kPartitions).ok());
  struct Case {
    std::string topic;
    std::string key;
    std::string value;
  };
  const std::vector<Case> cases = {
      {kTopic, EncodeRecordKey(state_key), "{not json"},
      {"action-state-2", "no-separators", EncodeStateValue(state_key, State(1))},
  };
  for (const Case& bad : cases) {
    RdKafkaConfig config = Config();
    config.topic = bad.topic;
    std::unique_ptr<RdKafkaLogClient> client = Connect(config);
    ASSERT_NE(client, nullptr);
    KafkaActionStateStore store(*client);
    ASSERT_TRUE(RunSync(store.Put(state_key, State(1))).ok());
    Result<RecordPosition> raw = Put(*client, partition, bad.key, bad.value);
    ASSERT_TRUE(raw.ok()) << raw.status().ToString();
    ASSERT_EQ(raw->offset, 1);

    std::unique_ptr<RdKafkaLogClient> fresh = Connect(config);
    ASSERT_NE(fresh, nullptr);
    KafkaActionStateStore restored(*fresh);
    RecoveryMarker marker = MarkerFor(*fresh, {});
    for (int32_t p = 0; p < kPartitions; ++p) marker.offsets[p] = 0;
    Status rebuilt = restored.Rebuild(marker);
    EXPECT_EQ(rebuilt.code(), StatusCode::kInvalidRecovery) << rebuilt.ToString();
    EXPECT_NE(rebuilt.message().find("partition " + std::to_string(partition) + " offset 1"), std::string::npos)
        << rebuilt.ToString();
    std::cout << bad.topic << ": " << rebuilt.ToString() << "\n";
  }
}

}  // namespace
}  // namespace durasim
