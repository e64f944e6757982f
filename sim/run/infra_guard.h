// InfraGuard: what a command on a librdkafka backend does about
// infrastructure failures (a broker gone, a timeout, a refused connection:
// docs/backends.md, "Infrastructure failures"), which are never the store's.
//
//   - At the start, the broker is checked once with a short deadline
//     (CheckBrokerAtStart); a broker that does not answer stops the command
//     before anything runs (sim/exit_codes.h kExitInfra).
//   - A run that ends `infra` (Verdict::kInfra) is reported with its cause,
//     never written as a failure file, never shrunk, never counted as a
//     violation or an error. Before the next run starts the broker is
//     checked again (BeforeRun), so a broker that is gone costs one short
//     deadline per run instead of every run's connect timeout.
//   - After `errors_max` infra runs in a row (in the order they end) the
//     command starts no further run and says why (stopped()).
//
// On the model backend nothing is checked and no run ends infra.
//
// Thread-safety: BeforeRun and AfterRun may be called from several workers.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "model/backends/backend_kind.h"
#include "model/verdict.h"
#include "store/status.h"

namespace durasim {

// The defaults of --broker-check-s and --infra-errors-max.
inline constexpr double kBrokerCheckSDefault = 3;
inline constexpr int kInfraErrorsMaxDefault = 3;

struct InfraOptions {
  BackendKind backend = BackendKind::kModel;
  std::string bootstrap_servers;
  double broker_check_s = kBrokerCheckSDefault;  // the check's deadline; 0: no checks
  int errors_max = kInfraErrorsMaxDefault;       // infra runs in a row that stop the command; 0: never
};

// The check at the start of a command: ok on the model, with
// broker_check_s 0, or when the broker answers. Errors: kInvalidArgument
// (kafka without bootstrap servers: a usage error), kUnavailable naming the
// backend, the servers and the cause.
[[nodiscard]] Status CheckBrokerAtStart(const InfraOptions& options);

class InfraGuard {
 public:
  explicit InfraGuard(InfraOptions options) : options_(std::move(options)) {}

  // Before a run starts: once a run ended infra (and until one does not),
  // the broker is checked first. Returns why the run must not start (it then
  // counts as an infra run: call AfterRun with its verdict), or nothing.
  std::optional<std::string> BeforeRun();
  // After a run (or a run that did not start) ended with `verdict`; `cause`
  // is its error.
  void AfterRun(Verdict verdict, const std::string& cause);
  // Whether the command must start no further run.
  bool stopped() const;
  // "3 infrastructure failures in a row (--infra-errors-max 3); the last:
  // ...", as when it stopped; "" while it has not.
  std::string stop_reason() const;
  // Runs that ended infra, in all.
  int infra_runs() const;

 private:
  const InfraOptions options_;
  mutable std::mutex mutex_;
  int in_a_row_ = 0;
  int infra_runs_ = 0;
  bool stopped_ = false;
  std::string stop_reason_;  // "" until stopped
};

}  // namespace durasim
