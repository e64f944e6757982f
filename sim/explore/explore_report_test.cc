// Tests of the explore report's JSON schema.
#include "sim/explore/explore_report.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/exit_codes.h"

namespace durasim {
namespace {

SeedResult Failed() {
  SeedResult seed;
  seed.seed = 7;
  seed.verdict = Verdict::kViolation;
  seed.invariants = {Invariant::kSameAnswer, Invariant::kLiveness};
  seed.trace_hash = "00000000000000ff";
  seed.sim_time_us = 1234;
  seed.fault_hits = {{"lose_ack", 2}, {"lose_ack@start", 1}};
  seed.failure_file = "failures/seed_7_same-answer.yaml";
  seed.message = "output 0 differs";
  return seed;
}

// Strategy: a report is written with table names for verdicts, invariants
// and backends and null for no mutant, and reads back to the same report.
TEST(ExploreReportTest, JsonUsesTableNamesAndRoundTrips) {
  ExploreReport report;
  report.backend = BackendKind::kMock;
  report.shard = "0/1";
  report.seeds = {Failed()};
  const nlohmann::json json = report;
  EXPECT_TRUE(json.at("mutant").is_null());
  EXPECT_EQ(json.at("backend"), "mock");
  EXPECT_EQ(json.at("seeds")[0].at("verdict"), "violation");
  EXPECT_EQ(json.at("seeds")[0].at("invariants"), (nlohmann::json{"same-answer", "liveness"}));
  const ExploreReport back = json.get<ExploreReport>();
  EXPECT_EQ(nlohmann::json(back), json);
  EXPECT_EQ(ReportText(back), json.dump(2) + "\n");
}

// Strategy: an unknown verdict does not read as a report.
TEST(ExploreReportTest, UnknownNamesDoNotParse) {
  nlohmann::json seed = Failed();
  seed["verdict"] = "passed";
  EXPECT_THROW(seed.get<SeedResult>(), std::exception);
}

// Strategy: every field of a seed is required but trace_text_hash, which
// is written only when set (explore --text-hash) and reads back.
TEST(ExploreReportTest, OnlyTheTextHashIsOptional) {
  const nlohmann::json plain = Failed();
  EXPECT_FALSE(plain.contains("trace_text_hash"));
  EXPECT_EQ(plain.get<SeedResult>().trace_text_hash, "");
  for (const char* field : {"seed", "verdict", "invariants", "trace_hash", "sim_time_us", "fault_hits", "failure_file",
                            "message"}) {
    nlohmann::json missing = plain;
    missing.erase(field);
    EXPECT_THROW(missing.get<SeedResult>(), std::exception) << field;
  }
  SeedResult hashed = Failed();
  hashed.trace_text_hash = "00000000000000aa";
  EXPECT_EQ(nlohmann::json(hashed).get<SeedResult>().trace_text_hash, "00000000000000aa");
}

// Strategy: the exit code follows the worst failure: error, determinism,
// violation, liveness, then missing coverage.
TEST(ExploreReportTest, ExitCodeOrder) {
  SweepResult result;
  result.seeds = {Failed()};
  EXPECT_EQ(ExitCodeFor(result, false), kExitViolation);
  result.seeds[0].invariants = {Invariant::kLiveness};
  EXPECT_EQ(ExitCodeFor(result, false), kExitLiveness);
  result.seeds[0].invariants.push_back(Invariant::kDeterminism);
  EXPECT_EQ(ExitCodeFor(result, false), kExitDeterminism);
  result.seeds[0].verdict = Verdict::kError;
  EXPECT_EQ(ExitCodeFor(result, false), kExitError);
  result.seeds.clear();
  result.never_fired = NeverFired({});
  EXPECT_EQ(ExitCodeFor(result, false), kExitOk);
  EXPECT_EQ(ExitCodeFor(result, true), kExitCoverage);
}

// Strategy: an output that could not be written makes a clean sweep exit 7;
// a failing seed's code wins over it. A seed whose failure file could not be
// written is listed without a path, and the unwritten output is named.
TEST(ExploreReportTest, UnwrittenOutputs) {
  SweepResult result;
  result.unwritten = {"out/report.json"};
  EXPECT_EQ(ExitCodeFor(result, false), kExitOutput);
  SeedResult failed = Failed();
  failed.failure_file.clear();
  result.seeds = {failed};
  EXPECT_EQ(ExitCodeFor(result, false), kExitViolation);
  const std::string summary = Summary(result);
  EXPECT_NE(summary.find("FAILED seed 7: violation [same-answer,liveness] (no failure file: see stderr)"),
            std::string::npos)
      << summary;
  EXPECT_EQ(summary.find("->"), std::string::npos) << summary;
  EXPECT_NE(summary.find("NOT WRITTEN: out/report.json"), std::string::npos) << summary;
  // The JUnit failure then says how to replay the seed instead.
  EXPECT_NE(ToJunit(result, std::nullopt).find("reproduce: build/durasim replay --seed 7"), std::string::npos);
}

// Strategy: a sweep's pair table is counted from its seeds' hits, shown
// (how many pairs met, the thinnest) in the summary and written in the
// JSON; thin pairs (below --require-pairs) make a clean sweep exit 6, and
// a failing seed's code wins over them.
TEST(ExploreReportTest, PairsAreSummedReportedAndRequired) {
  SeedResult one;
  one.fault_hits = {{"lose_ack", 1}, {"rescale", 2}};
  SeedResult two;
  two.fault_hits = {{"lose_ack", 1}};
  SweepResult result;
  result.seeds = {one, two};
  result.pairs = PairTableOf(result.seeds);
  const auto lose_ack_rescale = std::find_if(result.pairs.begin(), result.pairs.end(), [](const PairCount& pair) {
    return pair.first == "lose_ack" && pair.second == "rescale";
  });
  ASSERT_NE(lose_ack_rescale, result.pairs.end());
  EXPECT_EQ(lose_ack_rescale->seeds, 1);
  const std::string summary = Summary(result);
  EXPECT_NE(summary.find("feature pairs: 1 of "), std::string::npos) << summary;
  EXPECT_EQ(summary.find("pairs below --require-pairs"), std::string::npos) << summary;
  EXPECT_EQ(ExitCodeFor(result, false), kExitOk);
  result.thin_pairs = ThinPairs(result.pairs, 2);
  EXPECT_EQ(ExitCodeFor(result, false), kExitCoverage);
  EXPECT_NE(Summary(result).find("pairs below --require-pairs: "), std::string::npos);
  result.seeds.push_back(Failed());
  EXPECT_EQ(ExitCodeFor(result, false), kExitViolation);
  ExploreReport report;
  report.pairs = result.pairs;
  const nlohmann::json json = report;
  EXPECT_EQ(json.at("pairs").size(), result.pairs.size());
  EXPECT_EQ(json.get<ExploreReport>().pairs, result.pairs);
  nlohmann::json old = json;
  old.erase("pairs");  // a report from before pairs reads with none
  EXPECT_TRUE(old.get<ExploreReport>().pairs.empty());
}

// Strategy: an interrupted sweep's report says so and reads back.
TEST(ExploreReportTest, InterruptedRoundTrips) {
  ExploreReport report;
  report.interrupted = true;
  const nlohmann::json json = report;
  EXPECT_EQ(json.at("interrupted"), true);
  EXPECT_TRUE(json.get<ExploreReport>().interrupted);
  // An older report without the key reads as not interrupted.
  nlohmann::json old = json;
  old.erase("interrupted");
  EXPECT_FALSE(old.get<ExploreReport>().interrupted);
}

// Strategy: infra seeds (the broker failed: not the store's failure) are no
// failure: the summary names each with its cause and no file, the JUnit
// gives them as errors, not failures, with the cause, and the sweep exits 8
// unless a failure of the store's code wins; the stop reason is reported.
TEST(ExploreReportTest, InfraSeedsAreNoFailure) {
  SweepResult result;
  SeedResult infra;
  infra.seed = 9;
  infra.verdict = Verdict::kInfra;
  infra.message = "backend kafka: the broker at 127.0.0.1:1 failed a put: possibly-persisted: no acknowledgement";
  result.seeds = {infra};
  result.infra_stop = "3 infrastructure failures in a row (--infra-errors-max 3); the last: x";
  EXPECT_EQ(ExitCodeFor(result, false), kExitInfra);
  EXPECT_EQ(ExitCodeFor(result, true), kExitInfra);
  const std::string summary = Summary(result);
  EXPECT_NE(summary.find("INFRA seed 9: backend kafka: the broker at 127.0.0.1:1 failed a put"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("stopped: 3 infrastructure failures in a row"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("FAILED"), std::string::npos) << summary;
  EXPECT_NE(summary.find("violations by invariant: none"), std::string::npos) << summary;
  const std::string junit = ToJunit(result, std::nullopt);
  EXPECT_NE(junit.find("failures=\"0\" errors=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<error type=\"infra\" message=\"infra: backend kafka: the broker at 127.0.0.1:1"),
            std::string::npos)
      << junit;
  EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;
  // A store failure's code wins.
  result.seeds.push_back(Failed());
  EXPECT_EQ(ExitCodeFor(result, false), kExitViolation);
  // The report keeps the verdict and the stop reason; an older report reads
  // without one.
  ExploreReport report;
  report.seeds = {infra};
  report.infra_stop = result.infra_stop;
  const nlohmann::json json = report;
  EXPECT_EQ(json.at("seeds")[0].at("verdict"), "infra");
  EXPECT_EQ(json.get<ExploreReport>().infra_stop, result.infra_stop);
  nlohmann::json old = json;
  old.erase("infra_stop");
  EXPECT_EQ(old.get<ExploreReport>().infra_stop, "");
}

// Strategy: an error seed's summary line and JUnit failure message carry its
// cause, not only the verdict.
TEST(ExploreReportTest, ErrorSeedsSayTheirCause) {
  SweepResult result;
  SeedResult error = Failed();
  error.verdict = Verdict::kError;
  error.invariants.clear();
  error.message = "attempt 2 ended in error: reading the log failed: unavailable: gone\nsecond line";
  result.seeds = {error};
  const std::string summary = Summary(result);
  EXPECT_NE(summary.find("FAILED seed 7: error [] -> failures/seed_7_same-answer.yaml (cause: attempt 2 ended in "
                         "error: reading the log failed: unavailable: gone)\n"),
            std::string::npos)
      << summary;
  EXPECT_NE(ToJunit(result, std::nullopt).find("seed_7_same-answer.yaml: attempt 2 ended in error"), std::string::npos);
}

}  // namespace
}  // namespace durasim
