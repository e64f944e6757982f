// What a run is asked to do.
#include "sim/run/run_options.h"

#include "store/format.h"

namespace durasim {

InfraOptions InfraOptionsOf(const RunOptions& options) {
  return InfraOptions{options.backend, options.bootstrap_servers, options.broker_check_s, options.infra_errors_max};
}

std::string BackendFlags(const RunOptions& options) {
  std::string flags = options.store ? fmt::format(" --store {}", NameOf(*options.store)) : "";
  if (options.backend == BackendKind::kModel) return flags;
  flags += fmt::format(" --backend {}", NameOf(options.backend));
  if (options.backend == BackendKind::kKafka || options.backend == BackendKind::kFluss) flags += " --bootstrap-servers " + options.bootstrap_servers;
  if (options.compare_model) flags += " --compare-model";
  return flags;
}

}  // namespace durasim
