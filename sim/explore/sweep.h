// The exploration sweep: runs generated scenarios for a range of seeds on
// worker threads (sim/explore/seed_pool.h), checks every invariant (and
// determinism on a sampled share of seeds), writes every failure down as a
// scenario file the moment it is found (sim/explore/failure_file.h), shrinks
// it, and reports what the sweep covered (sim/explore/explore_report.h).
//
// Threads and the wall clock live here, outside sim/ and model/: a seed's
// run is the same whichever worker runs it and however long it takes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "model/backends/backend_kind.h"
#include "sim/explore/explore_report.h"
#include "sim/run/infra_guard.h"

namespace durasim {

struct SweepOptions {
  uint64_t seeds = 100;
  uint64_t seed_start = 1;
  int jobs = 1;
  int shard_index = 0;  // this process runs seeds with (seed - seed_start) % shard_count == shard_index
  int shard_count = 1;
  std::optional<std::string> mutant;
  // Every seed's store design (--store); none: each seed draws its own.
  std::optional<StoreDesign> store;
  // The backend each seed runs on, and whether it is compared with the model
  // (a difference is a differential failure, written and shrunk as any).
  BackendKind backend = BackendKind::kModel;
  std::string bootstrap_servers;
  bool compare_model = false;
  // Infrastructure failures (sim/run/infra_guard.h): the broker check's
  // deadline before a seed after an infra seed (0: none), and the infra
  // seeds in a row that stop the sweep (0: never).
  double broker_check_s = kBrokerCheckSDefault;
  int infra_errors_max = kInfraErrorsMaxDefault;
  double time_budget_s = 0;  // 0: no budget
  std::string failures_dir = "failures";
  std::string junit_path;
  std::string report_json_path;
  bool check_determinism = false;   // every seed twice
  uint64_t determinism_every = 16;  // otherwise every Nth seed twice
  bool require_coverage = false;
  // Fail when a pair of coverage points that can meet was hit together by
  // fewer seeds (sim/explore/pair_coverage.h); 0: no requirement.
  int64_t require_pairs = 0;
  bool text_hash = false;  // report each seed's trace_text_hash (RunOptions::text_hash)
  double shrink_budget_s = 20;  // per failure
  int shrink_max = 3;           // failures shrunk per sweep; later ones are written unshrunk
  bool progress_tty = false;    // a redrawn progress bar instead of periodic lines
  bool progress = true;         // false: no progress output at all
  // Stop starting seeds once one failed; every seed before it still runs, so
  // the first failing seed (in seed order) is the same for any job count.
  bool stop_on_first_failure = false;
  // Pin each worker to one CPU where PinsThreads says so (sim/cpu_pin.h;
  // --no-cpu-pin clears it).
  bool cpu_pin = true;
};

// Runs the sweep and prints progress and the summary to stdout. Returns the
// process exit code (see ExitCodeFor).
// `after`, when given, sees the result once the summary is printed
// (`explore --trace-failing`).
int RunSweep(const SweepOptions& options, const std::function<void(const SweepResult&)>& after = {});

// Runs the sweep (progress only, no summary, no reports) and returns it.
SweepResult SweepSeeds(const SweepOptions& options);

}  // namespace durasim
