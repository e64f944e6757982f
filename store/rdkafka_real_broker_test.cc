// Tests of RdKafkaLogClient, and of KafkaActionStateStore over it, against a
// real Apache Kafka broker: the one ci/kafka/with-broker.sh starts and names
// in DURASIM_KAFKA_BOOTSTRAP. Without that variable every test is skipped
// (GTEST_SKIP, which ctest reports as "Not Run"/skipped, never as passed).
//
// The broker runs with auto.create.topics.enable=false, so each test creates
// its own topics, under names no other test or run shares. Like the mock
// tests these run in wall-clock time: deadlines of a few seconds, and only
// generous bounds on how long a failure took.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "store/run_sync.h"
#include "store/action_state_store.h"
#include "store/kafka_action_state_store.h"
#include "store/rdkafka_log_client.h"
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

constexpr char kBootstrapVariable[] = "DURASIM_KAFKA_BOOTSTRAP";
constexpr int32_t kPartitions = 3;
constexpr milliseconds kDeadline{5000};
// Slack on top of a deadline for the checks of how long a failure took.
constexpr milliseconds kSlack{1500};

milliseconds Since(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The value of one config entry of a topic, read with the Admin API
// (DescribeConfigs) through a handle of the test's own.
Result<std::string> DescribeTopicConfig(const std::string& servers, const std::string& topic,
                                        const std::string& name) {
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "bootstrap.servers", servers.c_str(), errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
    rd_kafka_conf_destroy(conf);
    return Status(StatusCode::kInvalidArgument, errstr);
  }
  std::unique_ptr<rd_kafka_t, void (*)(rd_kafka_t*)> rk(
      rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr)), &rd_kafka_destroy);
  if (!rk) {
    rd_kafka_conf_destroy(conf);
    return Status(StatusCode::kInvalidArgument, errstr);
  }
  std::unique_ptr<rd_kafka_ConfigResource_t, void (*)(rd_kafka_ConfigResource_t*)> resource(
      rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str()), &rd_kafka_ConfigResource_destroy);
  std::unique_ptr<rd_kafka_AdminOptions_t, void (*)(rd_kafka_AdminOptions_t*)> options(
      rd_kafka_AdminOptions_new(rk.get(), RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS), &rd_kafka_AdminOptions_destroy);
  rd_kafka_AdminOptions_set_request_timeout(options.get(), static_cast<int>(kDeadline.count()), errstr,
                                            sizeof(errstr));
  std::unique_ptr<rd_kafka_queue_t, void (*)(rd_kafka_queue_t*)> queue(rd_kafka_queue_new(rk.get()),
                                                                       &rd_kafka_queue_destroy);
  rd_kafka_ConfigResource_t* resources[] = {resource.get()};
  rd_kafka_DescribeConfigs(rk.get(), resources, 1, options.get(), queue.get());
  std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> event(
      rd_kafka_queue_poll(queue.get(), static_cast<int>((kDeadline + kSlack).count())), &rd_kafka_event_destroy);
  if (!event) return Status(StatusCode::kUnavailable, "DescribeConfigs: no answer");
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status(StatusCode::kUnavailable, rd_kafka_event_error_string(event.get()));
  }
  size_t count = 0;
  const rd_kafka_ConfigResource_t** results =
      rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(event.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    if (rd_kafka_ConfigResource_error(results[i]) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status(StatusCode::kUnavailable, rd_kafka_ConfigResource_error_string(results[i]));
    }
    size_t entries = 0;
    const rd_kafka_ConfigEntry_t** configs = rd_kafka_ConfigResource_configs(results[i], &entries);
    for (size_t j = 0; j < entries; ++j) {
      const char* value = rd_kafka_ConfigEntry_value(configs[j]);
      if (name == rd_kafka_ConfigEntry_name(configs[j])) return std::string(value != nullptr ? value : "");
    }
  }
  return Status(StatusCode::kNotFound, "no config entry " + name + " for topic " + topic);
}

class RealBrokerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* servers = std::getenv(kBootstrapVariable);
    if (servers == nullptr || *servers == '\0') {
      GTEST_SKIP() << kBootstrapVariable
                   << " is not set: no real Kafka broker to test against "
                      "(run under ci/kafka/with-broker.sh to start one)";
    }
    servers_ = servers;
  }

  // A topic name no other test, process or run uses on this broker.
  static std::string FreshTopic(const std::string& tag = "") {
    static std::atomic<uint64_t> counter{0};
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    return "durasim-rbt-" + std::string(test->name()) + (tag.empty() ? "" : "-" + tag) + "-" +
           std::to_string(getpid()) + "-" + std::to_string(counter.fetch_add(1)) + "-" +
           std::to_string(Clock::now().time_since_epoch().count());
  }

  RdKafkaConfig Config(const std::string& topic, int32_t partitions = kPartitions, bool create = false) const {
    RdKafkaConfig config;
    config.bootstrap_servers = servers_;
    config.topic = topic;
    config.expected_partitions = partitions;
    config.create_topic = create;
    config.deadline = kDeadline;
    config.fetch_wait_max = milliseconds(10);
    return config;
  }

  static std::unique_ptr<RdKafkaLogClient> Connect(const RdKafkaConfig& config) {
    const Clock::time_point start = Clock::now();
    Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(config);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    std::cout << "connect to '" << config.topic << "'" << (config.create_topic ? " (create)" : "") << ": "
              << Since(start).count() << " ms\n";
    return client.ok() ? std::move(*client) : nullptr;
  }

  // Creates a compacted topic of `partitions` partitions; returns its name.
  std::string CreateTopic(int32_t partitions = kPartitions, const std::string& tag = "") {
    const std::string topic = FreshTopic(tag);
    EXPECT_NE(Connect(Config(topic, partitions, /*create=*/true)), nullptr) << topic;
    return topic;
  }

  static Result<RecordPosition> Put(RdKafkaLogClient& client, int32_t partition, std::string key,
                                    std::string value) {
    const ProduceTicket ticket = client.Produce(partition, std::move(key), std::move(value));
    client.Flush();
    return RunSync(client.AwaitAck(ticket));
  }

  std::string servers_;
};

TEST_F(RealBrokerTest, ConnectCreatesACompactedTopicThatALaterConnectFinds) {
  // Strategy: Connect with create_topic makes a topic of 4 partitions (not
  // the default 1, nor the 3 of the other tests) with cleanup.policy=compact,
  // checked with DescribeConfigs; later Connects without create_topic find
  // it with 4 partitions, whether they expect 4 or take what is there (0).
  const std::string topic = FreshTopic();
  constexpr int32_t kCreated = 4;
  std::unique_ptr<RdKafkaLogClient> creator = Connect(Config(topic, kCreated, /*create=*/true));
  ASSERT_NE(creator, nullptr);
  EXPECT_EQ(creator->partition_count(), kCreated);
  creator.reset();

  Result<std::string> policy = DescribeTopicConfig(servers_, topic, "cleanup.policy");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_EQ(*policy, "compact");

  for (int32_t expected : {kCreated, 0}) {
    std::unique_ptr<RdKafkaLogClient> client = Connect(Config(topic, expected, /*create=*/false));
    ASSERT_NE(client, nullptr) << "expected_partitions " << expected;
    EXPECT_EQ(client->partition_count(), kCreated);
    Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
    ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
    ASSERT_EQ(offsets->size(), static_cast<size_t>(kCreated));
    for (const PartitionOffsets& range : *offsets) {
      EXPECT_EQ(range.start, 0);
      EXPECT_EQ(range.end, 0);
    }
  }
}

