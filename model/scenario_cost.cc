// The cost estimate of a scenario (scenario_cost.h).
#include "model/scenario_cost.h"

#include "model/scenario_limits.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace durasim {
namespace {

int64_t Add(int64_t a, int64_t b) { return std::min(kCostSaturated, a + b); }
int64_t Mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kCostSaturated / b ? kCostSaturated : std::min(kCostSaturated, a * b);
}

// What the action runs of one event cost, summed.
struct Totals {
  int64_t runs = 0;
  int64_t units = 0;    // puts times the call results each holds
  int64_t time_ms = 0;  // every call and put one after another, at their largest latencies
  int64_t results_max = 0;
};

int64_t LatencyMax(int64_t min, const std::optional<int64_t>& max) { return max.value_or(min); }

class PlanCost {
 public:
  PlanCost(const std::vector<SupplierSpec>& suppliers, const std::vector<ActionSpec>& actions, const LogConfig& log)
      : actions_(actions),
        put_ms_(LatencyMax(log.linger_ms, log.linger_ms_max) + LatencyMax(log.ack_latency_ms, log.ack_latency_ms_max) +
                log.delivery_timeout_ms) {
    for (const SupplierSpec& supplier : suppliers) {
      call_ms_ = std::max(call_ms_, LatencyMax(supplier.latency_ms, supplier.latency_ms_max));
    }
  }

  // The action runs one event of `type` triggers, transitively (the parser
  // refused emit cycles, so the recursion ends; memoised per type).
  Totals Of(const std::string& type) {
    if (auto found = memo_.find(type); found != memo_.end()) return found->second;
    Totals total;
    for (const ActionSpec& action : actions_) {
      if (std::find(action.on.begin(), action.on.end(), type) == action.on.end()) continue;
      int64_t calls = 0;
      for (const ActionStep& step : action.steps) calls += step.kind == ActionStep::Kind::kCall ? 1 : 0;
      const int64_t results = Mul(calls, action.on_error.tries_max());
      const int64_t puts = Add(2, Mul(2, results));
      total.runs = Add(total.runs, 1);
      total.units = Add(total.units, Add(limits::kUnitsPerActionRun, Mul(puts, Add(1, results))));
      total.time_ms = Add(total.time_ms, Add(Mul(results, call_ms_), Mul(puts, put_ms_)));
      total.results_max = std::max(total.results_max, results);
      for (const ActionStep& step : action.steps) {
        if (step.kind != ActionStep::Kind::kEmit) continue;
        const Totals emitted = Of(step.name);
        total.runs = Add(total.runs, emitted.runs);
        total.units = Add(total.units, emitted.units);
        total.time_ms = Add(total.time_ms, emitted.time_ms);
        total.results_max = std::max(total.results_max, emitted.results_max);
      }
    }
    memo_[type] = total;
    return total;
  }

 private:
  const std::vector<ActionSpec>& actions_;
  int64_t put_ms_ = 0;
  int64_t call_ms_ = 0;
  std::map<std::string, Totals> memo_;
};

// The costliest plan's totals for one input.
Totals PerInput(const Scenario& scenario) {
  Totals worst = PlanCost(scenario.suppliers, scenario.actions, scenario.log).Of(kInputEventType);
  for (const AttemptSpec& attempt : scenario.attempts) {
    if (!attempt.plan.has_value()) continue;
    const Totals plan = PlanCost(attempt.plan->suppliers, attempt.plan->actions, scenario.log).Of(kInputEventType);
    worst.runs = std::max(worst.runs, plan.runs);
    worst.units = std::max(worst.units, plan.units);
    worst.time_ms = std::max(worst.time_ms, plan.time_ms);
    worst.results_max = std::max(worst.results_max, plan.results_max);
  }
  return worst;
}

// The script steps that touch more than one record or key: a checkpoint
// (and its completion, abort) every key's state; a restore, a compaction,
// DeleteRecords and retention the whole log, once per subtask.
bool TouchesKeys(AttemptStep::Kind kind) {
  return kind == AttemptStep::Kind::kCheckpoint || kind == AttemptStep::Kind::kComplete ||
         kind == AttemptStep::Kind::kAbort;
}
bool TouchesLog(AttemptStep::Kind kind) {
  return kind == AttemptStep::Kind::kCompact || kind == AttemptStep::Kind::kDeleteRecords ||
         kind == AttemptStep::Kind::kCorrupt || kind == AttemptStep::Kind::kRecreateTopic;
}

}  // namespace

ScenarioCost CostOf(const Scenario& scenario) {
  const Totals per_input = PerInput(scenario);
  const auto inputs = static_cast<int64_t>(scenario.inputs.size());
  int64_t plans = 1;
  for (const AttemptSpec& attempt : scenario.attempts) plans += attempt.plan.has_value() ? 1 : 0;
  // Every attempt may run every input again (a fresh start, or a restore of
  // an early checkpoint), and the reference runs each plan at most once.
  const auto runs = static_cast<int64_t>(scenario.attempts.size()) + plans;
  const int64_t run_units = Mul(inputs, per_input.units);
  const int64_t log_records = Mul(runs, Mul(inputs, Add(per_input.runs, per_input.units / std::max<int64_t>(
                                                                             1, per_input.results_max + 1))));
  ScenarioCost cost;
  cost.action_runs_per_input = per_input.runs;
  cost.call_results_per_action_max = per_input.results_max;
  cost.work_units = Mul(runs, run_units);
  int parallelism = scenario.parallelism;
  // A checkpoint (and a restore) holds a marker per subtask over every
  // partition: 64 subtasks x 1024 partitions x 200 checkpoints measured
  // 1.05 GB before this term (docs/benchmarks.md, "Worst case").
  const int64_t partitions = scenario.PartitionsMax();
  for (size_t a = 0; a < scenario.attempts.size(); ++a) {
    const AttemptSpec& attempt = scenario.attempts[a];
    parallelism = attempt.parallelism.value_or(parallelism);
    int64_t touches = 0;
    if (attempt.restore.has_value()) {
      touches = Add(touches, Add(Mul(parallelism, log_records), Mul(parallelism, partitions)));
    }
    for (const std::vector<AttemptStep>* steps : {&attempt.during_rebuild, &attempt.steps}) {
      for (const AttemptStep& step : *steps) {
        if (TouchesKeys(step.kind)) touches = Add(touches, Mul(parallelism, Add(Add(inputs, 1), partitions)));
        if (TouchesLog(step.kind)) touches = Add(touches, log_records);
      }
    }
    cost.work_units = Add(cost.work_units, touches);
  }
  return cost;
}

SimDuration AttemptTimeNeeded(const Scenario& scenario, int attempt) {
  const AttemptSpec& spec = scenario.attempts[static_cast<size_t>(attempt - 1)];
  int64_t ms = 0;
  for (const AttemptStep& step : spec.steps) {
    if (step.kind == AttemptStep::Kind::kRunFor || step.kind == AttemptStep::Kind::kBrokerDown ||
        step.kind == AttemptStep::Kind::kSlowFetch) {
      ms = Add(ms, step.duration_ms);
    }
  }
  // Every input's runs, one after another, each re-run after every rejected
  // put it may retry (log.put_retries_max).
  const int64_t per_input_ms = Mul(PerInput(scenario).time_ms, Add(1, scenario.log.put_retries_max));
  ms = Add(ms, Mul(static_cast<int64_t>(scenario.inputs.size()), per_input_ms));
  return std::chrono::duration_cast<SimDuration>(std::chrono::milliseconds(std::min(ms, kCostSaturated / 1000)));
}

}  // namespace durasim
