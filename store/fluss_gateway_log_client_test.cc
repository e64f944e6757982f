// Tests of FlussGateway and FlussGatewayLogClient against a real Apache
// Fluss cluster: the one ci/fluss/with-cluster.sh starts, through the gateway
// it names in DURASIM_FLUSS_GATEWAY. Without that variable the cluster tests
// are skipped (GTEST_SKIP, which ctest reports as skipped, never as
// passed). The hex codec and a gateway that is not there are tested in
// fluss_gateway_test.cc, without a cluster.
//
// Strategy: each test makes its own table; what the store relies on is
// asserted on what the cluster answers: offsets per bucket from 0 in append
// order, reads of exact ranges, a read past the end refused as the Kafka
// client refuses it, a new incarnation after drop and create, and the
// failures a caller must tell apart (no table, no gateway).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "store/fluss_gateway.h"
#include "store/fluss_gateway_log_client.h"
#include "store/run_sync.h"

namespace durasim {
namespace {

const char* Gateway() { return std::getenv("DURASIM_FLUSS_GATEWAY"); }

std::string FreshTable() {
  static std::atomic<int> counter{0};
  return "test_" + std::to_string(getpid()) + "_" + std::to_string(counter.fetch_add(1));
}

class FlussGatewayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Gateway() == nullptr) GTEST_SKIP() << "DURASIM_FLUSS_GATEWAY is not set (run under ci/fluss/with-cluster.sh)";
    Result<std::unique_ptr<FlussGateway>> admin = FlussGateway::Connect(Gateway(), std::chrono::seconds(60));
    ASSERT_TRUE(admin.ok()) << admin.status().ToString();
    admin_ = std::move(admin).value();
    table_ = FreshTable();
    Result<int64_t> created = admin_->CreateTable(table_, 3);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    table_id_ = *created;
  }
  void TearDown() override {
    if (admin_) {
      EXPECT_TRUE(admin_->DropTable(table_).ok());
    }
  }
  std::unique_ptr<FlussGatewayLogClient> Client(int32_t visible = 0) {
    Result<std::unique_ptr<FlussGatewayLogClient>> client =
        FlussGatewayLogClient::Connect(FlussGatewayConfig{Gateway(), table_, visible});
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? std::move(client).value() : nullptr;
  }

  std::unique_ptr<FlussGateway> admin_;
  std::string table_;
  int64_t table_id_ = 0;
};

TEST_F(FlussGatewayTest, OffsetsCountFromZeroPerBucketInAppendOrder) {
  std::unique_ptr<FlussGatewayLogClient> client = Client();
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->partition_count(), 3);
  const ProduceTicket a = client->Produce(1, "k1", "v1");
  const ProduceTicket b = client->Produce(1, "k2", "");
  const ProduceTicket c = client->Produce(2, std::string("\xff\x00", 2), "v3");
  client->Flush();
  EXPECT_EQ(*RunSync(client->AwaitAck(b)), (RecordPosition{1, 1}));
  EXPECT_EQ(*RunSync(client->AwaitAck(a)), (RecordPosition{1, 0}));
  EXPECT_EQ(*RunSync(client->AwaitAck(c)), (RecordPosition{2, 0}));
  // An await before a flush sends what is queued.
  const ProduceTicket d = client->Produce(1, "k4", "v4");
  EXPECT_EQ(*RunSync(client->AwaitAck(d)), (RecordPosition{1, 2}));

  Result<std::vector<PartitionOffsets>> offsets = client->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  ASSERT_EQ(offsets->size(), 3u);
  EXPECT_EQ((*offsets)[0].end, 0);
  EXPECT_EQ((*offsets)[1].end, 3);
  EXPECT_EQ((*offsets)[2].end, 1);

  Result<std::vector<LogRecord>> read = client->Read(1, 1, 3);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].offset, 1);
  EXPECT_EQ((*read)[0].key, "k2");
  EXPECT_EQ((*read)[0].value, "");
  EXPECT_EQ((*read)[1].key, "k4");
  Result<std::vector<LogRecord>> binary = client->Read(2, 0, 1);
  ASSERT_TRUE(binary.ok());
  ASSERT_EQ(binary->size(), 1u);
  EXPECT_EQ((*binary)[0].key, std::string("\xff\x00", 2));
}