TEST_F(RealBrokerTest, ProduceOffsetsAndReadReturnExactlyWhatWasWritten) {
  // Strategy: each record is put (produce, flush, await) on its own; three
  // to partition 2 are acknowledged at offsets 0, 1, 2, one to partition 0 at
  // 0. Keys hold '_', UTF-8 and a NUL byte; values hold every byte value
  // (100 KiB), a NUL and 0xff, and nothing. Offsets reports exactly those
  // ranges; Read returns every record byte for byte, also for a sub-range,
  // and so does a second client after the writer is gone.
  const std::string topic = CreateTopic();
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config(topic));
  ASSERT_NE(client, nullptr);
  std::string all_bytes;
  for (int i = 0; i < 100 * 1024; ++i) all_bytes.push_back(static_cast<char>(i % 256));
  const std::vector<std::pair<std::string, std::string>> written = {
      {"user_42_7_e1_a1", std::string("bin\0\xff\x01", 6)},
      {"caf\xc3\xa9_\xe2\x9c\x93_\xf0\x9f\x98\x80", all_bytes},
      {std::string("nul\0key_", 8), ""},
  };
  for (size_t i = 0; i < written.size(); ++i) {
    Result<RecordPosition> ack = Put(*client, 2, written[i].first, written[i].second);
    ASSERT_TRUE(ack.ok()) << ack.status().ToString();
    EXPECT_EQ(*ack, (RecordPosition{2, static_cast<int64_t>(i)}));
  }
  Result<RecordPosition> other = Put(*client, 0, "other_\xc3\xbc", "p0");
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_EQ(*other, (RecordPosition{0, 0}));

  auto check = [&](RdKafkaLogClient& reader) {
    Result<std::vector<PartitionOffsets>> offsets = reader.Offsets();
    ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
    ASSERT_EQ(offsets->size(), static_cast<size_t>(kPartitions));
    EXPECT_EQ((*offsets)[0].start, 0);
    EXPECT_EQ((*offsets)[0].end, 1);
    EXPECT_EQ((*offsets)[1].start, 0);
    EXPECT_EQ((*offsets)[1].end, 0);
    EXPECT_EQ((*offsets)[2].start, 0);
    EXPECT_EQ((*offsets)[2].end, 3);

    Result<std::vector<LogRecord>> records = reader.Read(2, 0, 3);
    ASSERT_TRUE(records.ok()) << records.status().ToString();
    ASSERT_EQ(records->size(), written.size());
    for (size_t i = 0; i < written.size(); ++i) {
      EXPECT_EQ((*records)[i].partition, 2);
      EXPECT_EQ((*records)[i].offset, static_cast<int64_t>(i));
      EXPECT_EQ((*records)[i].key, written[i].first) << "offset " << i;
      EXPECT_TRUE((*records)[i].value == written[i].second)
          << "offset " << i << ": value of " << (*records)[i].value.size() << " bytes differs from the "
          << written[i].second.size() << " written";
    }
    Result<std::vector<LogRecord>> middle = reader.Read(2, 1, 3);
    ASSERT_TRUE(middle.ok()) << middle.status().ToString();
    ASSERT_EQ(middle->size(), 2u);
    EXPECT_EQ((*middle)[0].offset, 1);
    EXPECT_EQ((*middle)[1].key, written[2].first);
    Result<std::vector<LogRecord>> p0 = reader.Read(0, 0, 1);
    ASSERT_TRUE(p0.ok()) << p0.status().ToString();
    ASSERT_EQ(p0->size(), 1u);
    EXPECT_EQ((*p0)[0].key, "other_\xc3\xbc");
    EXPECT_EQ((*p0)[0].value, "p0");
  };
  check(*client);
  client.reset();
  std::unique_ptr<RdKafkaLogClient> second = Connect(Config(topic));
  ASSERT_NE(second, nullptr);
  check(*second);
}

