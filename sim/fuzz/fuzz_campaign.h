// FuzzCampaign: the mutational fuzzer's loop (docs/fuzzing.md). Iteration
// i of seed S takes its own Prng (S, i), picks its target (i modulo the
// targets asked for), a seed input of that target's corpus and 1 to 4
// mutations, and runs the mutant isolated (sim/fuzz/isolated_run.h). No
// iteration depends on another, so `--seed S --first i --iterations 1`
// replays iteration i exactly, as long as the corpus is the same.
//
// A finding is an input that crashed, printed a sanitizer report, ran past
// the time or memory bound, broke a target's property (sim/fuzz/fuzz_targets.h)
// or, checked through the real CLI (`durasim run`), exited with a code
// outside sim/exit_codes.h's or one that contradicts the in-process answer.
// Each is written to the findings folder and printed with its input.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/fuzz/fuzz_targets.h"
#include "sim/fuzz/isolated_run.h"
#include "sim/fuzz/mutator.h"

namespace durasim {

struct FuzzOptions {
  std::vector<FuzzTarget> targets = {FuzzTarget::kScenario, FuzzTarget::kState, FuzzTarget::kMarker};
  std::map<FuzzTarget, std::vector<std::string>> corpus_dirs;  // each target's seed folders
  uint64_t seed = 1;
  uint64_t first = 0;           // the first iteration
  uint64_t iterations = 1000;
  double budget_s = 0;          // > 0: start no iteration after this much wall time
  bool check_seeds = true;      // run each seed input unmutated first
  IsolationLimits limits;
  MutatorOptions mutator;
  std::string findings_dir = "fuzz-findings";
  std::string work_dir;         // scratch (stderr captures, CLI inputs); default findings_dir
  std::string durasim;          // the durasim binary, for the CLI check (empty: off)
  uint64_t cli_every = 0;       // check every n-th scenario mutant through the CLI (0: never)
  std::string known_limits;     // file of inputs kept out of the standing check (empty: none)
  uint64_t max_findings = 20;   // stop after this many
  bool verbose = false;
  uint64_t progress_every = 0;  // > 0: a progress line every this many iterations
  // For the tests of the fuzzer itself: "crash" (abort) or "hang" (loop) in
  // every input's child instead of its target, so that the check is seen to
  // fail, with the reproducer, on what it must catch. Empty: off.
  std::string plant;
};

struct TargetStats {
  uint64_t executions = 0;
  uint64_t skipped_known = 0;
  uint64_t findings = 0;
  int64_t slowest_ms = 0;
  uint64_t slowest_iteration = 0;
  int64_t peak_rss_mb = 0;
  std::map<std::string, uint64_t> outcomes;
};

struct FuzzSummary {
  std::map<FuzzTarget, TargetStats> stats;
  uint64_t iterations_run = 0;
  uint64_t seeds_run = 0;
  uint64_t cli_checks = 0;
  uint64_t findings = 0;
  bool stopped_by_budget = false;
  bool stopped_by_findings = false;
  bool stopped_by_signal = false;  // SIGINT/SIGTERM: the iteration in flight is not counted as a finding
  double wall_s = 0;
  std::vector<std::string> finding_files;
};

// Every file under `dirs` (recursively) whose name ends in `extension`,
// sorted by path, with its contents.
std::vector<std::pair<std::string, std::string>> LoadCorpus(const std::vector<std::string>& dirs,
                                                            const std::string& extension);

// A known-limits file: "<target> <16 hex digits: HashString of the input> <why>"
// per line, '#' comments. The hashes of each target.
std::map<FuzzTarget, std::set<uint64_t>> LoadKnownLimits(const std::string& path);

// The fingerprint a known-limits line names.
uint64_t InputFingerprint(const std::string& input);

// Runs the campaign, printing progress and findings to `out`.
FuzzSummary RunCampaign(const FuzzOptions& options, std::ostream& out);

// Runs one input file against `target`, as a campaign iteration would
// (isolated, the CLI check included); prints what happened. Returns whether
// it was a finding.
bool ReplayFile(FuzzTarget target, const std::string& path, const FuzzOptions& options, std::ostream& out);

std::string RenderSummary(const FuzzSummary& summary, const FuzzOptions& options);

}  // namespace durasim
