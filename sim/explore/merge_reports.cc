// MergeReports implementation.
#include "sim/explore/merge_reports.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "sim/exit_codes.h"
#include "sim/explore/explore_report.h"
#include "sim/view/report.h"
#include "store/format.h"

namespace durasim {

int MergeReports(const std::string& out_path, const std::vector<std::string>& in_paths, bool require_coverage,
                 int64_t require_pairs) {
  std::map<uint64_t, SeedResult> seeds;  // a seed in several shards: the last one's
  MergedReport merged;
  merged.merged_from = in_paths;
  for (const std::string& path : in_paths) {
    Result<ExploreReport> report = ReadExploreReport(path);
    if (!report.ok()) {
      std::cerr << "durasim: " << report.status().message() << "\n";
      return kExitUsage;
    }
    for (SeedResult& seed : report->seeds) seeds[seed.seed] = std::move(seed);
    merged.wall_s = std::max(merged.wall_s, report->wall_s);
    merged.mutant = report->mutant;
    merged.interrupted = merged.interrupted || report->interrupted;
    if (merged.infra_stop.empty() && !report->infra_stop.empty()) merged.infra_stop = path + ": " + report->infra_stop;
  }
  SweepResult result;
  for (auto& [number, seed] : seeds) result.seeds.push_back(std::move(seed));
  result.wall_s = merged.wall_s;
  result.infra_stop = merged.infra_stop;
  result.never_fired = NeverFired(result.seeds);
  merged.never_fired = result.never_fired;
  result.pairs = PairTableOf(result.seeds);
  result.thin_pairs = ThinPairs(result.pairs, require_pairs);
  merged.pairs = result.pairs;
  merged.seeds = result.seeds;
  const Status written = WriteFile(out_path, ReportText(merged));
  if (!written.ok()) {
    std::cerr << "durasim: " << written.message() << "\n";
    result.unwritten.push_back(out_path);
  }
  // An infra seed is no failure of the store (docs/backends.md): counted apart.
  const size_t failed = static_cast<size_t>(std::count_if(result.seeds.begin(), result.seeds.end(), [](const SeedResult& seed) {
    return seed.verdict != Verdict::kPass && seed.verdict != Verdict::kInfra;
  }));
  const size_t infra = static_cast<size_t>(std::count_if(
      result.seeds.begin(), result.seeds.end(), [](const SeedResult& seed) { return seed.verdict == Verdict::kInfra; }));
  const std::string never = result.never_fired.empty() ? "none" : fmt::format("{}", fmt::join(result.never_fired, ", "));
  std::cout << fmt::format("merged {} reports: {} seeds, {} failed, {} infra, never fired: {}{}{}{}\n", in_paths.size(),
                           result.seeds.size(), failed, infra, never, merged.interrupted ? "; some shard was interrupted" : "",
                           merged.infra_stop.empty() ? "" : "; stopped: " + merged.infra_stop,
                           written.ok() ? " -> " + out_path : "; NOT WRITTEN: " + out_path);
  if (!result.thin_pairs.empty()) {
    std::cout << fmt::format("pairs below --require-pairs {}: {} (the merged report has every pair)\n", require_pairs,
                             result.thin_pairs.size());
  }
  return ExitCodeFor(result, require_coverage);
}

}  // namespace durasim