TEST_F(RealBrokerTest, MissingTopicWithoutCreateIsAClearError) {
  // Strategy: a topic the broker does not have, with create_topic off, is
  // kNotFound naming the topic, promptly (no waiting out the deadline); the
  // lookup does not create it, so asking again gives the same answer.
  const std::string topic = FreshTopic("missing");
  for (int32_t expected : {kPartitions, 0}) {
    const Clock::time_point start = Clock::now();
    Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(Config(topic, expected));
    std::cout << "missing topic: " << client.status().ToString() << " after " << Since(start).count() << " ms\n";
    ASSERT_FALSE(client.ok());
    EXPECT_EQ(client.status().code(), StatusCode::kNotFound);
    EXPECT_TRUE(Contains(client.status().message(), "'" + topic + "'")) << client.status().ToString();
    EXPECT_LT(Since(start), kDeadline + kSlack);
  }
}

TEST_F(RealBrokerTest, PartitionCountMismatchIsAClearError) {
  // Strategy: the topic has 3 partitions; expecting 5 is kInvalidArgument
  // naming the topic and both counts, also with create_topic on (the topic
  // exists, so nothing is created or changed): a later Connect still finds 3.
  const std::string topic = CreateTopic(kPartitions);
  for (bool create : {false, true}) {
    Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(Config(topic, 5, create));
    std::cout << "mismatch (create " << create << "): " << client.status().ToString() << "\n";
    ASSERT_FALSE(client.ok());
    EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
    EXPECT_TRUE(Contains(client.status().message(), "has 3 partitions, expected 5")) << client.status().ToString();
    EXPECT_TRUE(Contains(client.status().message(), topic)) << client.status().ToString();
  }
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config(topic, 0));
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->partition_count(), kPartitions);
}

TEST_F(RealBrokerTest, AddPartitionsAndDeleteRecordsChangeTheTopicOnTheBroker) {
  // Strategy: the admin API for real: CreatePartitions grows a 1-partition
  // topic to 3, which the client that asked keeps seeing as 1 and a new
  // client (expecting 3) sees as 3, the new ones empty and writable;
  // DeleteRecords below offset 2 of partition 0 moves its log start there
  // for every client, and a read from below it is refused, also by the
  // client that deleted after reading the range ahead (WillRead: what it
  // held is dropped, not served). The topic is
  // created deletable (compact,delete): on a compact-only topic the broker
  // refuses DeleteRecords with POLICY_VIOLATION, which is checked first.
  const std::string compact_only = CreateTopic(1, "compact");
  std::unique_ptr<RdKafkaLogClient> refused = Connect(Config(compact_only, 1));
  ASSERT_NE(refused, nullptr);
  ASSERT_TRUE(Put(*refused, 0, "k", "v").ok());
  const Status policy = refused->DeleteRecords(0, 1);
  std::cout << "DeleteRecords on a compact-only topic: " << policy.ToString() << "\n";
  EXPECT_TRUE(Contains(policy.message(), "POLICY_VIOLATION")) << policy.ToString();
  const std::string topic = FreshTopic("deletable");
  RdKafkaConfig deletable = Config(topic, 1, /*create=*/true);
  deletable.deletable = true;
  ASSERT_NE(Connect(deletable), nullptr);
  std::unique_ptr<RdKafkaLogClient> first = Connect(Config(topic, 1));
  ASSERT_NE(first, nullptr);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(Put(*first, 0, "k" + std::to_string(i), "v").ok());
  const Status grown = first->AddPartitions(3);
  ASSERT_TRUE(grown.ok()) << grown.ToString();
  EXPECT_EQ(first->partition_count(), 1);
  EXPECT_EQ(first->AddPartitions(1).code(), StatusCode::kInvalidArgument);  // a topic never shrinks
  // The broker's metadata may show the new count a moment later.
  std::unique_ptr<RdKafkaLogClient> later;
  for (const Clock::time_point until = Clock::now() + kDeadline; later == nullptr && Clock::now() < until;) {
    Result<std::unique_ptr<RdKafkaLogClient>> connected = RdKafkaLogClient::Connect(Config(topic, 3));
    if (connected.ok()) {
      later = std::move(connected).value();
    } else {
      std::this_thread::sleep_for(milliseconds(50));
    }
  }
  ASSERT_NE(later, nullptr);
  EXPECT_EQ(later->partition_count(), 3);
  Result<RecordPosition> moved = Put(*later, 2, "k9", "v");
  ASSERT_TRUE(moved.ok()) << moved.status().ToString();
  EXPECT_EQ(*moved, (RecordPosition{2, 0}));

  later->WillRead({ReadRange{0, 0, 3}});  // holds k0..k2, which the deletion makes stale
  const Status deleted = later->DeleteRecords(0, 2);
  ASSERT_TRUE(deleted.ok()) << deleted.ToString();
  EXPECT_EQ(later->Read(0, 0, 3).status().code(), StatusCode::kInvalidRecovery);
  std::unique_ptr<RdKafkaLogClient> reader = Connect(Config(topic, 3));
  ASSERT_NE(reader, nullptr);
  Result<std::vector<PartitionOffsets>> offsets = reader->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  ASSERT_EQ(offsets->size(), 3u);
  EXPECT_EQ((*offsets)[0].start, 2);
  EXPECT_EQ((*offsets)[0].end, 3);
  EXPECT_EQ((*offsets)[1].end, 0);
  EXPECT_EQ((*offsets)[2].end, 1);
  Result<std::vector<LogRecord>> kept = reader->Read(0, 2, 3);
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].key, "k2");
  EXPECT_FALSE(reader->Read(0, 0, 3).ok());
}

