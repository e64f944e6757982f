// Tests of ClientRecordSink over librdkafka's mock cluster (RdKafkaBackend):
// the sink a SimulatedLogClient uses on the mock and kafka backends. These
// run in wall-clock time against the in-process mock.
#include "model/backends/client_record_sink.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "model/backends/mock_backend_test_support.h"
#include "model/backends/rdkafka_backend.h"

namespace durasim {
namespace {

constexpr int32_t kPartitions = 2;

class ClientRecordSinkTest : public backend_test::MockBackendTest {
 protected:
  ClientRecordSinkTest() : MockBackendTest(kPartitions) {}

  void OnAppend(const LogRecord& record, AppendSeen seen) override {
    EXPECT_EQ(seen, AppendSeen::kAppended);
    appended_.push_back(record);
  }

  std::unique_ptr<ClientRecordSink> Sink() {
    Result<std::unique_ptr<LogClient>> client = backend_->ConnectClient();
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    if (!client.ok()) return nullptr;
    return std::make_unique<ClientRecordSink>(std::move(*client), *backend_, corrupted_, lifecycle_);
  }

  std::vector<LogRecord> appended_;
};

// Strategy: an append is a whole put on the real client: it returns the
// broker's position and reports the record, with that position, at once.
TEST_F(ClientRecordSinkTest, AppendReturnsThePositionAndReportsTheRecord) {
  std::unique_ptr<ClientRecordSink> sink = Sink();
  ASSERT_NE(sink, nullptr);
  EXPECT_EQ(sink->partitions(), kPartitions);
  ASSERT_TRUE(sink->Append(1, "k", "v1").ok());
  Result<RecordPosition> second = sink->Append(1, "k", "v2");
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(*second, (RecordPosition{1, 1}));
  ASSERT_EQ(appended_.size(), 2u);
  EXPECT_EQ(appended_[1].partition, 1);
  EXPECT_EQ(appended_[1].offset, 1);
  EXPECT_EQ(appended_[1].value, "v2");
  Result<std::vector<PartitionOffsets>> offsets = sink->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  EXPECT_EQ((*offsets)[1].end, 2);
}

// Strategy: a refused append is refused by the mock broker itself: the real
// client answers kNotPersisted naming the broker's error, nothing is
// reported, the log does not hold it, and the next append continues the log.
TEST_F(ClientRecordSinkTest, RefusedAppendIsNotPersistedByTheBroker) {
  std::unique_ptr<ClientRecordSink> sink = Sink();
  ASSERT_NE(sink, nullptr);
  ASSERT_TRUE(backend_->has_write_fault_controls());
  Result<RecordPosition> refused = sink->SendRefused(0, "k", "refused");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kNotPersisted) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("INVALID_RECORD"), std::string::npos) << refused.status().ToString();
  EXPECT_TRUE(appended_.empty());
  Result<RecordPosition> next = sink->Append(0, "k", "next");
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->offset, 0);
  Result<std::vector<std::vector<LogRecord>>> all = backend_->ReadAll();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  ASSERT_EQ((*all)[0].size(), 1u);
  EXPECT_EQ((*all)[0][0].value, "next");
}

// Strategy: a record whose acknowledgement the broker is to lose is
// persisted by the mock, which holds the answer, and once it is in the log
// librdkafka gives up on the answer (purged in flight, possibly persisted:
// no waiting for the message timeout); the sink finds it at the end of its
// partition and reports it with its offset, and the next append continues
// the log on the incarnation's own client.
TEST_F(ClientRecordSinkTest, LostAcknowledgementIsPossiblyPersistedAndTheRecordIsReported) {
  std::unique_ptr<ClientRecordSink> sink = Sink();
  ASSERT_NE(sink, nullptr);
  ASSERT_TRUE(sink->Append(0, "k", "first").ok());
  sink->LoseAckOf(0, "k", "lost");
  Result<RecordPosition> lost = sink->Append(0, "k", "lost");
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.status().code(), StatusCode::kPossiblyPersisted) << lost.status().ToString();
  EXPECT_NE(lost.status().message().find("_PURGE_INFLIGHT"), std::string::npos) << lost.status().ToString();
  ASSERT_EQ(appended_.size(), 2u);
  EXPECT_EQ(appended_[1].offset, 1);
  EXPECT_EQ(appended_[1].value, "lost");
  Result<RecordPosition> next = sink->Append(0, "k", "next");
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->offset, 2);
  // A refusal after a lost acknowledgement is still the broker's (found by
  // the generated differential: the mock's per-broker error stack, once
  // used, shadowed the cluster-wide one).
  Result<RecordPosition> refused = sink->SendRefused(0, "k", "refused");
  EXPECT_EQ(refused.status().code(), StatusCode::kNotPersisted) << refused.status().ToString();
}

