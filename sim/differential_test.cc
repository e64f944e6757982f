// Tests of the differential comparison between backends.
#include "sim/differential.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

RunReport Report() {
  RunReport report;
  report.backend = "mock";
  report.verdict = "pass";
  report.outputs = {70};
  report.calls_by_identity = {{"call-a", 1}};
  report.log_records = {{"k1 00000000000000aa", "k1 00000000000000bb"}};
  return report;
}

// Strategy: identical observations compare equal.
TEST(DifferentialTest, SameObservationsAreEqual) { EXPECT_FALSE(FirstDifference(Report(), Report()).has_value()); }

// Strategy: each kind of observation, changed alone, is reported first and
// named.
TEST(DifferentialTest, EachDifferenceIsNamed) {
  RunReport other = Report();
  other.verdict = "violation";
  EXPECT_NE(FirstDifference(Report(), other)->find("verdict"), std::string::npos);
  other = Report();
  other.outputs = {71};
  EXPECT_NE(FirstDifference(Report(), other)->find("outputs"), std::string::npos);
  other = Report();
  other.calls_by_identity["call-a"] = 2;
  EXPECT_NE(FirstDifference(Report(), other)->find("supplier calls for [call-a]: model 1, mock 2"), std::string::npos);
  other = Report();
  other.calls_by_identity["call-b"] = 1;
  EXPECT_NE(FirstDifference(Report(), other)->find("call-b"), std::string::npos);
  other = Report();
  other.log_records[0].pop_back();
  EXPECT_NE(FirstDifference(Report(), other)->find("partition 0 record 1"), std::string::npos);
  other = Report();
  other.log_records.push_back({});
  EXPECT_NE(FirstDifference(Report(), other)->find("partitions"), std::string::npos);
}

// Strategy: only broker_down and corrupt steps are model-only, with positions.
TEST(DifferentialTest, ModelOnlyStepsAreListed) {
  Scenario scenario;
  AttemptSpec attempt;
  AttemptStep down;
  down.kind = AttemptStep::Kind::kBrokerDown;
  down.pos = {3, 9};
  AttemptStep run;
  run.kind = AttemptStep::Kind::kRun;
  attempt.steps = {run, down};
  scenario.attempts = {attempt};
  EXPECT_EQ(ModelOnlySteps(scenario), "broker_down at 3:9");
  scenario.attempts[0].steps = {run};
  EXPECT_EQ(ModelOnlySteps(scenario), "");
  AttemptStep corrupt;
  corrupt.kind = AttemptStep::Kind::kArm;
  corrupt.fault = FaultKind::kCorruptRecord;
  corrupt.pos = {5, 9};
  scenario.attempts[0].steps = {corrupt};
  scenario.log.tombstones = true;
  EXPECT_EQ(ModelOnlySteps(scenario), "log.tombstones, corrupt_record at 5:9");
}

}  // namespace
}  // namespace durasim
