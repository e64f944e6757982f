// Explore report implementation.
#include "sim/explore/explore_report.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <stdexcept>

#include "model/coverage.h"
#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/view/report.h"
#include "store/format.h"

namespace durasim {
namespace {

template <typename E>
void EnumFromJson(const nlohmann::json& j, E& value, const char* what) {
  const std::string name = j.get<std::string>();
  const std::optional<E> parsed = ParseName<E>(name);
  if (!parsed) {
    throw std::invalid_argument(fmt::format("unknown {} '{}'; expected one of: {}", what, name, NameList<E>()));
  }
  value = *parsed;
}

std::vector<std::string> Names(const std::vector<Invariant>& invariants) {
  std::vector<std::string> names;
  for (Invariant invariant : invariants) names.emplace_back(NameOf(invariant));
  return names;
}

// The first line of a message, at most about 200 characters: for one-line
// summaries.
std::string FirstLine(const std::string& message) {
  constexpr size_t kShown = 200;
  std::string line = message.substr(0, message.find('\n'));
  if (line.size() > kShown) line = line.substr(0, kShown) + "...";
  return line;
}

}  // namespace

void to_json(nlohmann::json& j, Verdict verdict) { j = NameOf(verdict); }
void from_json(const nlohmann::json& j, Verdict& verdict) { EnumFromJson(j, verdict, "verdict"); }
void to_json(nlohmann::json& j, Invariant invariant) { j = NameOf(invariant); }
void from_json(const nlohmann::json& j, Invariant& invariant) { EnumFromJson(j, invariant, "invariant"); }
void to_json(nlohmann::json& j, BackendKind backend) { j = NameOf(backend); }
void from_json(const nlohmann::json& j, BackendKind& backend) { EnumFromJson(j, backend, "backend"); }

void to_json(nlohmann::json& j, StoreDesign design) { j = NameOf(design); }
void from_json(const nlohmann::json& j, StoreDesign& design) { EnumFromJson(j, design, "store design"); }

void to_json(nlohmann::json& j, const SeedResult& seed) {
  j = {{"seed", seed.seed},
       {"store", seed.store},
       {"verdict", seed.verdict},
       {"invariants", seed.invariants},
       {"trace_hash", seed.trace_hash},
       {"sim_time_us", seed.sim_time_us},
       {"fault_hits", seed.fault_hits},
       {"failure_file", seed.failure_file},
       {"message", seed.message}};
  if (!seed.trace_text_hash.empty()) j["trace_text_hash"] = seed.trace_text_hash;
}

void from_json(const nlohmann::json& j, SeedResult& seed) {
  j.at("seed").get_to(seed.seed);
  // Reports before store designs ran the one design there was.
  seed.store = j.value("store", StoreDesign::kKafkaRewind);
  j.at("verdict").get_to(seed.verdict);
  j.at("invariants").get_to(seed.invariants);
  j.at("trace_hash").get_to(seed.trace_hash);
  j.at("sim_time_us").get_to(seed.sim_time_us);
  j.at("fault_hits").get_to(seed.fault_hits);
  j.at("failure_file").get_to(seed.failure_file);
  j.at("message").get_to(seed.message);
  seed.trace_text_hash = j.value("trace_text_hash", std::string());
}

std::vector<std::string> NeverFired(const std::vector<SeedResult>& seeds) {
  std::map<std::string, int64_t> hits;
  std::vector<StoreDesign> designs;
  for (const SeedResult& seed : seeds) {
    for (const auto& [name, count] : seed.fault_hits) hits[name] += count;
    if (std::find(designs.begin(), designs.end(), seed.store) == designs.end()) designs.push_back(seed.store);
  }
  std::vector<std::string> never;
  // No seed: every design's events are missing too.
  for (const std::string& name : RequiredCoverage(designs)) {
    if (hits.count(name) == 0) never.push_back(name);
  }
  return never;
}

std::vector<PairCount> PairTableOf(const std::vector<SeedResult>& seeds) {
  std::vector<SeedHits> hits;
  hits.reserve(seeds.size());
  for (const SeedResult& seed : seeds) hits.push_back(SeedHits{seed.store, &seed.fault_hits});
  return CountPairs(hits);
}

namespace {

// How many pairs that can meet were hit together, the thinnest, and those
// below --require-pairs.
std::string PairSummary(const SweepResult& result) {
  if (result.pairs.empty()) return "";
  constexpr size_t kShown = 8;
  const std::vector<PairCount> thinnest = ThinPairs(result.pairs, INT64_MAX);
  const size_t met = static_cast<size_t>(
      std::count_if(result.pairs.begin(), result.pairs.end(), [](const PairCount& pair) { return pair.seeds > 0; }));
  std::vector<std::string> shown;
  for (size_t i = 0; i < std::min(kShown, thinnest.size()); ++i) {
    shown.push_back(fmt::format("{}+{} {}", thinnest[i].first, thinnest[i].second, thinnest[i].seeds));
  }
  std::string out = fmt::format("feature pairs: {} of {} that can meet were hit together by some seed; thinnest: {}\n",
                                met, result.pairs.size(), fmt::join(shown, ", "));
  if (!result.thin_pairs.empty()) {
    std::vector<std::string> thin;
    for (size_t i = 0; i < std::min<size_t>(20, result.thin_pairs.size()); ++i) {
      thin.push_back(fmt::format("{}+{} {}", result.thin_pairs[i].first, result.thin_pairs[i].second,
                                 result.thin_pairs[i].seeds));
    }
    out += fmt::format("pairs below --require-pairs: {}: {}{}\n", result.thin_pairs.size(), fmt::join(thin, ", "),
                       result.thin_pairs.size() > thin.size() ? ", ... (the JSON report has every pair)" : "");
  }
  return out;
}

}  // namespace

std::string ReportText(const ExploreReport& report) { return DumpJson(nlohmann::json(report)); }
std::string ReportText(const MergedReport& report) { return DumpJson(nlohmann::json(report)); }

Result<ExploreReport> ReadExploreReport(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status(StatusCode::kInvalidArgument, fmt::format("cannot read {}", path));
  try {
    const nlohmann::json json = nlohmann::json::parse(in);
    // What every explore and merged report has; the rest has defaults.
    for (const char* key : {"seeds", "wall_s"}) {
      if (!json.contains(key)) throw std::invalid_argument(fmt::format("key '{}' not found", key));
    }
    return json.get<ExploreReport>();
  } catch (const std::exception& error) {
    return Status(StatusCode::kInvalidArgument, fmt::format("{} is not an explore report: {}", path, error.what()));
  }
}

std::string Summary(const SweepResult& result) {
  std::map<std::string, int64_t> verdicts;
  std::map<std::string, int64_t> by_invariant;
  std::map<std::string, int64_t> hits;
  int64_t sim_us = 0;
  for (const SeedResult& seed : result.seeds) {
    ++verdicts[NameOf(seed.verdict)];
    for (Invariant invariant : seed.invariants) ++by_invariant[NameOf(invariant)];
    for (const auto& [name, count] : seed.fault_hits) hits[name] += count;
    sim_us += seed.sim_time_us;
  }
  const double runs = static_cast<double>(result.seeds.size());
  std::string out = fmt::format("explore: {} runs in {:.2f} s: {:.0f} runs/s, simulated {:.1f} s = {:.1f}x wall time\n",
                                result.seeds.size(), result.wall_s, result.wall_s > 0 ? runs / result.wall_s : 0,
                                sim_us / 1e6, result.wall_s > 0 ? sim_us / 1e6 / result.wall_s : 0);
  out += fmt::format("verdicts: {}\n", verdicts);
  out += fmt::format("violations by invariant: {}\n", by_invariant.empty() ? "none" : fmt::format("{}", by_invariant));
  out += "fault kinds and points hit:\n";
  for (const auto& [name, count] : hits) out += fmt::format("  {:<40} {}\n", name, count);
  if (!result.never_fired.empty()) out += fmt::format("never fired: {}\n", fmt::join(result.never_fired, ", "));
  out += PairSummary(result);
  if (result.budget_exhausted) out += "time budget exhausted: not every seed ran\n";
  if (result.interrupted) out += "interrupted: not every seed ran\n";
  if (!result.infra_stop.empty()) out += fmt::format("stopped: {}: not every seed ran\n", result.infra_stop);
  constexpr size_t kInfraShown = 5;
  size_t infra = 0;
  for (const SeedResult& seed : result.seeds) {
    if (seed.verdict == Verdict::kPass) continue;
    if (seed.verdict == Verdict::kInfra) {
      // Not the store's failure: no failure file, the cause only.
      if (++infra <= kInfraShown) out += fmt::format("INFRA seed {}: {}\n", seed.seed, FirstLine(seed.message));
      continue;
    }
    // Only a file that was written is named; an error says its cause.
    out += fmt::format("FAILED seed {}: {} [{}] {}{}\n", seed.seed, NameOf(seed.verdict),
                       fmt::join(Names(seed.invariants), ","),
                       seed.failure_file.empty() ? "(no failure file: see stderr)" : "-> " + seed.failure_file,
                       seed.verdict == Verdict::kError ? " (cause: " + FirstLine(seed.message) + ")" : "");
  }
  if (infra > kInfraShown) {
    out += fmt::format("INFRA: {} more seeds (the JSON report has every cause)\n", infra - kInfraShown);
  }
  for (const std::string& unwritten : result.unwritten) out += fmt::format("NOT WRITTEN: {}\n", unwritten);
  return out;
}

std::string ToJunit(const SweepResult& result, const std::optional<std::string>& mutant) {
  size_t failures = 0;
  size_t errors = 0;
  for (const SeedResult& seed : result.seeds) {
    if (seed.verdict == Verdict::kInfra) {
      ++errors;
    } else if (seed.verdict != Verdict::kPass) {
      ++failures;
    }
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuite name=\"durasim explore{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\">\n",
      mutant ? " " + XmlEscape(*mutant) : "", result.seeds.size(), failures, errors, result.wall_s);
  for (const SeedResult& seed : result.seeds) {
    out += fmt::format("  <testcase classname=\"explore\" name=\"seed_{}\">", seed.seed);
    if (seed.verdict == Verdict::kInfra) {
      // JUnit's error: the test could not run as meant, which is no failure
      // of the code under test.
      out += fmt::format("<error type=\"infra\" message=\"infra: {}\">{}\nnot judged: no failure file; run the "
                         "seed again once the broker is healthy</error>",
                         XmlEscape(FirstLine(seed.message)), XmlEscape(seed.message));
    } else if (seed.verdict != Verdict::kPass) {
      const std::string reproduce =
          seed.failure_file.empty()
              ? fmt::format("reproduce: build/durasim replay --seed {}{}", seed.seed, mutant ? " --mutant " + *mutant : "")
              : fmt::format("reproduce: build/durasim run {}", seed.failure_file);
      out += fmt::format("<failure message=\"{} [{}] {}{}\">{}\n{}</failure>", NameOf(seed.verdict),
                         XmlEscape(fmt::format("{}", fmt::join(Names(seed.invariants), ","))),
                         XmlEscape(seed.failure_file),
                         seed.verdict == Verdict::kError ? XmlEscape(": " + FirstLine(seed.message)) : "",
                         XmlEscape(reproduce), XmlEscape(seed.message));
    }
    out += "</testcase>\n";
  }
  out += "</testsuite>\n";
  return out;
}

int ExitCodeFor(const SweepResult& result, bool require_coverage) {
  if (result.interrupted && Interrupted()) return InterruptExitCode();
  bool violation = false, liveness = false, determinism = false, error = false, infra = !result.infra_stop.empty();
  for (const SeedResult& seed : result.seeds) {
    if (seed.verdict == Verdict::kError) error = true;
    if (seed.verdict == Verdict::kInfra) infra = true;
    if (seed.verdict == Verdict::kStuck) liveness = true;
    for (Invariant invariant : seed.invariants) {
      if (invariant == Invariant::kDeterminism) {
        determinism = true;
      } else if (invariant == Invariant::kLiveness) {
        liveness = true;
      } else {
        violation = true;
      }
    }
  }
  if (error) return kExitError;
  if (determinism) return kExitDeterminism;
  if (violation) return kExitViolation;
  if (liveness) return kExitLiveness;
  if (infra) return kExitInfra;
  if (require_coverage && !result.never_fired.empty()) return kExitCoverage;
  if (!result.thin_pairs.empty()) return kExitCoverage;
  if (!result.unwritten.empty()) return kExitOutput;
  return kExitOk;
}

}  // namespace durasim
