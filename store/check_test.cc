// Tests of the always-on checks and the run-context registry.
// Strategy: death tests read what a failed check prints (file:line, the
// expression, the values, every live context) and that it aborts; the
// registry is read directly for registration order and removal in any order.
#include "store/check.h"

#include <gtest/gtest.h>

#include <optional>
#include <thread>

namespace durasim {
namespace {

enum class Phase { kTaken = 0, kCompleted = 1 };

TEST(CheckDeathTest, PrintsFileLineAndExpression) {
  // Strategy: a false check dies printing its source-relative file:line and expression.
  const int partitions = 2;
  EXPECT_DEATH(DURASIM_CHECK(partitions > 3), "(^|\n)store/check_test.cc:[0-9]+: check failed: partitions > 3\n");
}

TEST(Check, NamesASourceFromTheRootHoweverTheBuildSpeltIt) {
  // Strategy: each spelling a build gives __FILE__ (absolute; relative to the
  // build folder, as ccache makes it; through a floor's include root, as
  // headers and a unity build's batches are) names the same file.
  using check_internal::SourceRelative;
  EXPECT_STREQ(SourceRelative("/home/u/durasim/model/kafka_log.cc"), "model/kafka_log.cc");
  EXPECT_STREQ(SourceRelative("../model/backends/rdkafka_backend.cc"), "model/backends/rdkafka_backend.cc");
  EXPECT_STREQ(SourceRelative("floors/model/model/kafka_log.cc"), "model/kafka_log.cc");
  EXPECT_STREQ(SourceRelative("/w/build/floors/sim/sim/run/runner.cc"), "sim/run/runner.cc");
  EXPECT_STREQ(SourceRelative("/srv/sim/checkout/properties/mutants/canary.cc"), "properties/mutants/canary.cc");
  EXPECT_STREQ(SourceRelative("sim/explore/store_comparison.cc"), "sim/explore/store_comparison.cc");
  EXPECT_STREQ(SourceRelative("elsewhere/file.cc"), "elsewhere/file.cc");
}

TEST(CheckDeathTest, PrintsTheMessage) {
  // Strategy: the message form appends its message.
  EXPECT_DEATH(DURASIM_CHECK_MSG(false, std::string("no supplier ") + "s1"), "check failed: false no supplier s1");
}

TEST(CheckDeathTest, ComparisonsPrintBothValues) {
  // Strategy: numbers and enums print as (a vs b); other types print no values.
  const int64_t offset = 7;
  EXPECT_DEATH(DURASIM_CHECK_LT(offset, 3), "check failed: offset < 3 \\(7 vs 3\\)");
  EXPECT_DEATH(DURASIM_CHECK_EQ(Phase::kCompleted, Phase::kTaken),
               "check failed: Phase::kCompleted == Phase::kTaken \\(1 vs 0\\)");
  EXPECT_DEATH(DURASIM_CHECK_EQ(std::string("a"), std::string("b")), "check failed: std::string\\(\"a\"\\) == "
                                                                       "std::string\\(\"b\"\\)\n");
}

TEST(CheckDeathTest, PrintsEveryLiveContextOldestFirst) {
  // Strategy: two live contexts print, indented, in registration order.
  const CheckContext run([] { return std::string("run: seed 118\nreproduce: build/durasim replay --seed 118"); });
  const CheckContext clock([] { return std::string("simulated time: 1.500ms"); });
  EXPECT_DEATH(DURASIM_CHECK(1 + 1 == 3), "check failed: 1 \\+ 1 == 3\n  run: seed 118\n  reproduce: build/durasim "
                                          "replay --seed 118\n  simulated time: 1.500ms\n");
}

TEST(CheckDeathTest, AContextThatFailsItselfDoesNotRecurse) {
  // Strategy: a describer that fails a check still lets the first failure print.
  const CheckContext broken([]() -> std::string {
    DURASIM_CHECK(false);
    return "unreachable";
  });
  EXPECT_DEATH(DURASIM_CHECK(false), "check failed: false\n.*check failed: false\n");
}

TEST(Check, PassingChecksEvaluateTheirOperandsOnce) {
  // Strategy: operands with side effects run once per passing check.
  int evaluated = 0;
  auto next = [&evaluated] { return ++evaluated; };
  DURASIM_CHECK(next() == 1);
  DURASIM_CHECK_LE(next(), 2);
  DURASIM_CHECK_EQ(3, next());
  EXPECT_EQ(evaluated, 3);
}

TEST(Check, ContextsEndInAnyOrder) {
  // Strategy: the older of two contexts ends first; the registry keeps the other.
  EXPECT_EQ(DescribeCheckContexts(), "");
  std::optional<CheckContext> first(std::in_place, [] { return std::string("first"); });
  {
    const CheckContext second([] { return std::string("second"); });
    EXPECT_EQ(DescribeCheckContexts(), "  first\n  second\n");
    first.reset();
    EXPECT_EQ(DescribeCheckContexts(), "  second\n");
  }
  EXPECT_EQ(DescribeCheckContexts(), "");
}

TEST(Check, ContextsAreThreadLocal) {
  // Strategy: another thread sees none of this thread's contexts.
  const CheckContext here([] { return std::string("main thread"); });
  std::string seen_there = "unset";
  std::thread([&seen_there] { seen_there = DescribeCheckContexts(); }).join();
  EXPECT_EQ(seen_there, "");
  EXPECT_EQ(DescribeCheckContexts(), "  main thread\n");
}

}  // namespace
}  // namespace durasim
