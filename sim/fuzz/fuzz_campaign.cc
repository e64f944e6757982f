// The fuzzer's loop, its findings and its summary.
#include "sim/fuzz/fuzz_campaign.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

#include "sim/exit_codes.h"
#include "sim/scenario/scenario_parser.h"
#include "sim/wall_seconds.h"
#include "store/check.h"
#include "store/format.h"
#include "store/hash.h"

namespace durasim {
namespace {

namespace fs = std::filesystem;

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool WriteWhole(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  out.close();
  return static_cast<bool>(out);
}

// `text` for a terminal: printable ASCII, newlines and tabs as they are,
// every other byte as \xNN; at most `limit` bytes of it.
std::string Printable(const std::string& text, size_t limit) {
  std::string out;
  for (size_t i = 0; i < std::min(text.size(), limit); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  if (text.size() > limit) out += fmt::format("\n[... {} more bytes, see the reproducer file]", text.size() - limit);
  return out;
}

struct Finding {
  std::string kind;    // crash, timeout, memory, property, exit-code
  std::string detail;
};

// The codes `durasim run` documents (sim/exit_codes.h) for a run that is
// not interrupted.
bool DocumentedRunExit(int code) {
  return code == kExitOk || code == kExitNotAsExpected || code == kExitUsage || code == kExitOutput;
}

// The exit `durasim run` must give for an in-process outcome.
int ExpectedRunExit(const std::string& outcome) {
  if (outcome == "parse-error") return kExitUsage;
  return outcome.ends_with(" as-expected") ? kExitOk : kExitNotAsExpected;
}

std::string WorkDir(const FuzzOptions& options) {
  return options.work_dir.empty() ? options.findings_dir : options.work_dir;
}

// A scratch file of this process: two campaigns sharing a folder must not
// overwrite each other's inputs.
std::string Scratch(const FuzzOptions& options, const std::string& name) {
  return fmt::format("{}/.{}-{}", WorkDir(options), getpid(), name);
}

// Whether a signal asked the campaign to stop (FuzzOptions::limits).
bool StopRequested(const FuzzOptions& options) {
  return options.limits.stop_requested != nullptr && options.limits.stop_requested();
}

std::string Describe(const IsolatedResult& run) {
  std::string why;
  switch (run.kind) {
    case IsolatedResult::Kind::kCrash:
      why = run.signal != 0 ? fmt::format("killed by signal {} ({})", run.signal, strsignal(run.signal))
                            : fmt::format("exited with code {} without an answer", run.exit_code);
      break;
    case IsolatedResult::Kind::kTimeout: why = fmt::format("ran past the bound of {} ms", run.wall_ms); break;
    case IsolatedResult::Kind::kMemory: why = fmt::format("grew past the memory bound ({} MiB)", run.peak_rss_mb); break;
    case IsolatedResult::Kind::kDone: why = "done"; break;
    case IsolatedResult::Kind::kStopped: why = "stopped: the campaign was asked to stop"; break;
  }
  if (!run.stderr_text.empty()) why += "\nstderr:\n" + run.stderr_text;
  return why;
}

// Runs `input` on `target` isolated, then (scenario, when asked) through
// the CLI. Updates `stats`; a finding when something broke.
std::optional<Finding> Evaluate(FuzzTarget target, const std::string& input, bool cli_check,
                                const FuzzOptions& options, TargetStats& stats, uint64_t& cli_checks,
                                int64_t& wall_ms) {
  const std::string stderr_path = Scratch(options, "stderr.txt");
  const IsolatedResult run = RunIsolated(
      [&]() -> TargetResult {
        if (options.plant == "crash") std::abort();
        volatile bool hang = options.plant == "hang";  // volatile: a loop the compiler must keep
        while (hang) {
        }
        return RunTarget(target, input);
      },
      options.limits, stderr_path);
  if (run.kind == IsolatedResult::Kind::kStopped) {
    DURASIM_CHECK(StopRequested(options));  // only a stop request kills a child so
    return std::nullopt;  // a signal cut it: no outcome
  }
  wall_ms = run.wall_ms;
  stats.peak_rss_mb = std::max(stats.peak_rss_mb, run.peak_rss_mb);
  ++stats.executions;
  if (run.kind != IsolatedResult::Kind::kDone) {
    ++stats.outcomes[IsolatedKindName(run.kind)];
    return Finding{IsolatedKindName(run.kind), Describe(run)};
  }
  // RunIsolated makes a body that ended without an answer a crash.
  DURASIM_CHECK(!run.result.outcome.empty());
  ++stats.outcomes[run.result.outcome];
  if (!run.result.problem.empty()) return Finding{"property", run.result.problem};
  // A sanitizer that recovered (a build without -fno-sanitize-recover)
  // leaves its report on stderr only.
  if (run.stderr_text.find("runtime error:") != std::string::npos ||
      run.stderr_text.find("Sanitizer") != std::string::npos) {
    return Finding{"sanitizer", Describe(run)};
  }
  if (!cli_check || target != FuzzTarget::kScenario || options.durasim.empty()) return std::nullopt;
  ++cli_checks;
  const std::string file = Scratch(options, "cli-input.yaml");
  if (!WriteWhole(file, input)) return Finding{"harness", "cannot write " + file};
  const std::string cli_stderr = Scratch(options, "cli-stderr.txt");
  const IsolatedResult cli = RunProgram({options.durasim, "run", file}, options.limits, cli_stderr);
  if (cli.kind == IsolatedResult::Kind::kStopped) return std::nullopt;
  if (cli.kind != IsolatedResult::Kind::kDone) {
    return Finding{std::string("cli-") + IsolatedKindName(cli.kind), "durasim run: " + Describe(cli)};
  }
  if (!DocumentedRunExit(cli.exit_code)) {
    return Finding{"exit-code", fmt::format("durasim run exited {}, not a documented code of run (0, 1, 2, 7)\n{}",
                                            cli.exit_code, Describe(cli))};
  }
  const int expected = ExpectedRunExit(run.result.outcome);
  if (cli.exit_code != expected) {
    return Finding{"exit-code", fmt::format("durasim run exited {} where the in-process outcome \"{}\" means {}\n{}",
                                            cli.exit_code, run.result.outcome, expected, Describe(cli))};
  }
  if (cli.exit_code == kExitUsage) {
    const std::string first_line = cli.stderr_head.substr(0, cli.stderr_head.find('\n'));
    if (std::optional<std::string> problem = LocatedErrorProblem(first_line, file, input)) {
      return Finding{"exit-code", "durasim run's error: " + *problem + ": " + first_line.substr(0, 400)};
    }
  }
  return std::nullopt;
}

// Writes the finding and prints it with its input and how to replay it.
std::string Report(const Finding& finding, FuzzTarget target, const std::string& name, const std::string& input,
                   const std::string& replay, const std::string& mutations, const FuzzOptions& options,
                   std::ostream& out) {
  std::error_code ignored;
  fs::create_directories(options.findings_dir, ignored);
  const std::string base = options.findings_dir + "/" + name + "-" + finding.kind;
  const std::string input_path = base + FuzzTargetExtension(target);
  const bool written = WriteWhole(input_path, input);
  const std::string about = fmt::format(
      "target: {}\nkind: {}\nmutations: {}\nfingerprint: {:016x}\nreplay: {}\nreplay the file: durasim_fuzz --target {} "
      "--replay {}\n\n{}\n",
      FuzzTargetName(target), finding.kind, mutations.empty() ? "(none: a corpus file)" : mutations,
      InputFingerprint(input), replay, FuzzTargetName(target), input_path, finding.detail);
  WriteWhole(base + ".about.txt", about);
  out << "\nFINDING " << finding.kind << " (" << FuzzTargetName(target) << ", " << name << ")\n"
      << Printable(finding.detail, 8192) << "\n"
      << "reproducer: " << (written ? input_path : "(could not be written: " + input_path + ")") << "\n"
      << "replay: " << replay << "\n"
      << "replay the file: durasim_fuzz --target " << FuzzTargetName(target) << " --replay " << input_path << "\n"
      << "mutations: " << (mutations.empty() ? "(none: a corpus file)" : mutations) << "\n"
      << "input (" << input.size() << " bytes):\n"
      << "-----8<-----\n"
      << Printable(input, 4096) << "\n-----8<-----\n"
      << std::flush;
  return input_path;
}

std::string JoinMutations(const std::vector<Mutation>& applied) {
  std::string out;
  for (Mutation mutation : applied) out += (out.empty() ? "" : ",") + std::string(MutationName(mutation));
  return out;
}

}  // namespace

uint64_t InputFingerprint(const std::string& input) { return HashString(input); }

std::vector<std::pair<std::string, std::string>> LoadCorpus(const std::vector<std::string>& dirs,
                                                            const std::string& extension) {
  std::vector<std::string> paths;
  for (const std::string& dir : dirs) {
    std::error_code error;
    if (fs::is_regular_file(dir, error)) {
      paths.push_back(dir);
      continue;
    }
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      if (it->is_regular_file() && it->path().string().ends_with(extension)) paths.push_back(it->path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  std::vector<std::pair<std::string, std::string>> corpus;
  for (const std::string& path : paths) corpus.emplace_back(path, ReadWhole(path));
  return corpus;
}

std::map<FuzzTarget, std::set<uint64_t>> LoadKnownLimits(const std::string& path) {
  std::map<FuzzTarget, std::set<uint64_t>> known;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string target_name;
    std::string hash;
    words >> target_name >> hash;
    const std::optional<FuzzTarget> target = ParseFuzzTarget(target_name);
    if (!target || hash.size() != 16) continue;
    known[*target].insert(std::stoull(hash, nullptr, 16));
  }
  return known;
}

namespace {

// Each target's seed inputs: the corpus files (path, text), and their texts
// alone for the mutator. Every target of the campaign has an entry in both.
struct Corpora {
  std::map<FuzzTarget, std::vector<std::pair<std::string, std::string>>> files;
  std::map<FuzzTarget, std::vector<std::string>> texts;
};

Corpora LoadCorpora(const FuzzOptions& options, FuzzSummary& summary, std::ostream& out) {
  Corpora corpora;
  for (FuzzTarget target : options.targets) {
    const auto dirs = options.corpus_dirs.find(target);
    corpora.files[target] = LoadCorpus(dirs == options.corpus_dirs.end() ? std::vector<std::string>{} : dirs->second,
                                       FuzzTargetExtension(target));
    std::vector<std::string>& texts = corpora.texts[target];
    for (const auto& [path, text] : corpora.files[target]) texts.push_back(text);
    out << fmt::format("fuzz: target {}: {} seed input(s)\n", FuzzTargetName(target), corpora.files[target].size());
    summary.stats[target];
  }
  return corpora;
}

// The campaign's --target flag, for replay lines: "scenario,state,marker".
std::string TargetFlag(const FuzzOptions& options) {
  std::string names;
  for (FuzzTarget target : options.targets) names += (names.empty() ? "" : ",") + std::string(FuzzTargetName(target));
  return names;
}

// Counts `finding`, when there is one, and reports it. Not once a signal
// came: a terminal's SIGINT reaches the children too (one process group),
// and what a signalled child did is no finding.
void Note(const std::optional<Finding>& finding, FuzzTarget target, const std::string& name, const std::string& input,
          const std::string& replay, const std::string& mutations, const FuzzOptions& options, FuzzSummary& summary,
          std::ostream& out) {
  if (!finding || StopRequested(options)) return;
  ++summary.findings;
  ++summary.stats[target].findings;
  summary.finding_files.push_back(Report(*finding, target, name, input, replay, mutations, options, out));
}

// The corpus inputs, unmutated, before the iterations.
void CheckSeeds(const Corpora& corpora, const FuzzOptions& options, FuzzSummary& summary, std::ostream& out) {
  for (FuzzTarget target : options.targets) {
    for (const auto& [path, text] : corpora.files.at(target)) {
      if (summary.findings >= options.max_findings || StopRequested(options)) break;
      int64_t wall_ms = 0;
      Note(Evaluate(target, text, false, options, summary.stats[target], summary.cli_checks, wall_ms), target,
           "corpus-" + fs::path(path).stem().string(), text,
           fmt::format("durasim_fuzz --target {} --replay {}", FuzzTargetName(target), path), "", options, summary,
           out);
      ++summary.seeds_run;
    }
  }
}

// Iteration `i`: a mutant of one of its target's seed inputs, evaluated
// unless it is a known limit. False when nothing was evaluated (no seed
// input, or a known limit).
bool RunIteration(uint64_t i, const Corpora& corpora, const std::map<FuzzTarget, std::set<uint64_t>>& known,
                  const std::string& target_flag, const FuzzOptions& options, FuzzSummary& summary,
                  std::ostream& out) {
  DURASIM_CHECK(!options.targets.empty());  // fuzz_main refuses a campaign without one
  const FuzzTarget target = options.targets[i % options.targets.size()];
  const auto texts = corpora.texts.find(target);
  DURASIM_CHECK(texts != corpora.texts.end());  // LoadCorpora gives every target its entry
  const std::vector<std::string>& seeds = texts->second;
  ++summary.iterations_run;
  if (seeds.empty()) return false;
  Prng prng(HashCombine(HashCombine(0x66757a7a, options.seed), i));
  const std::string& seed_input = seeds[prng.Below(seeds.size())];
  std::vector<Mutation> applied;
  const std::string mutant = Mutate(seed_input, seeds, prng, options.mutator, applied);
  TargetStats& stats = summary.stats[target];
  const auto known_target = known.find(target);
  if (known_target != known.end() && known_target->second.count(InputFingerprint(mutant)) > 0) {
    ++stats.skipped_known;
    if (options.verbose) out << fmt::format("fuzz: iteration {} is a known-limits input, skipped\n", i);
    return false;
  }
  const bool cli_check = options.cli_every > 0 && (i / options.targets.size()) % options.cli_every == 0;
  int64_t wall_ms = 0;
  Note(Evaluate(target, mutant, cli_check, options, stats, summary.cli_checks, wall_ms), target,
       fmt::format("{}-seed{}-iter{}", FuzzTargetName(target), options.seed, i), mutant,
       fmt::format("durasim_fuzz --target {} --seed {} --first {} --iterations 1 --no-seeds", target_flag,
                   options.seed, i),
       JoinMutations(applied), options, summary, out);
  if (wall_ms > stats.slowest_ms) {
    stats.slowest_ms = wall_ms;
    stats.slowest_iteration = i;
  }
  if (options.verbose) {
    out << fmt::format("fuzz: iteration {} {} [{}] {} ms\n", i, FuzzTargetName(target), JoinMutations(applied),
                       wall_ms);
  }
  return true;
}

}  // namespace

FuzzSummary RunCampaign(const FuzzOptions& options, std::ostream& out) {
  FuzzSummary summary;
  const auto start = std::chrono::steady_clock::now();
  std::error_code ignored;
  fs::create_directories(WorkDir(options), ignored);
  const std::map<FuzzTarget, std::set<uint64_t>> known =
      options.known_limits.empty() ? std::map<FuzzTarget, std::set<uint64_t>>{} : LoadKnownLimits(options.known_limits);
  const Corpora corpora = LoadCorpora(options, summary, out);
  auto over_budget = [&] {
    return options.budget_s > 0 && WallSecondsSince(start) > options.budget_s;
  };
  const std::string target_flag = TargetFlag(options);
  if (options.check_seeds) CheckSeeds(corpora, options, summary, out);

  for (uint64_t i = options.first; i < options.first + options.iterations; ++i) {
    if (summary.findings >= options.max_findings) {
      summary.stopped_by_findings = true;
      break;
    }
    if (over_budget()) {
      summary.stopped_by_budget = true;
      break;
    }
    if (StopRequested(options)) break;
    if (!RunIteration(i, corpora, known, target_flag, options, summary, out)) continue;
    if (options.progress_every > 0 && summary.iterations_run % options.progress_every == 0) {
      const double elapsed = WallSecondsSince(start);
      out << fmt::format("fuzz: {} iterations, {} finding(s), {:.0f} s, {:.1f} iterations/s\n",
                         summary.iterations_run, summary.findings, elapsed,
                         static_cast<double>(summary.iterations_run) / std::max(elapsed, 1e-9))
          << std::flush;
    }
  }
  DURASIM_CHECK_LE(summary.iterations_run, options.iterations);
  DURASIM_CHECK_EQ(summary.finding_files.size(), summary.findings);  // one reproducer per finding
  summary.wall_s = WallSecondsSince(start);
  summary.stopped_by_signal = StopRequested(options);
  for (const char* name : {"stderr.txt", "cli-input.yaml", "cli-stderr.txt"}) fs::remove(Scratch(options, name), ignored);
  return summary;
}

bool ReplayFile(FuzzTarget target, const std::string& path, const FuzzOptions& options, std::ostream& out) {
  std::error_code ignored;
  fs::create_directories(WorkDir(options), ignored);
  if (!fs::is_regular_file(path, ignored)) {
    out << "fuzz: cannot read " << path << "\n";
    return true;
  }
  const std::string input = ReadWhole(path);
  TargetStats stats;
  uint64_t cli_checks = 0;
  int64_t wall_ms = 0;
  const std::optional<Finding> finding =
      Evaluate(target, input, !options.durasim.empty(), options, stats, cli_checks, wall_ms);
  DURASIM_CHECK_EQ(stats.executions, uint64_t{1});
  const std::string outcome = stats.outcomes.empty() ? "?" : stats.outcomes.begin()->first;
  if (!finding) {
    out << fmt::format("fuzz: {} on {}: {} in {} ms, nothing found\n", path, FuzzTargetName(target), outcome, wall_ms);
    if (target == FuzzTarget::kScenario && outcome == "parse-error") {
      // It did not crash isolated, so it is safe to parse here for the message.
      const Result<Scenario> parsed = ParseScenario(input, kFuzzScenarioPath);
      if (!parsed.ok()) out << Printable(parsed.status().message(), 1000) << "\n";
    }
    return false;
  }
  out << fmt::format("fuzz: {} on {}: {} in {} ms\nFINDING {}\n{}\n", path, FuzzTargetName(target), outcome, wall_ms,
                     finding->kind, Printable(finding->detail, 8192));
  return true;
}

std::string RenderSummary(const FuzzSummary& summary, const FuzzOptions& options) {
  std::string out = fmt::format(
      "fuzz: seed {}, iterations {}..{}: {} run{}, {} corpus input(s), {} CLI check(s), {:.1f} s wall\n",
      options.seed, options.first, options.first + options.iterations - 1, summary.iterations_run,
      summary.stopped_by_signal     ? std::string(" (stopped by a signal)")
      : summary.stopped_by_budget   ? fmt::format(" (stopped by the {} s budget)", options.budget_s)
      : summary.stopped_by_findings ? std::string(" (stopped after the findings limit)")
                                    : std::string(),
      summary.seeds_run, summary.cli_checks, summary.wall_s);
  for (const auto& [target, stats] : summary.stats) {
    out += fmt::format("  {:<8} {:>7} executions, {:.0f}/s, {} finding(s), {} known-limits skip(s), slowest {} ms "
                       "(iteration {}), peak {} MiB\n",
                       FuzzTargetName(target), stats.executions,
                       summary.wall_s > 0 ? static_cast<double>(stats.executions) / summary.wall_s : 0.0,
                       stats.findings, stats.skipped_known, stats.slowest_ms, stats.slowest_iteration,
                       stats.peak_rss_mb);
    uint64_t outcomes = 0;
    for (const auto& [outcome, count] : stats.outcomes) {
      out += fmt::format("           {:>7}  {}\n", count, outcome);
      outcomes += count;
    }
    DURASIM_CHECK_EQ(outcomes, stats.executions);  // Evaluate counts one outcome per execution
  }
  out += fmt::format("fuzz: {} finding(s){}\n", summary.findings,
                     summary.findings > 0 ? " (reproducers in " + options.findings_dir + ")" : "");
  return out;
}

}  // namespace durasim