// Strategy: a record the harness corrupted reads back corrupted through the
// sink, and only that record.
TEST_F(ClientRecordSinkTest, ReadShowsCorruptedRecordsCorrupted) {
  std::unique_ptr<ClientRecordSink> sink = Sink();
  ASSERT_NE(sink, nullptr);
  ASSERT_TRUE(sink->Append(0, "k", "first").ok());
  ASSERT_TRUE(sink->Append(0, "k", "second").ok());
  corrupted_.insert({0, 1});
  Result<std::vector<LogRecord>> records = sink->Read(0, 0, 2);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[0].value, "first");
  EXPECT_EQ((*records)[1].value, kCorruptValue);
}

// Strategy: the backend takes its broker down for real (a client of our
// own, with a short deadline, cannot read); the sink's next call brings it
// back up first, so the append succeeds; so does a new incarnation's
// connect during the outage.
TEST_F(ClientRecordSinkTest, BrokerTakenDownIsBroughtBackBeforeTheNextCall) {
  std::unique_ptr<ClientRecordSink> sink = Sink();
  ASSERT_NE(sink, nullptr);
  ASSERT_TRUE(sink->Append(0, "k", "before").ok());
  RdKafkaConfig probe_config = backend_->config();
  probe_config.deadline = std::chrono::milliseconds(500);
  Result<std::unique_ptr<RdKafkaLogClient>> probe = RdKafkaLogClient::Connect(probe_config);
  ASSERT_TRUE(probe.ok()) << probe.status().ToString();
  ASSERT_TRUE(backend_->TakeBrokerDown().ok());
  Result<std::vector<PartitionOffsets>> while_down = (*probe)->Offsets();
  EXPECT_EQ(while_down.status().code(), StatusCode::kUnavailable) << while_down.status().ToString();
  Result<RecordPosition> after = sink->Append(0, "k", "after");
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->offset, 1);
  ASSERT_TRUE(backend_->TakeBrokerDown().ok());
  std::unique_ptr<ClientRecordSink> restarted = Sink();
  ASSERT_NE(restarted, nullptr);
  Result<std::vector<LogRecord>> records = restarted->Read(0, 0, 2);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  EXPECT_EQ(records->size(), 2u);
}

// Strategy: the backend tells an infrastructure failure (the broker not
// answering, a connection refused, an ordinary write not persisted) from an
// answer about the data the store asked for (an invalid range, an invalid
// argument), keeps the first one with what the harness was doing, and from
// then on asks the broker nothing: every call fails at once with it.
TEST_F(ClientRecordSinkTest, InfrastructureFailuresAreNotedAndEndTheRunFast) {
  EXPECT_TRUE(backend_->InfrastructureFailure().ok());
  (void)backend_->Note(Status(StatusCode::kInvalidRecovery, "range below the log start"), "a read of the log");
  (void)backend_->Note(Status(StatusCode::kInvalidArgument, "no partition 9"), "a read of the log");
  (void)backend_->Note(Status(StatusCode::kNotPersisted, "refused as armed"), "a put it was to refuse");
  EXPECT_TRUE(backend_->InfrastructureFailure().ok()) << backend_->InfrastructureFailure().ToString();
  (void)backend_->Note(Status(StatusCode::kPossiblyPersisted, "no acknowledgement within 10000 ms"), "a put",
                       /*write=*/true);
  const Status infra = backend_->InfrastructureFailure();
  ASSERT_FALSE(infra.ok());
  EXPECT_NE(infra.message().find("librdkafka's mock cluster at " + backend_->config().bootstrap_servers +
                                 " failed a put: possibly-persisted: no acknowledgement within 10000 ms"),
            std::string::npos)
      << infra.message();
  (void)backend_->Note(Status(StatusCode::kUnavailable, "later"), "a read of the log");
  EXPECT_EQ(backend_->InfrastructureFailure().message(), infra.message());  // the first one counts
  const auto start = std::chrono::steady_clock::now();
  Result<std::unique_ptr<LogClient>> client = backend_->ConnectClient();
  ASSERT_FALSE(client.ok());
  EXPECT_NE(client.status().message().find("not asked again"), std::string::npos) << client.status().ToString();
  EXPECT_FALSE(backend_->ReadAll().ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

// Strategy: a read the store asks for outside the log is the store's
// business (invalid-recovery), never an infrastructure failure.
TEST_F(ClientRecordSinkTest, ARangeOutsideTheLogIsNoInfrastructureFailure) {
  std::unique_ptr<ClientRecordSink> sink = Sink();
  ASSERT_NE(sink, nullptr);
  ASSERT_TRUE(sink->Append(0, "k", "v").ok());
  Result<std::vector<LogRecord>> past = sink->Read(0, 0, 5);
  EXPECT_EQ(past.status().code(), StatusCode::kInvalidRecovery) << past.status().ToString();
  EXPECT_TRUE(backend_->InfrastructureFailure().ok()) << backend_->InfrastructureFailure().ToString();
}

}  // namespace
}  // namespace durasim
