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

}  // namespace
}  // namespace durasim
