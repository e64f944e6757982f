// `durasim compare-stores`: every store design on the same generated
// workloads, in named shapes, side by side (sim/explore/store_comparison.h):
// a Markdown table on stdout, optionally JSON and the checkpoint-cost chart.
#include <iostream>

#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/explore/store_comparison.h"
#include "store/format.h"

namespace durasim {

namespace {

struct CompareState {
  ComparisonOptions options;
  std::vector<std::string> shapes;
  std::string report_json;
  std::string svg;
  double broker_check_s = kBrokerCheckSDefault;
  int infra_errors_max = kInfraErrorsMaxDefault;
  bool cpu_pin = true;  // --no-cpu-pin clears it
};

int Compare(CompareState& state) {
  for (const std::string& name : state.shapes) {
    std::optional<WorkloadShape> shape = ParseName<WorkloadShape>(name);
    if (!shape) {
      std::cerr << fmt::format("durasim: unknown shape \"{}\"; expected one of: {}\n", name,
                               fmt::join(NamesOf<WorkloadShape>(), ", "));
      return kExitUsage;
    }
    state.options.shapes.push_back(*shape);
  }
  const std::vector<ComparisonRow> rows = CompareStores(state.options);
  std::cout << fmt::format("compare-stores: seeds {}..{}, backend {}\n", state.options.seed_start,
                           state.options.seed_start + state.options.seeds - 1, NameOf(state.options.backend))
            << ComparisonTable(rows);
  std::vector<std::string> unwritten;
  WriteReport(state.report_json, ComparisonJson(rows, Interrupted()), unwritten);
  // The chart runs the comparison again: not after a signal.
  if (!state.svg.empty() && !Interrupted()) WriteReport(state.svg, CheckpointCostChart(state.options), unwritten);
  if (!unwritten.empty()) return kExitOutput;
  if (Interrupted()) {
    std::cout << fmt::format("compare-stores: interrupted by {}: the rows hold the runs that finished\n",
                             InterruptName());
    return InterruptExitCode();
  }
  bool held = true;
  for (const ComparisonRow& row : rows) held = held && row.costs.not_as_expected == 0;
  return held ? kExitOk : kExitNotAsExpected;
}

}  // namespace

Command AddCompareStoresCommand(CLI::App& app) {
  auto state = std::make_shared<CompareState>();
  CLI::App& compare =
      *app.add_subcommand("compare-stores", "run every store design on the same generated workloads, side by side");
  compare.add_option("--seeds", state->options.seeds, "seeds per shape and design")
      ->check(WholeNumber(1, "a count of seeds"));
  compare.add_option("--seed-start", state->options.seed_start, "first seed")->check(WholeNumber(0, "a seed"));
  compare.add_option("--shape", state->shapes, "only these shapes (repeatable): generated, many-keys, long-actions, "
                                               "frequent-checkpoints, crash-storm");
  AddBackendOptions(compare, state->options.backend, state->options.bootstrap_servers, state->options.compare_model,
                    state->broker_check_s, state->infra_errors_max, state->cpu_pin);
  compare.add_option("--report-json", state->report_json, "write the rows as JSON");
  compare.add_option("--svg", state->svg, "draw snapshot cost against replay cost as checkpoints grow (SVG)");
  return {&compare, [state] {
            InfraOptions infra;
            infra.backend = state->options.backend;
            infra.bootstrap_servers = state->options.bootstrap_servers;
            infra.broker_check_s = state->broker_check_s;
            infra.errors_max = state->infra_errors_max;
            PinCommandThread(state->options.backend, state->cpu_pin);
            if (const std::optional<int> stop = CheckBackendAtStart(infra)) return *stop;
            return Compare(*state);
          }};
}

}  // namespace durasim
