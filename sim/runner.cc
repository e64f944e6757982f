// Runner implementation.
#include "sim/runner.h"

#include <fmt/format.h>

#include <exception>
#include <memory>

#include "model/attempt.h"
#include "model/world.h"
#include "properties/bounded_memory_checker.h"
#include "properties/cancellation_checker.h"
#include "properties/finished_checker.h"
#include "properties/mutants/mutant.h"
#include "properties/once_checker.h"
#include "properties/phantom_save_checker.h"
#include "properties/put_latency_checker.h"
#include "properties/recovery_checker.h"
#include "properties/same_answer_checker.h"
#include "sim/differential.h"
#include "sim/run_context.h"
#include "store/hash.h"

namespace durasim {
namespace {

using OutputMap = std::map<std::pair<int64_t, int64_t>, int64_t>;

constexpr const char* kFinalCheckpoint = "__final__";

class OutputCollector : public RunObserver {
 public:
  void OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t) override {
    outputs.emplace(std::make_pair(input_offset, index), value);
  }
  OutputMap outputs;
};

// The scenario's plan and inputs in one attempt without faults.
Result<OutputMap> ReferenceOutputs(const Scenario& scenario, const RunOptions& options) {
  Scenario reference = scenario;
  AttemptSpec attempt;
  AttemptStep read_all;
  read_all.kind = AttemptStep::Kind::kRead;
  read_all.count = -1;
  attempt.steps.push_back(read_all);
  reference.attempts = {attempt};
  World world(reference);
  OutputCollector collector;
  world.AddObserver(&collector);
  Attempt run(world, reference.attempts[0], 1, ProductionParts());
  const Attempt::End end = run.Run(options.attempt_time_bound);
  if (end != Attempt::End::kFinished || !run.runtime().AllInputsFinished()) {
    return Status(StatusCode::kInternal,
                  fmt::format("the run without faults did not finish (it ended {})", AttemptEndName(end)));
  }
  return collector.outputs;
}

bool VerdictMatches(const Expectation& expect, const RunReport& report) {
  if (expect.verdict == "pass") return report.verdict == "pass";
  if (expect.verdict == "error") return report.verdict == "error";
  if (expect.verdict == "liveness") return report.verdict == "stuck";
  if (report.verdict != "violation") return false;
  for (const Violation& v : report.violations) {
    if (v.invariant == expect.verdict) return true;
  }
  return false;
}

void Judge(const Scenario& scenario, RunReport& report) {
  const Expectation& expect = scenario.expect;
  if (!VerdictMatches(expect, report)) {
    report.mismatches.push_back(fmt::format("expected verdict {}, got {}", expect.verdict, report.verdict));
  }
  if (expect.outputs.has_value() && *expect.outputs != report.outputs) {
    report.mismatches.push_back(
        fmt::format("expected outputs [{}], got [{}]", fmt::join(*expect.outputs, ", "), fmt::join(report.outputs, ", ")));
  }
  if (expect.supplier_calls.has_value() && *expect.supplier_calls != report.supplier_calls) {
    report.mismatches.push_back(
        fmt::format("expected {} supplier calls, got {}", *expect.supplier_calls, report.supplier_calls));
  }
  report.ok = report.mismatches.empty();
}

// One run of the attempts; fills everything but the expectation.
void RunAttempts(const Scenario& scenario, const RunOptions& options, const AttemptParts& parts,
                 const OutputMap& reference, RunReport& report) {
  World world(scenario);
  if (Status started = world.StartBackend(options.backend, options.bootstrap_servers); !started.ok()) {
    report.verdict = "error";
    report.error = fmt::format("backend {}: {}", options.backend, started.ToString());
    return;
  }
  const Trace& trace = world.trace();
  std::vector<std::unique_ptr<InvariantChecker>> checkers;
  checkers.push_back(std::make_unique<OnceChecker>(trace));
  checkers.push_back(std::make_unique<FinishedChecker>(trace));
  auto same_answer = std::make_unique<SameAnswerChecker>(trace);
  SameAnswerChecker* outputs = same_answer.get();
  checkers.push_back(std::move(same_answer));
  checkers.push_back(std::make_unique<PhantomSaveChecker>(trace));
  checkers.push_back(std::make_unique<CancellationChecker>(trace));
  checkers.push_back(std::make_unique<RecoveryChecker>(trace));
  checkers.push_back(std::make_unique<BoundedMemoryChecker>(trace));
  checkers.push_back(std::make_unique<PutLatencyChecker>(trace, world));
  for (auto& checker : checkers) world.AddObserver(checker.get());

  bool all_finished = false;
  bool stuck = false;
  bool error = false;
  for (size_t i = 0; i < scenario.attempts.size(); ++i) {
    const bool last = i + 1 == scenario.attempts.size();
    Attempt attempt(world, scenario.attempts[i], static_cast<int>(i + 1), parts);
    const Attempt::End end = attempt.Run(options.attempt_time_bound);
    world.Record("attempt.ended", AttemptEndName(end));
    if (end == Attempt::End::kStuck) stuck = true;
    if (end == Attempt::End::kError) {
      error = true;
      report.error = fmt::format("attempt {} ended in error: {}", i + 1, attempt.error_message());
      break;
    }
    if (last && end == Attempt::End::kFinished && attempt.runtime().AllInputsFinished()) {
      all_finished = true;
      // Epilogue: a completed checkpoint covering every input, after which
      // nothing may stay live.
      if (!attempt.TakeFinalCheckpoint(kFinalCheckpoint)) {
        error = true;
        report.error = fmt::format("attempt {}: {}", i + 1, attempt.error_message());
        break;
      }
      AgentRuntime& runtime = attempt.runtime();
      const StoreStats stats = attempt.store().Stats();
      const size_t index = world.Record(
          "run.quiescent", fmt::format("cached={} bookkeeping={} checkpoint_maps={}", stats.cached_states,
                                       stats.bookkeeping_entries, runtime.bookkeeping_entries()));
      world.Notify([&](RunObserver& o) { o.OnQuiescent(stats, runtime.bookkeeping_entries(), true, index); });
    }
  }
  RunEnding ending;
  ending.all_inputs_finished = all_finished;
  ending.reference_outputs = reference;
  for (auto& checker : checkers) {
    checker->Finish(ending);
    for (const Violation& v : checker->violations()) report.violations.push_back(v);
  }
  if (stuck) report.violations.push_back(Violation{"liveness", "an attempt made no progress: see attempt.stuck"});
  report.fault_hits = world.fault_hits();
  if (const size_t never = world.checkpoints().never_notified(); never > 0) {
    report.fault_hits["checkpoint_never_notified"] += static_cast<int64_t>(never);
  }
  report.supplier_calls = world.suppliers().total_calls();
  for (const auto& [call, count] : world.suppliers().calls_by_identity()) report.calls_by_identity[call.ToString()] = count;
  Result<std::vector<std::vector<LogRecord>>> records = world.ReadLog();
  if (records.ok()) {
    for (const std::vector<LogRecord>& partition : *records) {
      std::vector<std::string>& out = report.log_records.emplace_back();
      for (const LogRecord& record : partition) out.push_back(fmt::format("{} {:016x}", record.key, HashString(record.value)));
    }
  } else if (!error) {
    error = true;
    report.error = fmt::format("reading the log at the end of the run failed: {}", records.status().ToString());
  }
  for (const auto& [id, value] : outputs->outputs()) report.outputs.push_back(value);
  report.trace_hash = world.trace().hash();
  report.sim_time = world.now();
  report.trace = world.trace().lines();
  if (error) {
    report.verdict = "error";
  } else if (!report.violations.empty() && !(stuck && report.violations.size() == 1)) {
    report.verdict = "violation";
  } else {
    report.verdict = stuck ? "stuck" : "pass";
  }
}

}  // namespace