// --- KafkaActionStateStore over RdKafkaLogClient ------------------------------

TEST_F(RealBrokerTest, StoreRebuildsFromTheMarkerAfterACrash) {
  // Strategy: the store puts states (input keys with '_' and non-ASCII)
  // through a client, then overwrites the first one; the marker of a
  // checkpoint with nothing completed is taken and the client destroyed (a
  // crash, nothing flushed on the way out). The marker starts each partition
  // at its oldest live state, so on the first key's partition it skips the
  // superseded record at offset 0. A fresh store over a new client rebuilds
  // from that marker, scans exactly the records past it and finds the latest
  // state of every key.
  const std::string topic = CreateTopic();
  const std::vector<StateKey> keys = {Key("user_1", 1), Key("user_1", 2), Key("caf\xc3\xa9_\xe2\x9c\x93", 1),
                                      Key("x", 7), Key("__", 3)};
  RecoveryMarker marker;
  std::vector<PartitionOffsets> ends;
  {
    std::unique_ptr<RdKafkaLogClient> client = Connect(Config(topic));
    ASSERT_NE(client, nullptr);
    KafkaActionStateStore store(*client);
    for (size_t i = 0; i < keys.size(); ++i) {
      Status put = RunSync(store.Put(keys[i], State(static_cast<int64_t>(i))));
      ASSERT_TRUE(put.ok()) << put.ToString();
    }
    Status overwrite = RunSync(store.Put(keys[0], State(100)));
    ASSERT_TRUE(overwrite.ok()) << overwrite.ToString();
    Result<RecoveryMarker> saved = store.GetRecoveryMarker(CompletedBoundaries{});
    ASSERT_TRUE(saved.ok()) << saved.status().ToString();
    marker = *saved;
    Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
    ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
    ends = *offsets;
  }
  ASSERT_EQ(marker.offsets.size(), static_cast<size_t>(kPartitions));
  size_t to_scan = 0;
  std::cout << "marker:";
  for (const auto& [partition, offset] : marker.offsets) {
    std::cout << " " << partition << "@" << offset << "/" << ends[static_cast<size_t>(partition)].end;
    ASSERT_LE(offset, ends[static_cast<size_t>(partition)].end);
    to_scan += static_cast<size_t>(ends[static_cast<size_t>(partition)].end - offset);
  }
  std::cout << "\n";
  // user_1's two states are the first records of their partition.
  EXPECT_EQ(marker.offsets[PartitionForKey("user_1", kPartitions)], 1);
  EXPECT_EQ(to_scan, keys.size());

  std::unique_ptr<RdKafkaLogClient> client = Connect(Config(topic));
  ASSERT_NE(client, nullptr);
  KafkaActionStateStore store(*client);
  const Clock::time_point start = Clock::now();
  Status rebuilt = store.Rebuild(marker);
  std::cout << "rebuild of " << to_scan << " records: " << Since(start).count() << " ms\n";
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.ToString();
  for (size_t i = 0; i < keys.size(); ++i) {
    std::optional<ActionState> state = store.Get(keys[i]);
    ASSERT_TRUE(state.has_value()) << keys[i].key << " " << keys[i].seq;
    EXPECT_EQ(*state, State(i == 0 ? 100 : static_cast<int64_t>(i))) << keys[i].key << " " << keys[i].seq;
  }
  EXPECT_FALSE(store.Get(Key("user_1", 3)).has_value());
  EXPECT_EQ(store.Stats().records_scanned, to_scan);
  EXPECT_EQ(store.Stats().cached_states, keys.size());
}

