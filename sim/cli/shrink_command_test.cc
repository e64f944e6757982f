// Tests of what `durasim shrink` keeps of a failure file's header.
#include "sim/cli/shrink_command.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

// Strategy: the header's lines stay but those a shrink rewrites; the
// scenario's own lines are not header.
TEST(ShrinkCommandTest, KeepsTheHeaderButWhatTheShrinkRewrites) {
  const std::string text =
      "# Strategy: found by durasim explore: seed 9\n"
      "# confirm the failure: build/durasim run f.yaml\n"
      "# first violation: old message\n"
      "# not shrunk (the sweep shrinks its first failures only)\n"
      "# shrunk: 3 candidates tried\n"
      "#bare comment\n"
      "name: \"seed_9\"\n"
      "# a comment inside the file\n";
  EXPECT_EQ(KeptHeaderLines(text), (std::vector<std::string>{"Strategy: found by durasim explore: seed 9",
                                                            "confirm the failure: build/durasim run f.yaml",
                                                            "bare comment"}));
  EXPECT_TRUE(KeptHeaderLines("name: x\n# late\n").empty());
}

}  // namespace
}  // namespace durasim
