// Tests of the differential comparison between backends.
#include "sim/run/differential.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

using std::chrono::milliseconds;

// The first `events` of a two-event trace whose second event is at `second`.
Trace TraceOf(int events, SimTime second) {
  Trace trace;
  trace.Add(SimTime(0), 1, "attempt.start", "fresh");
  if (events > 1) trace.Add(second, 1, "log.append", "partition=0 offset=0");
  return trace;
}

RunReport Report() {
  RunReport report;
  report.backend = BackendKind::kMock;
  report.verdict = Verdict::kPass;
  report.outputs = {70};
  report.calls_by_identity = {{"call-a", 1}};
  report.log_records = {{"k1 00000000000000aa", "k1 00000000000000bb"}};
  report.trace = TraceOf(2, milliseconds(1));
  return report;
}

// Strategy: identical observations compare equal.
TEST(DifferentialTest, SameObservationsAreEqual) { EXPECT_FALSE(FirstDifference(Report(), Report()).has_value()); }

// Strategy: each kind of observation, changed alone, is reported first and
// named.
TEST(DifferentialTest, EachDifferenceIsNamed) {
  RunReport other = Report();
  other.verdict = Verdict::kViolation;
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

// Strategy: with every outcome equal, a trace that differs in one event, or
// ends early, is reported with the event's index and both lines.
TEST(DifferentialTest, FirstDifferingTraceEventIsNamed) {
  RunReport other = Report();
  other.trace = TraceOf(2, milliseconds(2));
  const std::optional<std::string> difference = FirstDifference(Report(), other);
  ASSERT_TRUE(difference.has_value());
  EXPECT_EQ(*difference,
            "trace event #1: model [     1.000ms a1 log.append         partition=0 offset=0], mock [     2.000ms a1 "
            "log.append         partition=0 offset=0]");
  other = Report();
  other.trace = TraceOf(1, milliseconds(1));
  EXPECT_NE(FirstDifference(Report(), other)->find("mock [<end of trace>]"), std::string::npos);
}

// Strategy: a difference becomes a differential violation that names it
// and turns a passing verdict into a violation; equal reports are untouched.
TEST(DifferentialTest, MarkDifferenceAddsANamedViolation) {
  RunReport same = Report();
  EXPECT_FALSE(MarkDifference(Report(), same));
  EXPECT_TRUE(same.violations.empty());
  EXPECT_EQ(same.verdict, Verdict::kPass);

  RunReport other = Report();
  other.outputs = {71};
  EXPECT_TRUE(MarkDifference(Report(), other));
  EXPECT_EQ(other.verdict, Verdict::kViolation);
  ASSERT_EQ(other.violations.size(), 1u);
  EXPECT_EQ(other.violations[0].invariant, Invariant::kDifferential);
  EXPECT_NE(other.violations[0].message.find("model and mock differ: outputs"), std::string::npos)
      << other.violations[0].message;
}

}  // namespace
}  // namespace durasim
