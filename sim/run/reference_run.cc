// The run without faults.
#include "sim/run/reference_run.h"

#include <boost/pfr/core.hpp>

#include <algorithm>
#include <optional>
#include <vector>

#include "model/attempt.h"
#include "model/same_content.h"
#include "model/scenario_cost.h"
#include "model/world.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

class OutputCollector : public RunObserver {
 public:
  void OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t) override {
    outputs.emplace(std::make_pair(input_offset, index), value);
  }
  OutputMap outputs;
};

// `scenario` without the parts the run without faults replaces: its
// attempts, and under a plan its suppliers and actions (a scenario's
// attempts, with their plans, are most of what a copy of it copies). Field
// by field through Boost.PFR, so that a part a scenario gains is copied
// without being listed here.
Scenario ReferenceBase(const Scenario& scenario, bool plan) {
  const auto replaced = [&](const void* field) {
    return field == &scenario.attempts || (plan && (field == &scenario.suppliers || field == &scenario.actions));
  };
  Scenario base;
  boost::pfr::for_each_field(base, [&](auto& field, auto index) {
    const auto& from = boost::pfr::get<decltype(index)::value>(scenario);
    if (!replaced(&from)) field = from;
  });
  // Nothing of the scenario's own is left where the run puts its own parts.
  DURASIM_CHECK(base.attempts.empty() && (!plan || (base.suppliers.empty() && base.actions.empty())));
  return base;
}

}  // namespace

Result<Reference> ReferenceOf(const Scenario& scenario, const PlanSpec* plan, SimDuration attempt_time_bound,
                              const AttemptParts& parts) {
  Scenario reference = ReferenceBase(scenario, plan != nullptr);
  if (plan != nullptr) {
    reference.suppliers = plan->suppliers;
    reference.actions = plan->actions;
  }
  AttemptSpec attempt;
  AttemptStep read_all;
  read_all.kind = AttemptStep::Kind::kRead;
  read_all.count = -1;
  attempt.steps.push_back(read_all);
  reference.attempts = {attempt};
  World world(reference, Trace::Text::kNone);  // only its outputs are read
  OutputCollector collector;
  world.AddObserver(&collector);
  Attempt run(world, reference.attempts[0], 1, parts);
  run.RunWithoutFaults();  // its only observer reads outputs
  const Attempt::End end = run.Run(std::max(attempt_time_bound, AttemptTimeNeeded(reference, 1)));
  DURASIM_CHECK(!run.restored());  // one fresh attempt that only reads
  // A failing supplier is part of the world, not a fault: the run without
  // faults fails over too when an action does not handle it.
  const bool call_failed = end == Attempt::End::kFailed && !run.call_failure().empty();
  if (!call_failed && (end != Attempt::End::kFinished || !run.AllInputsFinished())) {
    return Status(StatusCode::kInternal,
                  fmt::format("the run without faults did not finish (it ended {}){}", AttemptEndName(end),
                              end == Attempt::End::kError   ? ": " + run.error_message()
                              : end == Attempt::End::kStuck ? ": " + run.stuck_reason()
                                                            : std::string()));
  }
  return Reference{collector.outputs, MemoryOf(run.keyed_states()), !call_failed,
                   call_failed ? run.call_failure_key() : std::string()};
}

std::string AnswerDifference(const Reference& a, const Reference& b) {
  if (a.finished != b.finished) {
    return fmt::format("{} fails over on a durable call failure, the other finishes every input",
                       a.finished ? "this plan" : "the scenario's plan");
  }
  for (const auto& [id, value] : a.outputs) {
    auto other = b.outputs.find(id);
    if (other == b.outputs.end()) {
      if (!a.finished) continue;  // past the failure that stopped the other
      return fmt::format("output {} of input {} is {} under the scenario's plan, missing under this one", id.second,
                         id.first, value);
    }
    if (other->second != value) {
      return fmt::format("output {} of input {} is {} under the scenario's plan, {} under this one", id.second,
                         id.first, value, other->second);
    }
  }
  if (!a.finished) return "";
  for (const auto& [id, value] : b.outputs) {
    if (a.outputs.count(id) == 0) {
      return fmt::format("output {} of input {} is missing under the scenario's plan, {} under this one", id.second,
                         id.first, value);
    }
  }
  if (a.memory != b.memory) return "the final memory differs";
  return "";
}

Result<Reference> ReferenceOutputs(const Scenario& scenario, SimDuration attempt_time_bound,
                                   const AttemptParts& parts) {
  Result<Reference> reference = ReferenceOf(scenario, nullptr, attempt_time_bound, parts);
  if (!reference.ok()) return reference;
  // A plan's answer is a function of its suppliers and actions: a plan that
  // says what the scenario's, or an earlier deployed one, says answers as
  // that one did, which agreed (else this returned). Two in five of the plans
  // the generator deploys are such redeployments (docs/benchmarks.md).
  // Whole plans are compared, so that a part a plan may gain is compared too;
  // the scenario's own is built here as ReferenceOf builds a plan's run.
  static_assert(boost::pfr::tuple_size_v<PlanSpec> == 3,
                "a plan has a new part: take it from the scenario here and in ReferenceOf");
  std::optional<PlanSpec> own;  // the scenario's plan, made at the first deployed one
  std::vector<const PlanSpec*> compared;
  const auto answered_already = [&](const PlanSpec& plan) {
    if (!own.has_value()) own = PlanSpec{scenario.suppliers, scenario.actions, {}};
    return SameContent(plan, *own) || std::any_of(compared.begin(), compared.end(), [&](const PlanSpec* other) {
             return SameContent(plan, *other);
           });
  };
  for (size_t i = 0; i < scenario.attempts.size(); ++i) {
    const std::optional<PlanSpec>& plan = scenario.attempts[i].plan;
    if (!plan.has_value() || answered_already(*plan)) continue;
    Result<Reference> other = ReferenceOf(scenario, &*plan, attempt_time_bound, parts);
    if (!other.ok()) {
      return Status(other.status().code(),
                    fmt::format("under the plan of attempt {}: {}", i + 1, other.status().message()));
    }
    if (const std::string difference = AnswerDifference(*reference, *other); !difference.empty()) {
      return Status(StatusCode::kInvalidArgument,
                    fmt::format("{}:{}:{}: the plan of attempt {} answers differently from the scenario's plan without "
                                "faults ({}); a plan change must keep the answer (docs/scenarios.md, \"Plans\")",
                                scenario.path, plan->pos.line, plan->pos.column, i + 1, difference));
    }
    compared.push_back(&*plan);
  }
  return reference;
}

}  // namespace durasim
