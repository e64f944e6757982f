// Tests of InfraGuard: the check at the start, the check before a run after
// an infra run, and the stop after infra runs in a row.
#include "sim/run/infra_guard.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace durasim {
namespace {

// A loopback port nothing listens on: bound, read back and closed.
std::string DeadAddress() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  socklen_t length = sizeof(address);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  close(fd);
  return "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
}

// Strategy: infra runs count in a row, any other verdict starts the count
// again; the guard stops at errors_max (never with 0) and says why.
TEST(InfraGuardTest, StopsAfterInfraRunsInARow) {
  InfraGuard guard(InfraOptions{BackendKind::kModel, "", 0, 3});
  guard.AfterRun(Verdict::kInfra, "a");
  guard.AfterRun(Verdict::kInfra, "b");
  guard.AfterRun(Verdict::kViolation, "");  // the store's failure: a run that was judged
  guard.AfterRun(Verdict::kInfra, "c");
  guard.AfterRun(Verdict::kInfra, "d");
  EXPECT_FALSE(guard.stopped());
  EXPECT_EQ(guard.stop_reason(), "");
  guard.AfterRun(Verdict::kInfra, "the broker at x failed a put");
  EXPECT_TRUE(guard.stopped());
  EXPECT_EQ(guard.stop_reason(),
            "3 infrastructure failures in a row (--infra-errors-max 3); the last: the broker at x failed a put");
  EXPECT_EQ(guard.infra_runs(), 5);

  InfraGuard never(InfraOptions{BackendKind::kModel, "", 0, 0});
  for (int i = 0; i < 10; ++i) never.AfterRun(Verdict::kInfra, "x");
  EXPECT_FALSE(never.stopped());
}

// Strategy: before any infra run nothing is checked; after one, a broker
// that does not answer keeps the next run from starting, within the
// check's deadline, naming the address; on the model nothing is checked.
TEST(InfraGuardTest, ChecksTheBrokerAgainAfterAnInfraRun) {
  const std::string address = DeadAddress();
  InfraGuard guard(InfraOptions{BackendKind::kKafka, address, 0.3, 3});
  EXPECT_FALSE(guard.BeforeRun().has_value());
  guard.AfterRun(Verdict::kInfra, "x");
  const auto start = std::chrono::steady_clock::now();
  const std::optional<std::string> refused = guard.BeforeRun();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  ASSERT_TRUE(refused.has_value());
  EXPECT_NE(refused->find("not run: after an infrastructure failure the broker was checked again and failed: "
                          "backend kafka: no broker at " + address),
            std::string::npos)
      << *refused;
  guard.AfterRun(Verdict::kPass, "");
  EXPECT_FALSE(guard.BeforeRun().has_value());  // a judged run: no check

  InfraGuard model(InfraOptions{BackendKind::kModel, "", 3, 3});
  model.AfterRun(Verdict::kInfra, "x");
  EXPECT_FALSE(model.BeforeRun().has_value());
}

// Strategy: the check at the start: kafka without servers is a usage error;
// nothing listening fails fast naming the backend and the address; the
// mock cluster passes; 0 seconds skips the check.
TEST(InfraGuardTest, CheckAtTheStart) {
  EXPECT_EQ(CheckBrokerAtStart(InfraOptions{BackendKind::kKafka, "", 3, 3}).code(), StatusCode::kInvalidArgument);
  const std::string address = DeadAddress();
  const Status dead = CheckBrokerAtStart(InfraOptions{BackendKind::kKafka, address, 0.3, 3});
  EXPECT_EQ(dead.code(), StatusCode::kUnavailable);
  EXPECT_NE(dead.message().find("backend kafka: no broker at " + address + " answered within 300 ms"),
            std::string::npos)
      << dead.message();
  EXPECT_TRUE(CheckBrokerAtStart(InfraOptions{BackendKind::kKafka, address, 0, 3}).ok());
  const Status mock = CheckBrokerAtStart(InfraOptions{BackendKind::kMock, "", 3, 3});
  EXPECT_TRUE(mock.ok()) << mock.ToString();
  EXPECT_TRUE(CheckBrokerAtStart(InfraOptions{BackendKind::kModel, "", 3, 3}).ok());
}

}  // namespace
}  // namespace durasim
