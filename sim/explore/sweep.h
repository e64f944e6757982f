// The exploration sweep: runs generated scenarios for a range of seeds on
// worker threads, checks every invariant (and determinism on a sampled share
// of seeds), writes every failure down as a scenario file the moment it is
// found, shrinks it, and summarises what the sweep covered.
//
// Threads and the wall clock live here, outside sim/ and model/: a seed's
// run is the same whichever worker runs it and however long it takes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/runner.h"

namespace durasim {

struct SweepOptions {
  uint64_t seeds = 100;
  uint64_t seed_start = 1;
  int jobs = 1;
  int shard_index = 0;  // this process runs seeds with (seed - seed_start) % shard_count == shard_index
  int shard_count = 1;
  std::optional<std::string> mutant;
  // The backend each seed runs on, and whether it is compared with the model
  // (a difference is a "differential" failure, written and shrunk as any).
  std::string backend = "model";
  std::string bootstrap_servers;
  bool compare_model = false;
  double time_budget_s = 0;  // 0: no budget
  std::string failures_dir = "failures";
  std::string junit_path;
  std::string report_json_path;
  bool check_determinism = false;   // every seed twice
  uint64_t determinism_every = 16;  // otherwise every Nth seed twice
  bool require_coverage = false;
  double shrink_budget_s = 20;  // per failure
  int shrink_max = 3;           // failures shrunk per sweep; later ones are written unshrunk
  bool progress_tty = false;    // a redrawn progress bar instead of periodic lines
  bool progress = true;         // false: no progress output at all
  // Stop starting seeds once one failed; every seed before it still runs, so
  // the first failing seed (in seed order) is the same for any job count.
  bool stop_on_first_failure = false;
};

struct SeedResult {
  uint64_t seed = 0;
  std::string verdict;  // pass, violation, stuck, error
  std::vector<std::string> invariants;
  uint64_t trace_hash = 0;
  int64_t sim_us = 0;
  std::map<std::string, int64_t> fault_hits;
  std::string failure_file;  // written scenario, if it failed
  std::string message;       // first violation or error, for reports
};

struct SweepResult {
  std::vector<SeedResult> seeds;  // in seed order
  double wall_s = 0;
  bool budget_exhausted = false;
  std::vector<std::string> never_fired;  // fault kinds with no hit
};

// Runs the sweep and prints progress and the summary to stdout. Returns the
// process exit code (see ExitCodeFor).
int RunSweep(const SweepOptions& options);

// Runs the sweep (progress only, no summary, no reports) and returns it.
SweepResult SweepSeeds(const SweepOptions& options);

// 0 all passed; 1 an invariant violation; 3 a liveness failure; 4 a
// determinism failure; 5 an error; 6 a coverage failure.
int ExitCodeFor(const SweepResult& result, bool require_coverage);

inline constexpr int kExitViolation = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitLiveness = 3;
inline constexpr int kExitDeterminism = 4;
inline constexpr int kExitError = 5;
inline constexpr int kExitCoverage = 6;

}  // namespace durasim
