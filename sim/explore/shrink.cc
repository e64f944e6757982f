// Shrink implementation: greedy passes, each trying one simplification at a
// time and keeping it when the failure persists, until a whole round keeps
// nothing or the budget runs out.
#include "sim/explore/shrink.h"

#include <functional>
#include <vector>

#include "sim/interrupt.h"
#include "sim/scenario/scenario_writer.h"
#include "sim/scenario/scenario_parser.h"
#include "store/check.h"

namespace durasim {
namespace {

using Clock = std::chrono::steady_clock;
using Edit = std::function<bool(Scenario&)>;  // false: not applicable

class Shrinker {
 public:
  Shrinker(const RunOptions& options, ExpectedVerdict failure, std::chrono::milliseconds budget)
      : options_(options), failure_(failure), deadline_(Clock::now() + budget) {}

  ShrinkResult Run(Scenario scenario) {
    result_.scenario = std::move(scenario);
    bool progress = true;
    while (progress && !OutOfTime()) {
      progress = false;
      progress |= DropAttempts();
      progress |= DropInputs();
      progress |= DropAttemptSteps();
      progress |= DropActionsAndSteps();
      progress |= DropSuppliers();
      progress |= Simplify();
    }
    result_.budget_exhausted = OutOfTime();
    DURASIM_CHECK_LE(result_.candidates_kept, result_.candidates_tried);
    return std::move(result_);
  }

 private:
  // An interrupt ends the shrink like its budget: what it has still fails.
  // So does an infrastructure failure: no candidate can be judged on a
  // broker that is gone, and each would cost a connect timeout.
  bool OutOfTime() const { return Clock::now() >= deadline_ || Interrupted() || !result_.infra.empty(); }

  // Applies `edit` to a copy; keeps it when it is valid and still fails.
  bool Try(const Edit& edit) {
    if (OutOfTime()) return false;
    Scenario candidate = result_.scenario;
    if (!edit(candidate)) return false;
    Result<Scenario> parsed = ParseScenario(WriteScenarioYaml(candidate, {}), candidate.path);
    if (!parsed.ok()) return false;
    ++result_.candidates_tried;
    const RunReport report = RunScenario(*parsed, options_);
    if (report.verdict == Verdict::kInfra) {
      // A candidate a signal abandoned (model/abandon.h) is no broker's failure.
      if (!Interrupted()) result_.infra = report.error;
      return false;
    }
    if (!Shows(report, failure_)) return false;
    // Every edit removes or simplifies: a kept candidate never grows, so the
    // rounds end.
    DURASIM_CHECK_LE(parsed->attempts.size(), result_.scenario.attempts.size());
    DURASIM_CHECK_LE(parsed->inputs.size(), result_.scenario.inputs.size());
    ++result_.candidates_kept;
    parsed->path = result_.scenario.path;
    result_.scenario = std::move(parsed).value();
    return true;
  }

  bool DropAttempts() {
    bool progress = false;
    for (size_t i = result_.scenario.attempts.size(); i-- > 0;) {
      progress |= Try([i](Scenario& s) {
        if (s.attempts.size() <= 1 || i >= s.attempts.size()) return false;
        s.attempts.erase(s.attempts.begin() + static_cast<std::ptrdiff_t>(i));
        s.attempts.front().restore.reset();  // the first attempt starts fresh
        s.attempts.front().markers.reset();
        return true;
      });
    }
    return progress;
  }

  // Chunks first (halves, quarters, ...), then single inputs.
  bool DropInputs() {
    bool progress = false;
    for (size_t chunk = result_.scenario.inputs.size() / 2; chunk >= 1; chunk /= 2) {
      for (size_t start = 0; start < result_.scenario.inputs.size();) {
        const bool kept = Try([start, chunk](Scenario& s) {
          if (start >= s.inputs.size()) return false;
          const size_t end = std::min(s.inputs.size(), start + chunk);
          DURASIM_CHECK_LT(start, end);  // chunk >= 1: each candidate drops an input at least
          s.inputs.erase(s.inputs.begin() + static_cast<std::ptrdiff_t>(start),
                         s.inputs.begin() + static_cast<std::ptrdiff_t>(end));
          return true;
        });
        progress |= kept;
        if (!kept) start += chunk;
      }
      if (chunk == 1) break;
    }
    return progress;
  }

