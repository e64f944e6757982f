// The fault catalog's draws, held to what the generator does
// (model/fault_catalog.h, properties/scenario_generator.cc).
#include <gtest/gtest.h>

#include <set>

#include "model/fault_catalog.h"
#include "properties/scenario_generator.h"

namespace durasim {
namespace {

// What explore's first seeds put into their scenarios.
struct Drawn {
  std::set<FaultKind> armed;
  std::set<AttemptStep::Kind> steps;
};

Drawn DrawnBySeeds(uint64_t seeds) {
  Drawn drawn;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const Generated generated = GenerateFromSeed(seed);
    for (const AttemptSpec& attempt : generated.scenario.attempts) {
      for (const AttemptStep& step : attempt.steps) {
        drawn.steps.insert(step.kind);
        if (step.kind == AttemptStep::Kind::kArm) drawn.armed.insert(step.fault);
      }
    }
  }
  return drawn;
}

bool DrawnByExplore(GeneratorDraw draw) {
  return draw != GeneratorDraw::kNotDrawn && draw != GeneratorDraw::kPerturbedRun;
}

// Invariant: an entry that says explore draws it is drawn within the first
// 3,000 seeds (the rarest gate opens for about one seed in twelve), and an
// entry that says it is not drawn never is: the catalog does not lie about
// the generator, so a new kind without its draw fails here.
TEST(FaultCatalogDrawTest, ExploreDrawsWhatTheCatalogSays) {
  const Drawn drawn = DrawnBySeeds(3000);
  for (FaultKind kind : AllOf<FaultKind>()) {
    const FaultEntry entry = *FaultEntryOf(kind);
    EXPECT_EQ(drawn.armed.count(kind) == 1, DrawnByExplore(entry.draw)) << entry.name;
  }
  for (int value = 0; StepEntryOf(static_cast<AttemptStep::Kind>(value)); ++value) {
    const auto kind = static_cast<AttemptStep::Kind>(value);
    const StepEntry step = *StepEntryOf(kind);
    if (!step.fault) continue;  // the job's own steps
    EXPECT_EQ(drawn.steps.count(kind) == 1, DrawnByExplore(step.fault->draw)) << step.keyword;
  }
  for (ScheduleDraw draw : AllOf<ScheduleDraw>()) {
    // Explore runs the canonical schedule: a schedule draw is the perturbed
    // runs' (`durasim run --perturb`, model/perturbation_test.cc).
    EXPECT_EQ(FaultEntryOf(draw)->draw, GeneratorDraw::kPerturbedRun) << NameOf(draw);
  }
}

}  // namespace
}  // namespace durasim
