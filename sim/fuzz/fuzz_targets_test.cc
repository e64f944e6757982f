// Fuzz target tests: the located-error check rejects what the parser must
// never say; each target accepts its corpus and reports a broken property.
#include "sim/fuzz/fuzz_targets.h"

#include <gtest/gtest.h>

#include "sim/fuzz/fuzz_campaign.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

TEST(LocatedError, AcceptsPathLineColumnReason) {
  EXPECT_EQ(LocatedErrorProblem("f.yaml:2:5: expected an integer", "f.yaml", "a\nb\n"), std::nullopt);
  EXPECT_EQ(LocatedErrorProblem("f.yaml:3:1: got an empty value", "f.yaml", "a\nb\n"), std::nullopt);
}

TEST(LocatedError, RejectsWhatTheParserMustNeverSay) {
  const std::string text = "a\nb\n";
  EXPECT_NE(LocatedErrorProblem("invalid YAML: bad file", "f.yaml", text), std::nullopt);
  EXPECT_NE(LocatedErrorProblem("f.yaml: cannot read scenario file", "f.yaml", text), std::nullopt);
  EXPECT_NE(LocatedErrorProblem("f.yaml:2: expected", "f.yaml", text), std::nullopt);
  EXPECT_NE(LocatedErrorProblem("f.yaml:2:x: expected", "f.yaml", text), std::nullopt);
  EXPECT_NE(LocatedErrorProblem("f.yaml:2:3:", "f.yaml", text), std::nullopt);
  EXPECT_NE(LocatedErrorProblem("f.yaml:0:3: expected", "f.yaml", text), std::nullopt);
  EXPECT_NE(LocatedErrorProblem("f.yaml:4:3: expected", "f.yaml", text), std::nullopt);  // 3 lines
  EXPECT_NE(LocatedErrorProblem("f.yaml:2:0: expected", "f.yaml", text), std::nullopt);
  EXPECT_NE(LocatedErrorProblem("g.yaml:2:3: expected", "f.yaml", text), std::nullopt);
}

TEST(ScenarioTarget, ParsesAndRunsAFile) {
  const std::string yaml =
      "name: t\n"
      "suppliers: [{name: llm, scale: 2}]\n"
      "actions: [{name: a, on: input, steps: [call: llm, output]}]\n"
      "inputs: [{key: k, value: 1}]\n"
      "attempts: [{steps: [read: all, run]}]\n";
  const TargetResult result = RunScenarioTarget(yaml);
  EXPECT_TRUE(result.problem.empty()) << result.problem;
  EXPECT_EQ(result.outcome, "run pass as-expected");
}

TEST(ScenarioTarget, AParseErrorWithLocationIsNoProblem) {
  const TargetResult result = RunScenarioTarget("name: t\nbogus: 1\n");
  EXPECT_EQ(result.outcome, "parse-error");
  EXPECT_TRUE(result.problem.empty()) << result.problem;
}

TEST(StateTarget, EveryCorpusInputRoundTrips) {
  const auto corpus = LoadCorpus({SourceTree() + "/sim/fuzz/corpus/state"}, ".state");
  ASSERT_GE(corpus.size(), 5u);
  int decoded = 0;
  for (const auto& [path, text] : corpus) {
    const TargetResult result = RunStateTarget(text);
    EXPECT_TRUE(result.problem.empty()) << path << ": " << result.problem;
    if (result.outcome.ends_with("value decoded")) ++decoded;
  }
  EXPECT_GE(decoded, 4) << "the corpus holds states that decode";
}

TEST(MarkerTarget, AcceptsAndRejectsAsTheChecksSay) {
  EXPECT_EQ(RunMarkerTarget("version 2\ntopic t i\noffsets 0:4\nstore t i\nlog 0-9\n").outcome, "accepted");
  EXPECT_EQ(RunMarkerTarget("version 2\ntopic t i\noffsets 0:10\nstore t i\nlog 0-9\n").outcome, "rejected");
  EXPECT_EQ(RunMarkerTarget("version 3\ntopic t i\noffsets 0:4\nstore t i\nlog 0-9\n").outcome, "rejected");
  // The legacy form names no topic: only its offsets are checked.
  EXPECT_EQ(RunMarkerTarget("version 1\ntopic u j\noffsets 0:4\nstore t i\nlog 0-9\n").outcome, "accepted");
  EXPECT_EQ(RunMarkerTarget("version 1\ntopic u j\noffsets 0:10\nstore t i\nlog 0-9\n").outcome, "rejected");
  EXPECT_EQ(RunMarkerTarget("").outcome, "rejected");
  const auto corpus = LoadCorpus({SourceTree() + "/sim/fuzz/corpus/marker"}, ".txt");
  ASSERT_GE(corpus.size(), 4u);
  for (const auto& [path, text] : corpus) EXPECT_TRUE(RunMarkerTarget(text).problem.empty()) << path;
}

TEST(KnownLimits, ReadsTargetAndFingerprint) {
  const std::string path = ::testing::TempDir() + "/known_limits.txt";
  {
    std::FILE* file = std::fopen(path.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fputs("# comment\nscenario 00000000000000ff many calls\nbogus 0000000000000001 x\nstate 12 short\n", file);
    std::fclose(file);
  }
  const auto known = LoadKnownLimits(path);
  ASSERT_EQ(known.size(), 1u);
  EXPECT_EQ(known.at(FuzzTarget::kScenario), std::set<uint64_t>{0xff});
}

}  // namespace
}  // namespace durasim