  // Each step of each attempt, each step during its rebuild, and its
  // tombstone setting (back to the one in effect before it).
  bool DropAttemptSteps() {
    bool progress = false;
    for (size_t a = 0; a < result_.scenario.attempts.size(); ++a) {
      for (std::vector<AttemptStep> AttemptSpec::*list : {&AttemptSpec::steps, &AttemptSpec::during_rebuild}) {
        for (size_t i = (result_.scenario.attempts[a].*list).size(); i-- > 0;) {
          progress |= Try([a, i, list](Scenario& s) {
            if (a >= s.attempts.size() || i >= (s.attempts[a].*list).size()) return false;
            auto& steps = s.attempts[a].*list;
            steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(i));
            return true;
          });
        }
      }
      progress |= Try([a](Scenario& s) {
        if (a >= s.attempts.size() || !s.attempts[a].tombstones.has_value()) return false;
        s.attempts[a].tombstones.reset();
        return true;
      });
    }
    return progress;
  }

  bool DropActionsAndSteps() {
    bool progress = false;
    for (size_t a = result_.scenario.actions.size(); a-- > 0;) {
      progress |= Try([a](Scenario& s) {
        if (s.actions.size() <= 1 || a >= s.actions.size()) return false;
        s.actions.erase(s.actions.begin() + static_cast<std::ptrdiff_t>(a));
        return true;
      });
    }
    for (size_t a = 0; a < result_.scenario.actions.size(); ++a) {
      for (size_t i = result_.scenario.actions[a].steps.size(); i-- > 0;) {
        progress |= Try([a, i](Scenario& s) {
          if (a >= s.actions.size() || i >= s.actions[a].steps.size() || s.actions[a].steps.size() <= 1) return false;
          auto& steps = s.actions[a].steps;
          steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(i));
          return true;
        });
      }
    }
    return progress;
  }

  bool DropSuppliers() {
    bool progress = false;
    for (size_t i = result_.scenario.suppliers.size(); i-- > 0;) {
      progress |= Try([i](Scenario& s) {
        if (s.suppliers.size() <= 1 || i >= s.suppliers.size()) return false;
        s.suppliers.erase(s.suppliers.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
      });
    }
    return progress;
  }

  // Smaller numbers, one kind at a time.
  bool Simplify() {
    bool progress = false;
    progress |= Try([](Scenario& s) {
      if (s.log.partitions == 1) return false;
      s.log.partitions = 1;
      return true;
    });
    for (size_t i = 0; i < result_.scenario.inputs.size(); ++i) {
      progress |= Try([i](Scenario& s) {
        if (i >= s.inputs.size() || (s.inputs[i].key == "a" && s.inputs[i].value == 1)) return false;
        s.inputs[i].key.assign(1, 'a');  // not = "a": GCC 12 -O2 reports a false -Wrestrict
        s.inputs[i].value = 1;
        return true;
      });
    }
    for (size_t a = 0; a < result_.scenario.attempts.size(); ++a) {
      for (size_t i = 0; i < result_.scenario.attempts[a].steps.size(); ++i) {
        progress |= Try([a, i](Scenario& s) {
          if (a >= s.attempts.size() || i >= s.attempts[a].steps.size()) return false;
          AttemptStep& step = s.attempts[a].steps[i];
          if (step.kind == AttemptStep::Kind::kArm && step.nth > 1) {
            step.nth -= 1;
            return true;
          }
          if ((step.kind == AttemptStep::Kind::kRunFor || step.kind == AttemptStep::Kind::kBrokerDown) &&
              step.duration_ms > 1) {
            step.duration_ms /= 2;
            return true;
          }
          return false;
        });
      }
    }
    for (size_t i = 0; i < result_.scenario.suppliers.size(); ++i) {
      progress |= Try([i](Scenario& s) {
        if (i >= s.suppliers.size() || s.suppliers[i].latency_ms <= 1) return false;
        s.suppliers[i].latency_ms = 1;
        return true;
      });
    }
    return progress;
  }

  const RunOptions& options_;
  ExpectedVerdict failure_;
  Clock::time_point deadline_;
  ShrinkResult result_;
};

}  // namespace

ShrinkResult Shrink(const Scenario& failing, const RunOptions& options, ExpectedVerdict failure,
                    std::chrono::milliseconds budget) {
  return Shrinker(options, failure, budget).Run(failing);
}

}  // namespace durasim
