// Tests of `durasim inspect` over a topic the store wrote: on librdkafka's
// embedded mock cluster (InspectMockTest, label mock), and on the real
// broker ci/kafka/with-broker.sh names in DURASIM_KAFKA_BOOTSTRAP
// (InspectRealBrokerTest, label kafka; skipped without it; the same
// source built with DURASIM_INSPECT_REAL_BROKER). The same
// checks on both: the records decoded, a marker's restore run by the
// store's own rebuild, and a corrupt record named with its partition and
// offset and a non-zero exit.
#include "sim/cli/inspect_command.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "sim/exit_codes.h"
#include "store/kafka_action_state_store.h"
#include "store/kafka_mock_cluster.h"
#include "store/rdkafka_log_client.h"
#include "store/recovery_marker_json.h"
#include "store/run_sync.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

constexpr const char* kBootstrapVariable = "DURASIM_KAFKA_BOOTSTRAP";

StateKey Key(const std::string& key, int64_t seq) { return StateKey{key, seq, 0xe1, 0xa1}; }

struct Inspected {
  int code = 0;
  std::string out;
  std::string err;
};

class InspectTest : public ::testing::Test {
 protected:
  // The broker: the mock cluster's, or the real one's (kafka).
  virtual std::string Servers() = 0;
  virtual bool CreatesTopics() const = 0;

  std::string FreshTopic() {
    static std::atomic<uint64_t> counter{0};
    return fmt::format("durasim-inspect-{}-{}-{}", getpid(), counter.fetch_add(1),
                       std::chrono::steady_clock::now().time_since_epoch().count());
  }

  RdKafkaConfig Config(const std::string& topic) {
    RdKafkaConfig config;
    config.bootstrap_servers = Servers();
    config.topic = topic;
    config.expected_partitions = 1;
    config.create_topic = CreatesTopics();
    config.deadline = std::chrono::milliseconds(10'000);
    return config;
  }

  Inspected Inspect(const std::string& topic, std::optional<std::string> marker = std::nullopt) {
    InspectOptions options;
    options.bootstrap_servers = Servers();
    options.topic = topic;
    options.marker_json = std::move(marker);
    std::ostringstream out, err;
    Inspected inspected;
    inspected.code = RunInspect(options, out, err);
    inspected.out = out.str();
    inspected.err = err.str();
    return inspected;
  }

  // The store writes: input a seq 1 started and its call's result (not
  // finished), input b seq 1 completed (finished), the marker of a
  // checkpoint that finished b, and b's prune (a cleanup record and, once
  // it is acknowledged, a tombstone). Returns the marker's JSON.
  std::string WriteStates(LogClient& client) {
    KafkaActionStateStore store(client, /*tombstones=*/true, /*cleanup_records=*/true);
    ActionState started;
    EXPECT_TRUE(RunSync(store.Put(Key("a", 1), started)).ok());
    ActionState result;
    result.call_results.push_back(CallResult{"llm", 0xabc, CallStatus::kSucceeded, 70, ""});
    EXPECT_TRUE(RunSync(store.Put(Key("a", 1), result)).ok());
    ActionState done;
    done.completed = true;
    done.emitted_events.push_back(EmittedEvent{kOutputEventType, 5});
    EXPECT_TRUE(RunSync(store.Put(Key("b", 1), done)).ok());
    // A broker that has just started may not have the group coordinator
    // the topic identity needs yet: wait for it, a little.
    Result<RecoveryMarker> marker = store.GetRecoveryMarker({{"b", 1}});
    for (int tries = 0; !marker.ok() && marker.status().code() == StatusCode::kUnavailable && tries < 10; ++tries) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      marker = store.GetRecoveryMarker({{"b", 1}});
    }
    EXPECT_TRUE(marker.ok()) << marker.status().ToString();
    if (!marker.ok()) return "";
    store.Prune("b", 1);
    // The tombstone follows once its cleanup record is acknowledged.
    RunSync(store.FinishPrunes());
    return MarkerToJson(*marker);
  }

