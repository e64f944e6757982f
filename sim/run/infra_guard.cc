// InfraGuard implementation.
#include "sim/run/infra_guard.h"

#include <algorithm>

#include "model/backends/broker_check.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

std::chrono::milliseconds Deadline(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000 + 0.5));
}

// The broker check of `options`, its error's message naming the backend.
Status Check(const InfraOptions& options) {
  if (options.backend == BackendKind::kModel || options.broker_check_s <= 0) return Status::Ok();
  const Status checked =
      CheckBackendBroker(options.backend, options.bootstrap_servers, std::max(Deadline(options.broker_check_s),
                                                                              std::chrono::milliseconds(1)));
  if (checked.ok() || checked.code() == StatusCode::kInvalidArgument) return checked;
  return Status(checked.code(), fmt::format("backend {}: {}", NameOf(options.backend), checked.message()));
}

}  // namespace

Status CheckBrokerAtStart(const InfraOptions& options) {
  if (options.backend == BackendKind::kKafka && options.bootstrap_servers.empty()) {
    return Status(StatusCode::kInvalidArgument, "--backend kafka needs --bootstrap-servers HOST:PORT");
  }
  if (options.backend == BackendKind::kFluss && options.bootstrap_servers.empty()) {
    return Status(StatusCode::kInvalidArgument,
                  "--backend fluss needs --bootstrap-servers HOST:PORT (the Fluss gateway, ci/fluss/with-cluster.sh)");
  }
  return Check(options);
}

std::optional<std::string> InfraGuard::BeforeRun() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (in_a_row_ == 0) return std::nullopt;
  }
  const Status checked = Check(options_);
  if (checked.ok()) return std::nullopt;
  return fmt::format("not run: after an infrastructure failure the broker was checked again and failed: {}",
                     checked.message());
}

void InfraGuard::AfterRun(Verdict verdict, const std::string& cause) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (verdict != Verdict::kInfra) {
    in_a_row_ = 0;
    return;
  }
  ++in_a_row_;
  ++infra_runs_;
  DURASIM_CHECK_LE(in_a_row_, infra_runs_);  // a streak is part of the total
  if (options_.errors_max > 0 && in_a_row_ >= options_.errors_max && !stopped_) {
    // Said as it was when the guard stopped: runs already started may end
    // infra too afterwards.
    stopped_ = true;
    stop_reason_ = fmt::format("{} infrastructure failures in a row (--infra-errors-max {}); the last: {}", in_a_row_,
                               options_.errors_max, cause);
  }
}

bool InfraGuard::stopped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopped_;
}

std::string InfraGuard::stop_reason() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_reason_;
}

int InfraGuard::infra_runs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return infra_runs_;
}

}  // namespace durasim
