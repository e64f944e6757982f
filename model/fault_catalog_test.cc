// Tests of the fault catalog (model/fault_catalog.h): every entry of every
// family is whole, its coverage point is one a sweep can require, and
// docs/scenarios.md has its row.
#include "model/fault_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "store/source_tree.h"

namespace durasim {
namespace {

struct Named {
  std::string family;
  FaultEntry entry;
};

// Every fault entry of the catalog: armed kinds, the fault steps, the
// schedule draws.
std::vector<Named> AllFaultEntries() {
  std::vector<Named> all;
  for (FaultKind kind : AllOf<FaultKind>()) all.push_back({"armed", *FaultEntryOf(kind)});
  for (int value = 0; StepEntryOf(static_cast<AttemptStep::Kind>(value)); ++value) {
    const StepEntry step = *StepEntryOf(static_cast<AttemptStep::Kind>(value));
    if (step.fault) all.push_back({"step", *step.fault});
  }
  for (ScheduleDraw draw : AllOf<ScheduleDraw>()) all.push_back({"schedule", *FaultEntryOf(draw)});
  return all;
}

std::string ScenariosDoc() {
  std::ifstream in(SourceTree() + "/docs/scenarios.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Invariant: an entry has a name and a description; a kind explore does not
// draw, or that a run does not count, says why; a coverage point is one
// `--require-coverage` requires, so a sweep that never fires it fails.
TEST(FaultCatalogTest, EveryEntryIsWhole) {
  const std::vector<std::string> required = RequiredCoverage();
  std::set<std::string> names;
  for (const Named& named : AllFaultEntries()) {
    const FaultEntry& entry = named.entry;
    SCOPED_TRACE(named.family + " " + entry.name);
    EXPECT_NE(std::string(entry.name), "");
    EXPECT_NE(std::string(entry.description), "");
    EXPECT_TRUE(names.insert(entry.name).second) << "a name used twice";
    if (entry.draw == GeneratorDraw::kNotDrawn || !entry.coverage) {
      EXPECT_NE(std::string(entry.why_not), "");
    }
    if (entry.coverage) {
      EXPECT_NE(std::find(required.begin(), required.end(), entry.coverage->Name()), required.end())
          << entry.coverage->Name() << " is not a required coverage point";
    }
  }
}

// Invariant: an armed kind's name is the one files write (EnumInfoOf is the
// catalog's), it counts itself, and explore arms it.
TEST(FaultCatalogTest, ArmedKindsCountThemselvesAndAreArmedByExplore) {
  for (FaultKind kind : AllOf<FaultKind>()) {
    const FaultEntry entry = *FaultEntryOf(kind);
    EXPECT_STREQ(entry.name, NameOf(kind));
    ASSERT_TRUE(entry.coverage.has_value()) << entry.name;
    EXPECT_EQ(entry.coverage->Name(), CoveragePoint::Fired(kind).Name());
    EXPECT_TRUE(entry.draw == GeneratorDraw::kSwarmArm || entry.draw == GeneratorDraw::kLateArm) << entry.name;
    EXPECT_NE(std::string(entry.parameters), "") << entry.name;
    EXPECT_NE(entry.target, ArmTarget::kNone) << entry.name << " aims at nothing";
  }
  for (const Named& named : AllFaultEntries()) {
    if (named.family != "armed") {
      EXPECT_EQ(named.entry.target, ArmTarget::kNone) << named.entry.name;
    }
  }
}

// Invariant: the job's steps are no faults; every other step is one, named
// by its keyword; the table covers every step kind in declaration order.
TEST(FaultCatalogTest, StepTableCoversEveryKind) {
  int kinds = 0;
  for (int value = 0; StepEntryOf(static_cast<AttemptStep::Kind>(value)); ++value) {
    const StepEntry step = *StepEntryOf(static_cast<AttemptStep::Kind>(value));
    SCOPED_TRACE(step.keyword);
    EXPECT_EQ(step.family == StepFamily::kJob, !step.fault.has_value());
    if (step.fault) {
      EXPECT_STREQ(step.fault->name, step.keyword);
    }
    ++kinds;
  }
  EXPECT_EQ(kinds, static_cast<int>(AttemptStep::Kind::kForeign) + 1);
  EXPECT_EQ(StepEntryOf(AttemptStep::Kind::kDeleteRecords)->family, StepFamily::kLogOperation);
  EXPECT_EQ(StepEntryOf(AttemptStep::Kind::kCrash)->family, StepFamily::kScriptFault);
  EXPECT_EQ(StepEntryOf(AttemptStep::Kind::kArm)->family, StepFamily::kJob);
}

// Invariant: docs/scenarios.md has a table row for every fault entry and
// every step keyword (a row opens with "| `<name>").
TEST(FaultCatalogTest, EveryNameHasItsDocRow) {
  const std::string doc = ScenariosDoc();
  ASSERT_FALSE(doc.empty()) << "docs/scenarios.md not read";
  for (const Named& named : AllFaultEntries()) {
    EXPECT_NE(doc.find(std::string("\n| `") + named.entry.name), std::string::npos)
        << named.family << " " << named.entry.name << " has no row in docs/scenarios.md";
  }
  for (int value = 0; StepEntryOf(static_cast<AttemptStep::Kind>(value)); ++value) {
    const char* keyword = StepEntryOf(static_cast<AttemptStep::Kind>(value))->keyword;
    EXPECT_NE(doc.find(std::string("\n| `") + keyword), std::string::npos) << keyword;
  }
}

}  // namespace
}  // namespace durasim