  void ProduceCorrupt(LogClient& client) {
    const ProduceTicket ticket = client.Produce(0, EncodeRecordKey(Key("c", 1)), "{not a state");
    client.Flush();
    EXPECT_TRUE(RunSync(client.AwaitAck(ticket)).ok());
  }

  // Strategy: every record decoded by partition and offset; the marker's
  // restore by the store's rebuild: it reads from the unfinished state's
  // offset, caches a's result (reused, no call) and forgets b (its
  // tombstone); a is the one unfinished input.
  void DecodesAndRestores() {
    const std::string topic = FreshTopic();
    std::unique_ptr<RdKafkaLogClient> client = Connect(topic);
    const std::string marker = WriteStates(*client);
    const Inspected plain = Inspect(topic);
    EXPECT_EQ(plain.code, kExitOk) << plain.out << plain.err;
    EXPECT_NE(plain.out.find("partition 0: offsets [0, 5), 5 records"), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find("0  key=\"a\" seq=1 event=00000000000000e1 action=00000000000000a1  started"),
              std::string::npos)
        << plain.out;
    EXPECT_NE(plain.out.find("1  key=\"a\" seq=1 event=00000000000000e1 action=00000000000000a1  call done: call 0 "
                             "llm SUCCEEDED 70"),
              std::string::npos)
        << plain.out;
    EXPECT_NE(plain.out.find("completed: output 5"), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find("key=\"b\" cleanup  cleanup: the states of key \"b\" up to seq 1 were pruned"),
              std::string::npos)
        << plain.out;
    EXPECT_NE(plain.out.find("tombstone"), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find("5 records: 3 states, 1 tombstones, 1 cleanup records, 0 undecodable"), std::string::npos)
        << plain.out;

    const Inspected restored = Inspect(topic, marker);
    EXPECT_EQ(restored.code, kExitOk) << restored.out << restored.err;
    // The marker is the unfinished state's cached record, its result.
    EXPECT_NE(restored.out.find("reads partition 0 from offset 1 to 5"), std::string::npos) << restored.out;
    EXPECT_NE(restored.out.find("below the marker, NOT read: 1 state of unfinished inputs"), std::string::npos)
        << restored.out;
    EXPECT_NE(restored.out.find("partition 0 offset 0  key=\"a\" seq=1  started; a later record of it, at partition 0 "
                                "offset 1, is read"),
              std::string::npos)
        << restored.out;
    EXPECT_NE(restored.out.find("accepted: scanned 4 records, caches 1 state"), std::string::npos) << restored.out;
    EXPECT_NE(restored.out.find("input key=\"a\" seq=1: unfinished"), std::string::npos) << restored.out;
    EXPECT_NE(restored.out.find("resumes: reuses 1 saved call result, then calls"), std::string::npos) << restored.out;
    EXPECT_EQ(restored.out.find("key=\"b\" seq=1:"), std::string::npos) << restored.out;  // forgotten
    EXPECT_NE(restored.out.find("unfinished inputs: key=\"a\" seq=1"), std::string::npos) << restored.out;
  }

  // Strategy: a record that does not decode is named with its partition
  // and offset, the inspector exits 1, and the store's rebuild from a marker
  // below it rejects it (as a restore would).
  void NamesACorruptRecord() {
    const std::string topic = FreshTopic();
    std::unique_ptr<RdKafkaLogClient> client = Connect(topic);
    const std::string marker = WriteStates(*client);
    ProduceCorrupt(*client);
    const Inspected plain = Inspect(topic);
    EXPECT_EQ(plain.code, kExitNotAsExpected) << plain.out << plain.err;
    EXPECT_NE(plain.out.find("<== UNDECODABLE at partition 0 offset 5"), std::string::npos) << plain.out;
    EXPECT_NE(plain.err.find("1 undecodable record"), std::string::npos) << plain.err;
    const Inspected restored = Inspect(topic, marker);
    EXPECT_EQ(restored.code, kExitNotAsExpected) << restored.out << restored.err;
    EXPECT_NE(restored.out.find("REJECTED after scanning 5 records: invalid-recovery: partition 0 offset 5"),
              std::string::npos)
        << restored.out;
  }