TEST_F(FlussGatewayTest, AReadPastTheEndIsRefusedAsInvalidRecovery) {
  std::unique_ptr<FlussGatewayLogClient> client = Client();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(RunSync(client->AwaitAck(client->Produce(0, "k", "v"))).ok());
  Result<std::vector<LogRecord>> past = client->Read(0, 0, 2);
  EXPECT_EQ(past.status().code(), StatusCode::kInvalidRecovery) << past.status().ToString();
  EXPECT_EQ(client->Read(5, 0, 1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(client->Read(0, 1, 1).ok());  // an empty range at the end
}

TEST_F(FlussGatewayTest, TheTableIdIsTheIncarnationAndChangesWhenTheTableIsCreatedAgain) {
  std::unique_ptr<FlussGatewayLogClient> client = Client();
  ASSERT_NE(client, nullptr);
  Result<TopicIdentity> before = client->Topic();
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->name, table_);
  EXPECT_EQ(before->incarnation, "fluss-table-" + std::to_string(table_id_));
  ASSERT_TRUE(RunSync(client->AwaitAck(client->Produce(0, "k", "v"))).ok());
  ASSERT_TRUE(admin_->DropTable(table_).ok());
  Result<int64_t> again = admin_->CreateTable(table_, 3);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  std::unique_ptr<FlussGatewayLogClient> fresh = Client();
  ASSERT_NE(fresh, nullptr);
  Result<TopicIdentity> after = fresh->Topic();
  ASSERT_TRUE(after.ok());
  EXPECT_NE(after->incarnation, before->incarnation);
  EXPECT_EQ((*fresh->Offsets())[0].end, 0);  // offsets start over
}

TEST_F(FlussGatewayTest, AClientSeesTheFirstBucketsItIsGiven) {
  std::unique_ptr<FlussGatewayLogClient> client = Client(2);
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->partition_count(), 2);
  EXPECT_EQ(client->Offsets()->size(), 2u);
  Result<RecordPosition> outside = RunSync(client->AwaitAck(client->Produce(2, "k", "v")));
  EXPECT_EQ(outside.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(FlussGatewayTest, CreatingATableThatExistsIsInvalidNotUnavailable) {
  Result<int64_t> again = admin_->CreateTable(table_, 3);
  EXPECT_EQ(again.status().code(), StatusCode::kInvalidArgument) << again.status().ToString();
}

TEST_F(FlussGatewayTest, AFlushStopsAtTheFirstFailedAppend) {
  std::unique_ptr<FlussGatewayLogClient> client = Client();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(admin_->DropTable(table_).ok());  // the table is gone under the client
  const ProduceTicket first = client->Produce(0, "k1", "v1");
  const ProduceTicket second = client->Produce(0, "k2", "v2");
  client->Flush();
  Result<RecordPosition> failed = RunSync(client->AwaitAck(first));
  EXPECT_EQ(failed.status().code(), StatusCode::kPossiblyPersisted) << failed.status().ToString();
  Result<RecordPosition> unsent = RunSync(client->AwaitAck(second));
  EXPECT_EQ(unsent.status().code(), StatusCode::kNotPersisted) << unsent.status().ToString();
  EXPECT_NE(unsent.status().message().find("not sent"), std::string::npos);
  Result<int64_t> again = admin_->CreateTable(table_, 3);  // for TearDown's drop
  ASSERT_TRUE(again.ok()) << again.status().ToString();
}

TEST_F(FlussGatewayTest, NoSuchTableIsNotFound) {
  Result<std::unique_ptr<FlussGatewayLogClient>> client =
      FlussGatewayLogClient::Connect(FlussGatewayConfig{Gateway(), table_ + "_absent"});
  EXPECT_EQ(client.status().code(), StatusCode::kNotFound) << client.status().ToString();
}

}  // namespace
}  // namespace durasim
