// Strategy: the run without faults answers the same over InstantStateStore
// (its store) as over the production store on the simulated log (its store
// before issue 15, part 6): outputs, final memory, and whether a call
// failure fails the job over, under the scenario's plan and every plan an
// attempt deploys, and the same verdict on whether the plans agree, for
// every scenario file of the repository and for the
// scenarios of explore seeds 1..2000 (the default mix's features: subtasks,
// plans, failing suppliers, memory, retries, log lifecycle steps).
#include "sim/run/reference_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "properties/scenario_generator.h"
#include "sim/scenario/scenario_parser.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

constexpr SimDuration kBound = std::chrono::minutes(10);

// What the seeds reached, so that the test shows it met the cases where the
// store could matter.
struct Reached {
  int plans = 0;       // deployed plans whose answer was compared
  int failed_over = 0;  // answers that fail over on a call failure
};

// "" when the two stores give the same answer under every plan of
// `scenario`, and the same verdict on whether its plans agree
// (ReferenceOutputs), else what differs.
std::string AnswersDiffer(const Scenario& scenario, Reached& reached) {
  std::vector<const PlanSpec*> plans = {nullptr};
  for (const AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan.has_value()) plans.push_back(&*attempt.plan);
  }
  reached.plans += static_cast<int>(plans.size()) - 1;
  for (const PlanSpec* plan : plans) {
    const Result<Reference> instant = ReferenceOf(scenario, plan, kBound, ReferenceParts());
    const Result<Reference> logged = ReferenceOf(scenario, plan, kBound, ProductionParts());
    if (instant.ok() != logged.ok()) {
      return "one run did not finish: " + (instant.ok() ? logged : instant).status().message();
    }
    if (!instant.ok()) continue;  // neither finished (the runner reports it)
    reached.failed_over += instant->finished ? 0 : 1;
    // The rule the runner reads two answers by (same-answer's).
    if (const std::string difference = AnswerDifference(*logged, *instant); !difference.empty()) return difference;
  }
  const Result<Reference> instant = ReferenceOutputs(scenario, kBound, ReferenceParts());
  const Result<Reference> logged = ReferenceOutputs(scenario, kBound, ProductionParts());
  if (instant.status().code() != logged.status().code()) {
    return "the plans' check: " + logged.status().ToString() + " over the production store, " +
           instant.status().ToString() + " over the instant one";
  }
  return "";
}

// Strategy: AnswerDifference, the plans' check, on answers built by hand:
// the cases where a failed-over answer is compared less than a finished one.
TEST(ReferenceRunTest, AnswerDifferenceComparesAFailedOverAnswerOnlyWhereBothGotTo) {
  Reference finished{{{{0, 0}, 10}, {{1, 0}, 20}}, {{"a", {{"m", 1}}}}, true};
  Reference fewer = finished;
  fewer.outputs.erase({1, 0});
  EXPECT_EQ(AnswerDifference(finished, fewer),
            "output 0 of input 1 is 20 under the scenario's plan, missing under this one");
  EXPECT_EQ(AnswerDifference(fewer, finished),
            "output 0 of input 1 is missing under the scenario's plan, 20 under this one");
  Reference other_memory = finished;
  other_memory.memory["a"]["m"] = 2;
  EXPECT_EQ(AnswerDifference(finished, other_memory), "the final memory differs");

  // Both failed over: outputs only one of them got to and the memory at the
  // failure are not compared; an output both emitted is.
  Reference failed = finished, failed_sooner = other_memory;
  failed.finished = failed_sooner.finished = false;
  failed_sooner.outputs.erase({1, 0});
  EXPECT_EQ(AnswerDifference(failed, failed_sooner), "");
  EXPECT_EQ(AnswerDifference(failed_sooner, failed), "");
  failed_sooner.outputs[{0, 0}] = 11;
  EXPECT_EQ(AnswerDifference(failed, failed_sooner),
            "output 0 of input 0 is 10 under the scenario's plan, 11 under this one");
  EXPECT_EQ(AnswerDifference(finished, failed),
            "this plan fails over on a durable call failure, the other finishes every input");
}

