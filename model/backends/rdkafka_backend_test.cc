// Tests of RdKafkaBackend's discovery over librdkafka's mock cluster: the
// records the harness was never told of are found in the log. These run in
// wall-clock time against the in-process mock.
#include "model/backends/rdkafka_backend.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/backends/mock_backend_test_support.h"
#include "store/run_sync.h"

namespace durasim {
namespace {

constexpr int32_t kPartitions = 2;
using Found = std::tuple<int32_t, int64_t, AppendSeen>;

class RdKafkaBackendTest : public backend_test::MockBackendTest {
 protected:
  RdKafkaBackendTest() : MockBackendTest(kPartitions) {}

  void SetUp() override {
    MockBackendTest::SetUp();
    if (HasFatalFailure()) return;
    Result<std::unique_ptr<LogClient>> client = backend_->ConnectClient();
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    writer_ = std::move(*client);
  }

  void OnAppend(const LogRecord& record, AppendSeen seen) override {
    found_.emplace_back(record.partition, record.offset, seen);
  }

  // Writes a record past the harness: nothing reports it.
  void WriteUnreported(int32_t partition, const std::string& value) {
    const ProduceTicket ticket = writer_->Produce(partition, "k", value);
    writer_->Flush();
    Result<RecordPosition> ack = RunSync(writer_->AwaitAck(ticket));
    ASSERT_TRUE(ack.ok()) << ack.status().ToString();
  }

  std::unique_ptr<LogClient> writer_;
  std::vector<Found> found_;
};

// Strategy: four records the harness was not told of, then two of them
// reported (offsets 0 and 2 of partition 0, leaving a gap at 1); a
// discovery finds the gap and partition 1's record, and neither reported
// one again; a record written after is found by the next discovery, and a
// discovery with nothing new finds nothing.
// Invariant: every record of the log is reported exactly once.
TEST_F(RdKafkaBackendTest, DiscoveryFindsEveryUnreportedRecordOnce) {
  for (const char* value : {"a", "b", "c"}) WriteUnreported(0, value);
  WriteUnreported(1, "d");
  Result<std::vector<std::vector<LogRecord>>> log = backend_->ReadAll();
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  ASSERT_EQ((*log)[0].size(), 3u);
  backend_->Report((*log)[0][0], AppendSeen::kAppended);
  backend_->Report((*log)[0][2], AppendSeen::kAppended);
  found_.clear();

  ASSERT_TRUE(backend_->DiscoverAppends().ok());
  EXPECT_EQ(found_, (std::vector<Found>{{0, 1, AppendSeen::kDiscovered}, {1, 0, AppendSeen::kDiscovered}}));

  found_.clear();
  WriteUnreported(0, "e");
  ASSERT_TRUE(backend_->DiscoverAppends().ok());
  EXPECT_EQ(found_, (std::vector<Found>{{0, 3, AppendSeen::kDiscovered}}));

  found_.clear();
  ASSERT_TRUE(backend_->DiscoverAppends().ok());
  EXPECT_TRUE(found_.empty());
}

// Strategy: a foreign append (the harness's own write, counted as reported)
// between unreported records, then the topic re-created (its offsets start
// over): discovery skips the foreign record, and after the re-creation finds
// the new topic's records from offset 0.
// Invariant: a foreign record is never discovered; a re-created topic's
// records are, each once.
TEST_F(RdKafkaBackendTest, DiscoverySkipsForeignRecordsAndStartsOverWithARecreatedTopic) {
  WriteUnreported(0, "a");
  Result<RecordPosition> foreign = backend_->AppendForeign(0, "k", "foreign");
  ASSERT_TRUE(foreign.ok()) << foreign.status().ToString();
  EXPECT_EQ(*foreign, (RecordPosition{0, 1}));
  WriteUnreported(0, "b");
  ASSERT_TRUE(backend_->DiscoverAppends().ok());
  EXPECT_EQ(found_, (std::vector<Found>{{0, 0, AppendSeen::kDiscovered}, {0, 2, AppendSeen::kDiscovered}}));

  found_.clear();
  backend_->Disconnect();
  ASSERT_TRUE(backend_->RecreateTopic().ok());
  Listen();
  Result<std::unique_ptr<LogClient>> client = backend_->ConnectClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  writer_ = std::move(*client);
  WriteUnreported(1, "c");
  ASSERT_TRUE(backend_->DiscoverAppends().ok());
  EXPECT_EQ(found_, (std::vector<Found>{{1, 0, AppendSeen::kDiscovered}}));
}

}  // namespace
}  // namespace durasim
