// durasim: the command-line entry point. It only dispatches: each command
// adds its own flags and runs in sim/cli/<name>_command.cc.
//
//   durasim run PATH... [--mutant NAME] [--trace] [--report-json FILE] [--junit FILE]
//                       [TRACE] [--filter TEXT] [--fail-fast] [--keep-topic NAME]
//                       [--backend model|mock|kafka|fluss] [--bootstrap-servers HOST:PORT]
//                       [--compare-model] [--check-determinism]
//                       [--perturb N [--jobs J] [--failures-dir D] [--shrink-budget-s T] | --perturb-seed S]
//                       [--timeline OUT.svg|OUT.html] [--dump-log]
//   durasim explore --seeds N [--seed-start S] [--jobs J] [--shard I/N] [--mutant M]
//                   [--time-budget-s T] [--failures-dir D] [--junit FILE] [--report-json FILE]
//                   [--check-determinism] [--require-coverage] [BACKEND]
//   durasim replay --seed S [--mutant M] [--trace] [TRACE] [--write FILE] [BACKEND]
//     BACKEND: [--backend model|mock|kafka|fluss] [--bootstrap-servers HOST:PORT] [--compare-model]
//              [--broker-check-s T] [--infra-errors-max N] [--no-cpu-pin]
//     TRACE: [--trace-raw] [--trace-failing] [--trace-key K] [--trace-attempt N] [--trace-subtask S]
//            (explore takes --trace-failing and the filters)
//   durasim shrink FILE [--out FILE] [--shrink-budget-s T] [BACKEND]
//   durasim merge-reports --out FILE REPORT...
//   durasim mutants-list
//   durasim inspect --bootstrap-servers HOST:PORT --topic T [--marker JSON|@FILE]
//   durasim mutants [--seeds N] [--seed-start S] [--jobs J] [--report-json FILE] [--failures-dir D]
//                   [--shrink-budget-s T] [--mutant M]...
//
// Exit status (sim/exit_codes.h) of run and replay: 0 when every run's
// verdict matched its expectation, 1 when some did not, 2 on a usage or
// input error. explore: 1 violation, 3 liveness, 4 determinism, 5 error,
// 6 coverage. Any command: 7 when an output it was asked for could not be
// written (and nothing else failed); 8 on mock or kafka when the broker did
// not answer the check at the start, or runs ended infra (the broker failed:
// docs/backends.md) and nothing else failed; 130 / 143 when SIGINT / SIGTERM
// stopped it (the reports are written, marked interrupted).
#include <CLI/CLI.hpp>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>

#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/suggest.h"
#include "store/check.h"
#include "store/format.h"
#include "store/rdkafka_log.h"

namespace {

using namespace durasim;

// A first argument that is no option and no subcommand: "did you mean".
bool UnknownSubcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  const std::string typed = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  if (std::find(names.begin(), names.end(), typed) != names.end()) return false;
  std::cerr << "durasim: unknown command \"" << typed << "\"" << DidYouMean(typed, names)
            << "; the commands: " << fmt::format("{}", fmt::join(names, ", ")) << " (durasim --help)\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  InstallInterruptHandlers();
  CLI::App app{"durasim: deterministic simulation and fault injection for durable action state in Kafka"};
  app.require_subcommand(1);
  app.fallthrough();  // --verbose after the subcommand too
  app.set_version_flag("--version", std::string("durasim ") + DURASIM_VERSION);
  // Every option's default in --help; subcommands inherit it.
  app.option_defaults()->always_capture_default();
  bool verbose = false;
  app.add_flag("--verbose", verbose, "show librdkafka's own log lines on stderr (mock and kafka backends)");
  const std::vector<Command> commands = {AddRunCommand(app),     AddExploreCommand(app),      AddReplayCommand(app),
                                         AddShrinkCommand(app),  AddMergeReportsCommand(app), AddMutantsListCommand(app),
                                         AddMutantsCommand(app), AddStoresListCommand(app),   AddCompareStoresCommand(app),
                                         AddInspectCommand(app), AddKeysCommand(app)};
  if (UnknownSubcommand(app, argc, argv)) return kExitUsage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  }
  SetRdKafkaLogToStderr(verbose);
  const auto parsed = std::find_if(commands.begin(), commands.end(), [](const Command& c) { return c.app->parsed(); });
  // require_subcommand(1): a parse that returned named exactly one.
  DURASIM_CHECK(parsed != commands.end());
  const int code = parsed->run();
  // A signal stopped what the command was doing (a call to a broker ends
  // with "interrupted by a signal"): every command exits 128 + the signal.
  return Interrupted() ? InterruptExitCode() : code;
}
