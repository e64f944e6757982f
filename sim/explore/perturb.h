// Perturbed schedules: `durasim run FILE --perturb N` runs one hand-written
// scenario under N schedules derived from its `seed:` (model/perturbation.h
// says what a schedule varies), and every one must keep the file's
// expectation. A schedule that breaks it is reported with its perturb seed
// and written under the failures folder as a scenario file that carries the
// seed (`perturb_seed:`), shrunk when the run showed a violation, so
// `durasim run` of that file, or `durasim run FILE --perturb-seed S`,
// replays exactly that schedule.
//
// Thread-safety: RunPerturbed runs schedules on `jobs` worker threads; each
// run is independent (sim/run/runner.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "sim/run/infra_guard.h"
#include "sim/run/runner.h"

namespace durasim {

struct PerturbOptions {
  int64_t schedules = 0;  // N of --perturb N
  int jobs = 1;
  std::string failures_dir = "failures";
  double shrink_budget_s = 20;  // per written failure
  int written_max = 3;          // failures written (and shrunk) per file; the others are only reported
  // Pin worker j (the calling thread is worker 0, and stays pinned after:
  // its failure files and shrinks run there too) and the threads it starts
  // to one CPU (sim/cpu_pin.h; where PinsThreads says so). A refused pin is
  // said once on stderr.
  bool pin_workers = false;
  // Called for each failing schedule as it is printed (`--trace-failing`:
  // its trace); empty: nothing.
  std::function<void(const Scenario&, const RunReport&)> on_failure = {};
};

// One schedule of one file that did not keep the file's expectation.
struct PerturbedFailure {
  int64_t index = 0;          // schedule index in 0..N-1
  uint64_t perturb_seed = 0;  // PerturbedSeed(file seed, index)
  RunReport report;
  std::string written;        // the failure file, "" when not written
};

struct PerturbedFile {
  std::string path;
  std::string name;
  uint64_t seed = 0;  // the file's `seed:`
  int64_t schedules = 0;
  std::vector<PerturbedFailure> failures;  // in schedule order
  std::vector<uint64_t> trace_hashes;      // per schedule
  int64_t distinct_traces = 0;
  int64_t schedules_ran = 0;  // fewer than schedules when an interrupt stopped the sweep
  // Schedules whose run ended infra (the broker failed: sim/run/infra_guard.h):
  // not judged, never written; the first one's cause.
  int64_t infra_runs = 0;
  std::string infra_cause;
};

// Runs N perturbed schedules of every scenario; the outcomes in scenario
// order. With `guard`, a schedule after an infra run starts only once the
// broker answers again, and none starts once the guard stopped.
std::vector<PerturbedFile> RunPerturbed(const std::vector<Scenario>& scenarios, const RunOptions& options,
                                        const PerturbOptions& perturb, InfraGuard* guard = nullptr);

// The name each scenario's failure files carry (perturb_<name>_<perturb
// seed>.yaml): its file's stem (its name when it has no file), or, when two
// files of the run share a stem (fast/x and regressions/x: with the same
// seed they draw the same perturb seeds), its whole path with every other
// character than a letter, a digit, '-' or '_' made '_', so that no failure
// file overwrites another's.
std::vector<std::string> FailureFileNames(const std::vector<Scenario>& scenarios);

// The command: runs, prints one line per file (and each failure), writes the
// failures; exit status 0 when every schedule of every file kept its
// expectation, else 1; 8 when runs ended infra and nothing else failed
// (sim/exit_codes.h).
int PerturbCommand(const std::vector<Scenario>& scenarios, const RunOptions& options, const PerturbOptions& perturb);

}  // namespace durasim
