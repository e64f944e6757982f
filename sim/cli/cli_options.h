// What the commands share: the backend flags and the broker check at the
// start, the trace flags and printing a trace, validators that say what is
// wrong in words, mutant names with "did you mean", the scenario files named
// by paths, and writing a report a command was asked for.
//
// Thread-safety: none; the main thread's.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/backends/backend_kind.h"
#include "model/store_designs.h"
#include "sim/run/infra_guard.h"
#include "sim/run/runner.h"
#include "sim/view/report.h"
#include "sim/view/trace_view.h"
#include "store/status.h"

namespace durasim {

// Scenario files named by the arguments: files as given, folders searched
// recursively for *.yaml and *.yml, sorted. scenarios/malformed/ holds
// deliberately broken files for the parser tests and is skipped when a folder
// is given.
Result<std::vector<std::string>> CollectScenarioFiles(const std::vector<std::string>& paths);

// Which traces are printed and how (sim/view/trace_view.h).
struct TraceFlags {
  bool print = false;    // --trace
  bool raw = false;      // --trace-raw: the lines exactly as rendered
  bool failing = false;  // --trace-failing: only runs that were not as expected
  TraceFilter filter;
  // A filter alone asks for the trace it filters.
  bool wanted() const { return print || raw || failing || filter.any(); }
};

// Prints `report`'s trace as `flags` ask (nothing for a run that was as
// expected under --trace-failing).
void PrintTrace(const RunReport& report, const Scenario& scenario, const TraceFlags& flags, const std::string& title);

// --trace, --trace-raw (`every_run`), --trace-failing and the filters, for
// run and replay; explore has no --trace or --trace-raw (thousands of runs).
void AddTraceOptions(CLI::App& command, TraceFlags& flags, bool every_run = true);

// --backend, --bootstrap-servers, --compare-model, --broker-check-s,
// --infra-errors-max and --no-cpu-pin (clears `cpu_pin`), for run, explore,
// replay, shrink and compare-stores.
void AddBackendOptions(CLI::App& command, BackendKind& backend, std::string& bootstrap_servers, bool& compare_model,
                       double& broker_check_s, int& infra_errors_max, bool& cpu_pin);

// For the commands that run on their own thread (run, replay, shrink,
// compare-stores): pins it before any backend starts when PinsThreads
// (sim/cpu_pin.h) says so. A refused pin is said on stderr; the command
// runs unpinned.
void PinCommandThread(BackendKind backend, bool cpu_pin);

// The broker check at the start of a command (sim/run/infra_guard.h): nothing
// when the command may go on, else its exit code (a usage error for kafka
// without bootstrap servers; infra when the broker does not answer).
std::optional<int> CheckBackendAtStart(const InfraOptions& options);

// A whole number >= `minimum` (a seed, a count), with errors in words: a
// negative number is rejected, never wrapped to 2^64 - 1, and a range is
// never printed as its 300-digit limits. `what`: "a seed", "a count".
CLI::Validator WholeNumber(uint64_t minimum, const std::string& what);
// Jobs: 1..256 worker threads.
CLI::Validator Jobs();
// Seconds: a non-negative number.
CLI::Validator Seconds();

// An empty name (no --mutant) or a registered mutant's; else false, with
// the error and a "did you mean" on stderr.
bool KnownMutant(const std::string& name);
// A file is left out, its line saying why, when the design it would run on
// cannot run it: with `store` (--store), a file that names no `store:` and
// holds what that design cannot run (NotRunnableOn); and a file whose
// mutant (`mutant_option`, else its `mutant:`) is a hazard of other designs.
// Neither a pass nor a failure, and never silent (run, mutants --scenarios).
// And on backend fluss, a file on any design but fluss (kFlussBackendOnly).
// Each has its line: "not run on store design D: PATH: WHY" (LeftOutLine).
std::vector<LeftOutFile> LeaveOutNotRunnable(std::vector<Scenario>& scenarios, std::optional<StoreDesign> store,
                                             const std::optional<std::string>& mutant_option,
                                             BackendKind backend = BackendKind::kModel);
std::string LeftOutLine(const LeftOutFile& file);

// With --store: whether `mutant` (none: yes) applies to that design; if not,
// says so on stderr (a usage error: it would run the production parts).
bool MutantAppliesToStore(const std::string& mutant, std::optional<StoreDesign> store);

// --store NAME: a store design (`durasim stores-list`); an unknown name is
// a usage error with "did you mean".
void AddStoreOption(CLI::App& command, std::optional<StoreDesign>& store, const std::string& help);

// Writes `contents` to `path` (when asked for); a failure is named on stderr
// and counted in `unwritten`.
void WriteReport(const std::string& path, const std::string& contents, std::vector<std::string>& unwritten);

inline constexpr const char* kTextHashHelp =
    "also report each run's trace_text_hash in the JSON report: FNV-1a over its trace text, the trace hash of "
    "builds before trace format 2 (renders every line: slower; for ci/compare-traces.sh)";

}  // namespace durasim
