// The explore report: what a sweep found, seed by seed, and the one JSON
// schema that `explore --report-json` writes and `merge-reports` reads and
// writes, through the structs below (nlohmann_json's type macros: a key is
// a member's name, a value its JSON form; verdicts, invariants and backends
// by their table names). Also the summary, the JUnit report and the exit
// code that the reports of a sweep give.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/backends/backend_kind.h"
#include "model/invariant.h"
#include "model/store_designs.h"
#include "model/verdict.h"
#include "sim/explore/pair_coverage.h"
#include "store/status.h"

// An absent value is null.
namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& value) {
    if (value.has_value()) {
      j = *value;
    } else {
      j = nullptr;
    }
  }
  static void from_json(const json& j, std::optional<T>& value) {
    if (j.is_null()) {
      value.reset();
    } else {
      value = j.get<T>();
    }
  }
};
}  // namespace nlohmann

namespace durasim {

struct SeedResult {
  uint64_t seed = 0;
  StoreDesign store = StoreDesign::kKafkaRewind;  // the design the seed ran
  Verdict verdict = Verdict::kPass;
  std::vector<Invariant> invariants;  // each once, in the order the run violated them
  std::string trace_hash;             // 16 hex digits
  std::string trace_text_hash;        // explore --text-hash: format 1's hash of the trace's text; "" otherwise
  int64_t sim_time_us = 0;
  std::map<std::string, int64_t> fault_hits;  // coverage point name -> hits (model/coverage.h)
  std::string failure_file;                   // the written scenario, if it failed and could be written
  std::string message;                        // first violation or error, for reports
};

struct SweepResult {
  std::vector<SeedResult> seeds;  // in seed order
  double wall_s = 0;
  bool budget_exhausted = false;
  bool interrupted = false;              // SIGINT/SIGTERM: not every seed ran
  std::vector<std::string> never_fired;  // required coverage points with no hit
  std::vector<PairCount> pairs;          // pairwise coverage (pair_coverage.h)
  // With --require-pairs N: the pairs that can meet, hit together by fewer
  // than N seeds (a coverage failure).
  std::vector<PairCount> thin_pairs;
  std::vector<std::string> unwritten;    // outputs that could not be written (sim/exit_codes.h kExitOutput)
  // Why the sweep stopped on infrastructure failures before every seed ran
  // (sim/run/infra_guard.h); empty when it did not.
  std::string infra_stop;
};

// `explore --report-json`.
struct ExploreReport {
  std::optional<std::string> mutant;
  BackendKind backend = BackendKind::kModel;
  bool compare_model = false;
  uint64_t seed_start = 1;
  uint64_t seeds_total = 0;
  std::string shard;  // "I/N"
  double wall_s = 0;
  bool interrupted = false;  // SIGINT/SIGTERM stopped the sweep: seeds holds the seeds that ran
  std::string infra_stop;    // SweepResult::infra_stop
  std::vector<std::string> never_fired;
  std::vector<PairCount> pairs;  // SweepResult::pairs
  std::vector<SeedResult> seeds;
};

// `merge-reports --out`: the seeds of every shard, in seed order.
struct MergedReport {
  std::optional<std::string> mutant;
  std::vector<std::string> merged_from;  // the shard reports' paths
  double wall_s = 0;                     // the slowest shard's
  bool interrupted = false;              // some shard was
  std::string infra_stop;                // why some shard stopped on infrastructure failures ("": none did)
  std::vector<std::string> never_fired;
  std::vector<PairCount> pairs;
  std::vector<SeedResult> seeds;
};

// The required coverage points (model/coverage.h) that no seed hit: every
// design's events of the designs the seeds ran.
std::vector<std::string> NeverFired(const std::vector<SeedResult>& seeds);
// The pair table of the seeds (pair_coverage.h).
std::vector<PairCount> PairTableOf(const std::vector<SeedResult>& seeds);

// The report as written: indented JSON and a final newline.
std::string ReportText(const ExploreReport& report);
std::string ReportText(const MergedReport& report);
// An explore report, or a merged one (its seeds and wall time): a
// kInvalidArgument error naming `path` when it is neither.
[[nodiscard]] Result<ExploreReport> ReadExploreReport(const std::string& path);

// Runs, rates, verdicts, violations by invariant, coverage, failures.
std::string Summary(const SweepResult& result);
std::string ToJunit(const SweepResult& result, const std::optional<std::string>& mutant);

// 128 + the signal when interrupted; else 5 an error; 4 a determinism
// failure; 1 an invariant violation; 3 a liveness failure; 8 an infra run
// (or a sweep stopped by them); 6 a coverage failure (a point never
// fired with `require_coverage`, or a thin pair); 7 an output not
// written; 0 all passed (sim/exit_codes.h).
int ExitCodeFor(const SweepResult& result, bool require_coverage);

// JSON forms of the vocabulary, by table name (found by argument-dependent
// lookup; an unknown name does not parse).
void to_json(nlohmann::json& j, Verdict verdict);
void from_json(const nlohmann::json& j, Verdict& verdict);
void to_json(nlohmann::json& j, Invariant invariant);
void from_json(const nlohmann::json& j, Invariant& invariant);
void to_json(nlohmann::json& j, BackendKind backend);
void from_json(const nlohmann::json& j, BackendKind& backend);
void to_json(nlohmann::json& j, StoreDesign design);
void from_json(const nlohmann::json& j, StoreDesign& design);

// Every field is required but trace_text_hash, which is written only with
// --text-hash (a report without it, or from before it, reads as "").
void to_json(nlohmann::json& j, const SeedResult& seed);
void from_json(const nlohmann::json& j, SeedResult& seed);
// With defaults: a merged report reads as an explore report too.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ExploreReport, mutant, backend, compare_model, seed_start,
                                                seeds_total, shard, wall_s, interrupted, infra_stop, never_fired,
                                                pairs, seeds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MergedReport, mutant, merged_from, wall_s, interrupted, infra_stop, never_fired,
                                   pairs, seeds)

}  // namespace durasim
