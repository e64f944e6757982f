// Strategy: the table's rows are Flink's assignment (model/key_groups.h,
// pinned against Java there), and a scenario gives its keys and the
// parallelisms of its attempts.
#include "sim/view/key_owners.h"

#include <gtest/gtest.h>

#include <sstream>

#include "model/key_groups.h"

namespace durasim {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(KeyOwnersTest, EachRowIsTheKeysGroupAndItsSubtaskAtEachParallelism) {
  const KeyOwners owners{{"a", "b", "order-17"}, {1, 2, 3}, 128};
  const std::vector<std::string> lines = Lines(KeyOwnersTable(owners));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[0].find("p=2"), std::string::npos);
  EXPECT_NE(lines[0].find("(max parallelism 128)"), std::string::npos);
  for (size_t i = 0; i < owners.keys.size(); ++i) {
    const std::string& key = owners.keys[i];
    std::istringstream row(lines[i + 1]);
    std::string quoted;
    int32_t group = -1, at1 = -1, at2 = -1, at3 = -1;
    row >> quoted >> group >> at1 >> at2 >> at3;
    EXPECT_EQ(quoted, "\"" + key + "\"");
    EXPECT_EQ(group, KeyGroupOf(key, 128));
    EXPECT_EQ(at1, 0);
    EXPECT_EQ(at2, SubtaskOfKey(key, 128, 2));
    EXPECT_EQ(at3, SubtaskOfKey(key, 128, 3));
    const bool moves = at2 != 0 || at3 != 0;
    EXPECT_EQ(lines[i + 1].ends_with("moves"), moves) << lines[i + 1];
  }
}

TEST(KeyOwnersTest, AScenarioGivesItsKeysOnceAndItsParallelismsAscending) {
  Scenario scenario;
  scenario.max_parallelism = 16;
  scenario.parallelism = 2;
  scenario.inputs = {InputSpec{"b", 1, {}}, InputSpec{"a", 2, {}}, InputSpec{"b", 3, {}}};
  scenario.attempts.resize(3);
  scenario.attempts[1].parallelism = 4;
  scenario.attempts[2].parallelism = 1;
  const KeyOwners owners = KeyOwnersOf(scenario);
  EXPECT_EQ(owners.keys, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(owners.parallelisms, (std::vector<int32_t>{1, 2, 4}));
  EXPECT_EQ(owners.max_parallelism, 16);
}

}  // namespace
}  // namespace durasim
