#include "sim/suggest.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

const std::vector<std::string> kCommands = {"run", "explore", "replay", "shrink", "merge-reports", "mutants-list",
                                            "mutants"};

TEST(SuggestTest, ATypoFindsTheCommand) {
  EXPECT_EQ(ClosestName("rnu", kCommands), "run");
  EXPECT_EQ(ClosestName("exlpore", kCommands), "explore");
  EXPECT_EQ(ClosestName("mutant", kCommands), "mutants");
  EXPECT_EQ(ClosestName("Replay", kCommands), "replay");
  EXPECT_EQ(ClosestName("merge-report", kCommands), "merge-reports");
}

TEST(SuggestTest, NothingCloseIsNoSuggestion) {
  EXPECT_EQ(ClosestName("frobnicate", kCommands), std::nullopt);
  EXPECT_EQ(DidYouMean("xyz", kCommands), "");
  EXPECT_EQ(DidYouMean("shrnik", kCommands), " (did you mean \"shrink\"?)");
}

TEST(SuggestTest, MutantNames) {
  const std::vector<std::string> mutants = {"cache-before-ack", "legacy-end-offset-marker", "await-before-flush"};
  EXPECT_EQ(ClosestName("cache-befor-ack", mutants), "cache-before-ack");
  EXPECT_EQ(ClosestName("legacy_end_offset_marker", mutants), "legacy-end-offset-marker");
}

}  // namespace
}  // namespace durasim