  // Strategy: a marker that is no marker is a usage error; a topic that does
  // not exist is an error, never a crash.
  void BadInput() {
    const std::string topic = FreshTopic();
    std::unique_ptr<RdKafkaLogClient> client = Connect(topic);
    EXPECT_EQ(Inspect(topic, std::string("{\"version\": 2}")).code, kExitUsage);
    const Inspected missing = Inspect(FreshTopic());
    EXPECT_EQ(missing.code, kExitError) << missing.out << missing.err;
  }

  // Strategy: inspect writes nothing: --marker on a topic no store gave an
  // incarnation is rejected as having none, twice (the first minted none),
  // and once a writing client has asked for the topic's incarnation, the
  // same inspection gets past it (the check can fail).
  void WritesNothing() {
    const std::string topic = FreshTopic();
    std::unique_ptr<RdKafkaLogClient> client = Connect(topic);
    const std::string marker =
        fmt::format(R"({{"version":2,"topic":"{}","incarnation":"group-offset-7","offsets":{{"0":0}}}})", topic);
    for (int i = 0; i < 2; ++i) {
      const Inspected inspected = Inspect(topic, marker);
      EXPECT_EQ(inspected.code, kExitNotAsExpected) << inspected.out << inspected.err;
      EXPECT_NE(inspected.out.find("has no incarnation yet"), std::string::npos) << i << inspected.out;
    }
    ASSERT_TRUE(client->Topic().ok());  // a writing client mints it
    const Inspected after = Inspect(topic, marker);
    EXPECT_EQ(after.out.find("has no incarnation yet"), std::string::npos) << after.out;
    EXPECT_NE(after.out.find("REJECTED"), std::string::npos) << after.out;  // group-offset-7 is not it
  }

  virtual std::unique_ptr<RdKafkaLogClient> Connect(const std::string& topic) {
    Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(Config(topic));
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return std::move(client).value();
  }
};

class InspectMockTest : public InspectTest {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<KafkaMockCluster>> cluster = KafkaMockCluster::Start(1);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(cluster).value();
  }
  std::string Servers() override { return cluster_->bootstrap_servers(); }
  bool CreatesTopics() const override { return false; }
  std::unique_ptr<RdKafkaLogClient> Connect(const std::string& topic) override {
    EXPECT_TRUE(cluster_->CreateTopic(topic, 1).ok());
    return InspectTest::Connect(topic);
  }
  std::unique_ptr<KafkaMockCluster> cluster_;
};

#ifndef DURASIM_INSPECT_REAL_BROKER
TEST_F(InspectMockTest, DecodesAndRestores) { DecodesAndRestores(); }
TEST_F(InspectMockTest, NamesACorruptRecord) { NamesACorruptRecord(); }
TEST_F(InspectMockTest, BadInput) { BadInput(); }
TEST_F(InspectMockTest, WritesNothing) { WritesNothing(); }
#endif

class InspectRealBrokerTest : public InspectTest {
 protected:
  void SetUp() override {
    const char* servers = std::getenv(kBootstrapVariable);
    if (servers == nullptr || *servers == '\0') {
      GTEST_SKIP() << kBootstrapVariable << " is not set: no real Kafka broker (run under ci/kafka/with-broker.sh)";
    }
    servers_ = servers;
  }
  std::string Servers() override { return servers_; }
  bool CreatesTopics() const override { return true; }
  std::string servers_;
};

#ifdef DURASIM_INSPECT_REAL_BROKER
TEST_F(InspectRealBrokerTest, DecodesAndRestores) { DecodesAndRestores(); }
TEST_F(InspectRealBrokerTest, NamesACorruptRecord) { NamesACorruptRecord(); }
TEST_F(InspectRealBrokerTest, BadInput) { BadInput(); }
TEST_F(InspectRealBrokerTest, WritesNothing) { WritesNothing(); }
#endif

}  // namespace
}  // namespace durasim
