// CheckBackendBroker implementation.
#include "model/backends/broker_check.h"

#include "store/fluss_gateway.h"
#include "store/format.h"
#include "store/kafka_mock_cluster.h"
#include "store/rdkafka_broker_check.h"

namespace durasim {

Status CheckBackendBroker(BackendKind kind, const std::string& bootstrap_servers, std::chrono::milliseconds deadline) {
  switch (kind) {
    case BackendKind::kModel: return Status::Ok();
    case BackendKind::kMock: {
      Result<std::unique_ptr<KafkaMockCluster>> mock = KafkaMockCluster::Start(1);
      if (!mock.ok()) {
        return Status(StatusCode::kUnavailable,
                      fmt::format("librdkafka's mock cluster did not start: {}", mock.status().ToString()));
      }
      Status answered = CheckBroker((*mock)->bootstrap_servers(), deadline);
      if (!answered.ok()) {
        return Status(answered.code(), fmt::format("librdkafka's mock cluster: {}", answered.message()));
      }
      return Status::Ok();
    }
    case BackendKind::kKafka:
      if (bootstrap_servers.empty()) {
        return Status(StatusCode::kInvalidArgument, "backend kafka needs --bootstrap-servers HOST:PORT");
      }
      return CheckBroker(bootstrap_servers, deadline);
    case BackendKind::kFluss: {
      if (bootstrap_servers.empty()) {
        return Status(StatusCode::kInvalidArgument, "backend fluss needs --bootstrap-servers HOST:PORT (the Fluss gateway)");
      }
      // The gateway answers ping only once its cluster answered at its start.
      return FlussGateway::Connect(bootstrap_servers, deadline).status();
    }
  }
  return Status(StatusCode::kInternal, "no such backend kind");
}

}  // namespace durasim