// Attempt 2 redeploys the scenario's plan, attempt 3 deploys a new one,
// attempt 4 that one again (at another place in the file), attempt 5 a plan
// that differs from attempt 3's only in a supplier's latency. Every plan
// keeps the answer.
constexpr const char* kRedeployments = R"(name: redeployments
suppliers:
  - {name: llm, scale: 10}
actions:
  - name: ask
    on: input
    steps:
      - call: llm
      - output
inputs:
  - {key: a, value: 1}
attempts:
  - steps:
      - read: all
  - plan:
      suppliers:
        - {name: llm, scale: 10}
    steps:
      - read: all
  - plan:
      actions:
        - name: ask
          on: input
          steps:
            - call: {supplier: llm, arg: {from: attempt}}
            - output
    steps:
      - read: all
  - plan:
      actions:
        - name: ask
          on: input
          steps:
            - call: {supplier: llm, arg: {from: attempt}}
            - output
    steps:
      - read: all
  - plan:
      suppliers:
        - {name: llm, scale: 10, latency_ms: 2}
    steps:
      - read: all
)";

// The store factory of the run without faults, counting the runs (one store
// each: one subtask).
AttemptParts CountingRuns(int& runs) {
  AttemptParts counting = ReferenceParts();
  counting.make_store = [&runs, inner = counting.make_store](LogClient& client, const StoreOptions& options) {
    ++runs;
    return inner(client, options);
  };
  return counting;
}

// Strategy: the plans' check runs the scenario without faults once per
// distinct plan: of kRedeployments' five, the scenario's, attempt 3's and
// attempt 5's. A check that took a plan for one already run by its actions
// alone would count two; one that skipped nothing, five.
TEST(ReferenceRunTest, EachDistinctPlanRunsOnce) {
  Result<Scenario> scenario = ParseScenario(kRedeployments, "redeployments.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status().ToString();
  int runs = 0;
  const Result<Reference> reference = ReferenceOutputs(*scenario, kBound, CountingRuns(runs));
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  EXPECT_EQ(runs, 3);
  EXPECT_EQ(reference->outputs.at({0, 0}), 10);
}

// Strategy: a plan that changes the answer after the redeployments is still
// run and still the error, named by its attempt and position. A check that
// took every plan for one already compared would let it pass.
TEST(ReferenceRunTest, APlanThatChangesTheAnswerAfterRedeploymentsIsTheError) {
  Result<Scenario> scenario = ParseScenario(std::string(kRedeployments) + R"(  - plan:
      suppliers:
        - {name: llm, scale: 20}
    steps:
      - read: all
)",
                                            "redeployments.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status().ToString();
  int runs = 0;
  const Result<Reference> reference = ReferenceOutputs(*scenario, kBound, CountingRuns(runs));
  EXPECT_EQ(reference.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(reference.status().message().find("redeployments.yaml:44:7: the plan of attempt 6 answers differently"),
            std::string::npos)
      << reference.status().ToString();
  EXPECT_EQ(runs, 4);
}

TEST(ReferenceRunTest, InstantStoreAnswersAsTheProductionStoreOnEveryScenarioFile) {
  int files = 0;
  Reached reached;
  for (const char* folder : {"fast", "regressions", "negative"}) {
    const std::filesystem::path dir = std::filesystem::path(SourceTree()) / "scenarios" / folder;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".yaml") continue;
      Result<Scenario> scenario = LoadScenarioFile(entry.path().string());
      ASSERT_TRUE(scenario.ok()) << scenario.status().message();
      EXPECT_EQ(AnswersDiffer(*scenario, reached), "") << entry.path();
      ++files;
    }
  }
  EXPECT_GE(files, 80);  // the repository's files were found
  EXPECT_GT(reached.plans, 0);
  EXPECT_GT(reached.failed_over, 0);
}

TEST(ReferenceRunTest, InstantStoreAnswersAsTheProductionStoreOnGeneratedScenarios) {
  Reached reached;
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    EXPECT_EQ(AnswersDiffer(GenerateFromSeed(seed).scenario, reached), "") << "explore seed " << seed;
  }
  EXPECT_GT(reached.plans, 0);
  EXPECT_GT(reached.failed_over, 0);
}

}  // namespace
}  // namespace durasim