TEST_F(RealBrokerTest, StoreRebuildRejectsAMarkerThatDoesNotFitTheTopic) {
  // Strategy: over a 3-partition topic holding states, markers naming
  // partitions {1, 2} or {0, 1, 2, 3} are kInvalidRecovery naming both
  // partition sets, while {0, 1} is a checkpoint from before partition 2
  // was added: partition 2 is read from offset 0 and every state is found;
  // a marker offset past a partition's end is
  // kInvalidRecovery naming the offset, the partition and the log's range.
  // The end itself (nothing to replay) is fine.
  const std::string topic = CreateTopic();
  std::unique_ptr<RdKafkaLogClient> client = Connect(Config(topic));
  ASSERT_NE(client, nullptr);
  {
    KafkaActionStateStore writer(*client);
    for (int64_t seq = 1; seq <= 6; ++seq) {
      ASSERT_TRUE(RunSync(writer.Put(Key("k" + std::to_string(seq), seq), State(seq))).ok());
    }
  }
  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  client.reset();

  std::unique_ptr<RdKafkaLogClient> fresh = Connect(Config(topic));
  ASSERT_NE(fresh, nullptr);
  KafkaActionStateStore store(*fresh);

  Status fewer = store.Rebuild(MarkerFor(*fresh, {{0, 0}, {1, 0}}));
  std::cout << "fewer partitions: " << fewer.ToString() << "\n";
  EXPECT_TRUE(fewer.ok()) << fewer.ToString();
  EXPECT_EQ(store.Stats().cached_states, 6u);

  Status gap = store.Rebuild(MarkerFor(*fresh, {{1, 0}, {2, 0}}));
  std::cout << "not 0..n-1: " << gap.ToString() << "\n";
  EXPECT_EQ(gap.code(), StatusCode::kInvalidRecovery);
  EXPECT_TRUE(Contains(gap.message(), "{1, 2}")) << gap.ToString();
  EXPECT_TRUE(Contains(gap.message(), "{0, 1, 2}")) << gap.ToString();

  Status too_many = store.Rebuild(MarkerFor(*fresh, {{0, 0}, {1, 0}, {2, 0}, {3, 0}}));
  std::cout << "too many partitions: " << too_many.ToString() << "\n";
  EXPECT_EQ(too_many.code(), StatusCode::kInvalidRecovery);
  EXPECT_TRUE(Contains(too_many.message(), "{0, 1, 2, 3}")) << too_many.ToString();
  EXPECT_TRUE(Contains(too_many.message(), "{0, 1, 2}")) << too_many.ToString();

  for (int32_t p = 0; p < kPartitions; ++p) {
    RecoveryMarker beyond = MarkerFor(*fresh, {{0, 0}, {1, 0}, {2, 0}});
    const int64_t end = (*offsets)[static_cast<size_t>(p)].end;
    beyond.offsets[p] = end + 1;
    Status past_end = store.Rebuild(beyond);
    std::cout << "past the end of partition " << p << ": " << past_end.ToString()
              << "; states cached after the failure: " << store.Stats().cached_states << "\n";
    EXPECT_EQ(past_end.code(), StatusCode::kInvalidRecovery);
    EXPECT_TRUE(Contains(past_end.message(),
                         "offset " + std::to_string(end + 1) + " for partition " + std::to_string(p)))
        << past_end.ToString();
    EXPECT_TRUE(Contains(past_end.message(), "[0, " + std::to_string(end) + "]")) << past_end.ToString();
  }

  RecoveryMarker at_end = MarkerFor(*fresh, {});
  for (int32_t p = 0; p < kPartitions; ++p) at_end.offsets[p] = (*offsets)[static_cast<size_t>(p)].end;
  Status nothing_to_replay = store.Rebuild(at_end);
  EXPECT_TRUE(nothing_to_replay.ok()) << nothing_to_replay.ToString();
  EXPECT_EQ(store.Stats().records_scanned, 0u);
  EXPECT_EQ(store.Stats().cached_states, 0u);
}

