// MockBackendTest: a fixture for tests of RdKafkaBackend on librdkafka's
// mock cluster. It holds the harness state the backend reads (the backend
// keeps references to it) and the backend, started in SetUp, whose reported
// records go to OnAppend. Test-only.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <utility>

#include "model/backends/rdkafka_backend.h"

namespace durasim::backend_test {

class MockBackendTest : public ::testing::Test {
 protected:
  explicit MockBackendTest(int32_t partitions) : outage_(partitions), lifecycle_(partitions) {
    config_.partitions = partitions;
  }

  void SetUp() override {
    Result<std::unique_ptr<RdKafkaBackend>> started =
        RdKafkaBackend::StartMock({config_, outage_, corrupted_, lifecycle_});
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    backend_ = std::move(started).value();
    Listen();
  }

  // The derived fixture's members die before backend_: nothing may reach
  // OnAppend after the test.
  void TearDown() override {
    if (backend_) backend_->Disconnect();
  }

  // Routes the backend's reported records to OnAppend (again after the
  // backend disconnected, as a re-created topic needs).
  void Listen() {
    backend_->Listen([this](const LogRecord& record, AppendSeen seen) { OnAppend(record, seen); });
  }
  virtual void OnAppend(const LogRecord& record, AppendSeen seen) = 0;

  LogConfig config_;
  KafkaLog outage_;
  CorruptedPositions corrupted_;
  LogLifecycle lifecycle_;
  std::unique_ptr<RdKafkaBackend> backend_;
};

}  // namespace durasim::backend_test
