// Run context for failed checks.
#include "sim/run/run_context.h"

#include "store/format.h"

namespace durasim {

std::string DescribeRun(const Scenario& scenario, const RunOptions& options) {
  const std::string mutant = options.mutant.value_or(scenario.mutant.value_or(""));
  const std::string backend_flags = BackendFlags(options);
  std::string run = scenario.path.empty() ? fmt::format("run: generated scenario {}, seed {}", scenario.name, scenario.seed)
                                          : fmt::format("run: scenario {}, seed {}", scenario.path, scenario.seed);
  if (!mutant.empty()) run += ", mutant " + mutant;
  if (options.backend != BackendKind::kModel) run += fmt::format(", backend {}", NameOf(options.backend));
  if (scenario.perturb_seed) run += fmt::format(", perturb seed {}", *scenario.perturb_seed);
  // A file names its own mutant; --mutant overrides it.
  const std::string run_mutant_flag = options.mutant ? " --mutant " + *options.mutant : "";
  const std::string reproduce =
      scenario.path.empty()
          ? fmt::format("reproduce: build/durasim replay --seed {}{}{}", scenario.seed,
                        mutant.empty() ? "" : " --mutant " + mutant, backend_flags)
          : fmt::format("reproduce: build/durasim run{}{}{} {}", run_mutant_flag, backend_flags,
                        scenario.perturb_seed ? fmt::format(" --perturb-seed {}", *scenario.perturb_seed) : "",
                        scenario.path);
  return run + "\n" + reproduce;
}

CheckContext RunCheckContext(const Scenario& scenario, const RunOptions& options) {
  return CheckContext([&scenario, &options] { return DescribeRun(scenario, options); });
}

}  // namespace durasim
