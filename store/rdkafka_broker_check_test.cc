// Tests of CheckBroker: a broker that answers, and an address where nothing
// listens, which must fail within the deadline and say why.
#include "store/rdkafka_broker_check.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>

#include "store/kafka_mock_cluster.h"

namespace durasim {
namespace {

// A loopback port nothing listens on: bound, read back and closed.
std::string DeadAddress() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  socklen_t length = sizeof(address);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  close(fd);
  return "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
}

// Strategy: the mock cluster's broker answers the metadata request.
TEST(BrokerCheckTest, AnsweringBrokerPasses) {
  Result<std::unique_ptr<KafkaMockCluster>> mock = KafkaMockCluster::Start(1);
  ASSERT_TRUE(mock.ok()) << mock.status().ToString();
  const Status checked = CheckBroker((*mock)->bootstrap_servers(), std::chrono::milliseconds(3000));
  EXPECT_TRUE(checked.ok()) << checked.ToString();
}

// Strategy: nothing listening fails within the deadline (plus teardown),
// naming the address, the deadline and the refused connection.
TEST(BrokerCheckTest, NothingListeningFailsWithinTheDeadline) {
  const std::string address = DeadAddress();
  const auto start = std::chrono::steady_clock::now();
  const Status checked = CheckBroker(address, std::chrono::milliseconds(500));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(2500));
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.code(), StatusCode::kUnavailable);
  EXPECT_NE(checked.message().find("no broker at " + address + " answered within 500 ms"), std::string::npos)
      << checked.message();
  EXPECT_NE(checked.message().find("Connection refused"), std::string::npos) << checked.message();
}

// Strategy: no address and no deadline are usage errors, not failures.
TEST(BrokerCheckTest, BadArgumentsAreInvalid) {
  EXPECT_EQ(CheckBroker("", std::chrono::milliseconds(100)).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckBroker("127.0.0.1:1", std::chrono::milliseconds(0)).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace durasim
