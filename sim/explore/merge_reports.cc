// MergeReports implementation.
#include "sim/explore/merge_reports.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "sim/explore/sweep.h"
#include "properties/scenario_generator.h"
#include "sim/report.h"

namespace durasim {

int MergeReports(const std::string& out_path, const std::vector<std::string>& in_paths, bool require_coverage) {
  std::map<uint64_t, nlohmann::json> seeds;
  SweepResult merged;
  nlohmann::json mutant = nullptr;
  for (const std::string& path : in_paths) {
    std::ifstream in(path);
    if (!in) {
      std::cerr << "durasim: cannot read " << path << "\n";
      return kExitUsage;
    }
    nlohmann::json report;
    try {
      report = nlohmann::json::parse(in);
      for (const nlohmann::json& seed : report.at("seeds")) seeds[seed.at("seed").get<uint64_t>()] = seed;
      merged.wall_s = std::max(merged.wall_s, report.at("wall_s").get<double>());
    } catch (const std::exception& error) {
      std::cerr << "durasim: " << path << " is not an explore report: " << error.what() << "\n";
      return kExitUsage;
    }
    if (report.contains("mutant")) mutant = report["mutant"];
  }
  std::map<std::string, int64_t> hits;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& [number, seed] : seeds) {
    SeedResult result;
    result.seed = number;
    result.verdict = seed.at("verdict").get<std::string>();
    result.invariants = seed.at("invariants").get<std::vector<std::string>>();
    for (const auto& [name, count] : seed.at("fault_hits").items()) hits[name] += count.get<int64_t>();
    merged.seeds.push_back(result);
    all.push_back(seed);
  }
  for (const std::string& name : FaultHitNames()) {
    if (hits.count(name) == 0) merged.never_fired.push_back(name);
  }
  nlohmann::json out = {{"mutant", mutant}, {"merged_from", in_paths}, {"wall_s", merged.wall_s},
                        {"never_fired", merged.never_fired}, {"seeds", all}};
  const Status written = WriteFile(out_path, out.dump(2) + "\n");
  if (!written.ok()) {
    std::cerr << "durasim: " << written.message() << "\n";
    return kExitUsage;
  }
  size_t failed = 0;
  for (const SeedResult& seed : merged.seeds) failed += seed.verdict == "pass" ? 0 : 1;
  std::cout << fmt::format("merged {} reports: {} seeds, {} failed, never fired: {}\n", in_paths.size(),
                           merged.seeds.size(), failed,
                           merged.never_fired.empty() ? "none" : fmt::format("{}", fmt::join(merged.never_fired, ", ")));
  return ExitCodeFor(merged, require_coverage);
}

}  // namespace durasim