TEST_F(RealBrokerTest, StoreRebuildRejectsACorruptValueOrKey) {
  // Strategy: per case a fresh topic gets two valid states through the store
  // (offsets 0 and 1 of one partition), then a raw Produce through the same
  // client appends a bad record at offset 2 of that partition: garbage
  // (text, then binary) under a valid record key; a valid value under a key
  // that does not parse; a valid value under another state's key. A fresh
  // store over a new client, rebuilding from offset 0, fails with
  // kInvalidRecovery naming that partition and offset 2.
  const StateKey state_key = Key("k_1", 1);
  const int32_t partition = PartitionForKey(state_key.key, kPartitions);
  struct Case {
    std::string name;
    std::string key;
    std::string value;
  };
  const std::vector<Case> cases = {
      {"text", EncodeRecordKey(state_key), "{not json"},
      {"binary", EncodeRecordKey(state_key), std::string("\xff\x00\x01garbage\x80", 11)},
      {"badkey", "no-separators", EncodeStateValue(state_key, State(1))},
      {"otherkey", EncodeRecordKey(state_key), EncodeStateValue(Key("k_1", 2), State(1))},
  };
  for (const Case& bad : cases) {
    SCOPED_TRACE(bad.name);
    const std::string topic = CreateTopic(kPartitions, bad.name);
    std::unique_ptr<RdKafkaLogClient> client = Connect(Config(topic));
    ASSERT_NE(client, nullptr);
    KafkaActionStateStore store(*client);
    ASSERT_TRUE(RunSync(store.Put(state_key, State(1))).ok());
    ASSERT_TRUE(RunSync(store.Put(Key("k_1", 2), State(2))).ok());
    Result<RecordPosition> raw = Put(*client, partition, bad.key, bad.value);
    ASSERT_TRUE(raw.ok()) << raw.status().ToString();
    ASSERT_EQ(*raw, (RecordPosition{partition, 2}));
    client.reset();

    std::unique_ptr<RdKafkaLogClient> fresh = Connect(Config(topic));
    ASSERT_NE(fresh, nullptr);
    KafkaActionStateStore restored(*fresh);
    RecoveryMarker marker = MarkerFor(*fresh, {});
    for (int32_t p = 0; p < kPartitions; ++p) marker.offsets[p] = 0;
    Status rebuilt = restored.Rebuild(marker);
    std::cout << bad.name << ": " << rebuilt.ToString() << "\n";
    EXPECT_EQ(rebuilt.code(), StatusCode::kInvalidRecovery) << rebuilt.ToString();
    EXPECT_TRUE(Contains(rebuilt.message(), "partition " + std::to_string(partition) + " offset 2"))
        << rebuilt.ToString();
  }
}

}  // namespace
}  // namespace durasim
