// Tests of the per-thread mock cluster pool (mock_cluster_pool.h) and of
// RdKafkaBackend's use of it: a cluster is handed to the next run only as
// clean as a new one.
#include "model/backends/mock_cluster_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "model/backends/rdkafka_backend.h"
#include "store/rdkafka_broker_check.h"

namespace durasim {
namespace {

constexpr std::chrono::milliseconds kAnswerDeadline{3000};

// What a run's mock backend is started with: the log's configuration and
// the harness's views of outages, corrupted records and the log's lifecycle.
struct RunHarness {
  explicit RunHarness(int32_t partitions) : outage{partitions}, lifecycle{partitions} { config.partitions = partitions; }
  Result<std::unique_ptr<RdKafkaBackend>> StartMock() {
    return RdKafkaBackend::StartMock({config, outage, corrupted, lifecycle});
  }
  LogConfig config;
  KafkaLog outage;
  CorruptedPositions corrupted;
  LogLifecycle lifecycle;
};

// Strategy: a cluster no fault control touched comes back to the thread's
// next taker, which counts one more run on it.
TEST(MockClusterPoolTest, APristineClusterServesTheNextRun) {
  Result<PooledMockCluster> first = TakeMockCluster();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const KafkaMockCluster* cluster = first->cluster.get();
  const int runs = first->runs;
  ReturnMockCluster(std::move(*first));
  Result<PooledMockCluster> second = TakeMockCluster();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->cluster.get(), cluster);
  EXPECT_EQ(second->runs, runs + 1);
  ReturnMockCluster(std::move(*second));
}

// Strategy: a cluster whose broker was taken down (and brought up again) is
// not kept: the next run gets a pristine cluster whose broker answers.
TEST(MockClusterPoolTest, AFaultedClusterIsNotKept) {
  Result<PooledMockCluster> faulted = TakeMockCluster();
  ASSERT_TRUE(faulted.ok()) << faulted.status().ToString();
  ASSERT_TRUE(faulted->cluster->BrokerDown(1).ok());
  ASSERT_TRUE(faulted->cluster->BrokerUp(1).ok());
  EXPECT_FALSE(faulted->cluster->pristine());
  ReturnMockCluster(std::move(*faulted));
  Result<PooledMockCluster> next = TakeMockCluster();
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_TRUE(next->cluster->pristine());
  EXPECT_EQ(next->runs, 1);
  EXPECT_TRUE(CheckBroker(next->cluster->bootstrap_servers(), kAnswerDeadline).ok());
  ReturnMockCluster(std::move(*next));
}

// Strategy: a cluster serves kRunsPerCluster runs at most, so that the
// topics of its runs stay few.
TEST(MockClusterPoolTest, AClusterServesABoundedNumberOfRuns) {
  Result<PooledMockCluster> taken = TakeMockCluster();
  ASSERT_TRUE(taken.ok());
  while (taken->runs < kRunsPerCluster) {
    ReturnMockCluster(std::move(*taken));
    taken = TakeMockCluster();
    ASSERT_TRUE(taken.ok());
  }
  ReturnMockCluster(std::move(*taken));
  Result<PooledMockCluster> fresh = TakeMockCluster();
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(fresh->runs, 1);
  ReturnMockCluster(std::move(*fresh));
}

// Strategy: a run that ends with the broker down leaves nothing of it to
// the next run of its thread: that run's clients connect and read at once.
TEST(MockClusterPoolTest, ARunAfterARunThatTookTheBrokerDownSeesItUp) {
  RunHarness harness(2);
  {
    Result<std::unique_ptr<RdKafkaBackend>> run = harness.StartMock();
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    ASSERT_TRUE((*run)->TakeBrokerDown().ok());
  }  // ends with its broker down
  Result<std::unique_ptr<RdKafkaBackend>> next = harness.StartMock();
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  const auto started = std::chrono::steady_clock::now();
  Result<std::unique_ptr<LogClient>> client = (*next)->ConnectClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  Result<std::vector<PartitionOffsets>> offsets = (*client)->Offsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  EXPECT_EQ(offsets->size(), 2u);
  Result<std::vector<std::vector<LogRecord>>> all = (*next)->ReadAll();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  // A broker still down would hold these for the client's deadline (10 s).
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  EXPECT_TRUE((*next)->InfrastructureFailure().ok());
}

// Strategy: a run whose cluster failed the harness (an infrastructure
// failure noted) does not hand that cluster to the thread's next run: the
// next taker gets a new one (its first run).
TEST(MockClusterPoolTest, AClusterThatFailedItsRunIsNotKept) {
  RunHarness harness(1);
  {
    Result<std::unique_ptr<RdKafkaBackend>> run = harness.StartMock();
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    (void)(*run)->Note(Status(StatusCode::kUnavailable, "no answer within the deadline"), "a test's call", false);
    ASSERT_FALSE((*run)->InfrastructureFailure().ok());
  }
  Result<PooledMockCluster> next = TakeMockCluster();
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->runs, 1);
  ReturnMockCluster(std::move(*next));
}

}  // namespace
}  // namespace durasim