std::string BackendFlags(const RunOptions& options) {
  if (options.backend == "model") return "";
  std::string flags = " --backend " + options.backend;
  if (options.backend == "kafka") flags += " --bootstrap-servers " + options.bootstrap_servers;
  if (options.compare_model) flags += " --compare-model";
  return flags;
}

namespace {

// Runs `scenario` on the model too; a different observation becomes a
// "differential" violation of `report`. Returns whether there was one.
bool CompareWithModel(const Scenario& scenario, const RunOptions& options, RunReport& report) {
  RunOptions model_options = options;
  model_options.backend = "model";
  model_options.compare_model = false;
  model_options.check_determinism = false;
  return MarkDifference(RunScenario(scenario, model_options), report);
}

}  // namespace

RunReport RunScenario(const Scenario& scenario, const RunOptions& options) {
  // A failed DURASIM_CHECK during this run names it and how to reproduce it.
  const CheckContext check_context = RunCheckContext(scenario, options);

  RunReport report;
  report.scenario = scenario.name;
  report.path = scenario.path;
  report.backend = options.backend;
  report.mutant = options.mutant.value_or(scenario.mutant.value_or(""));
  const Mutant* mutant = nullptr;
  if (!report.mutant.empty()) {
    mutant = FindMutant(report.mutant);
    if (mutant == nullptr) {
      report.verdict = "error";
      report.error = fmt::format("unknown mutant \"{}\"", report.mutant);
      Judge(scenario, report);
      return report;
    }
  }
  const AttemptParts parts = PartsWith(mutant);

  try {
    Result<OutputMap> reference = ReferenceOutputs(scenario, options);
    if (!reference.ok()) {
      report.verdict = "error";
      report.error = reference.status().ToString();
    } else {
      RunAttempts(scenario, options, parts, *reference, report);
      if (options.check_determinism) {
        RunReport again;
        RunAttempts(scenario, options, parts, *reference, again);
        if (again.trace_hash != report.trace_hash) {
          const size_t first = FirstDifferentLine(report.trace, again.trace).value_or(report.trace.size());
          report.violations.push_back(Violation{
              "determinism", fmt::format("the same scenario gave trace hashes {:016x} and {:016x}; first difference "
                                         "at event #{}:\n    {}\n    {}",
                                         report.trace_hash, again.trace_hash, first,
                                         first < report.trace.size() ? report.trace[first] : "<end>",
                                         first < again.trace.size() ? again.trace[first] : "<end>")});
          report.verdict = "violation";
        }
      }
    }
  } catch (const std::exception& error) {
    report.verdict = "error";
    report.error = fmt::format("internal error in scenario {}: {}", scenario.path, error.what());
  }
  const bool differs = options.compare_model && options.backend != "model" && CompareWithModel(scenario, options, report);
  Judge(scenario, report);
  if (differs && scenario.expect.verdict != "differential") {
    report.mismatches.push_back("the " + options.backend + " backend does not tell the model's story");
    report.ok = false;
  }
  return report;
}

}  // namespace durasim
