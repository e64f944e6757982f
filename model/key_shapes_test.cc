#include "model/key_shapes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace durasim {
namespace {

std::vector<InputSpec> Inputs(const std::vector<std::string>& keys) {
  std::vector<InputSpec> inputs;
  for (const std::string& key : keys) {
    InputSpec input;
    input.key = key;
    inputs.push_back(input);
  }
  return inputs;
}

TEST(KeyShapesTest, NamesWhatTheKeysMakeTogether) {
  EXPECT_EQ(KeyShapesOf(Inputs({"a", "b", "user"})), std::vector<KeyShape>{});
  EXPECT_EQ(KeyShapesOf(Inputs({"a", "ab", "a_"})), std::vector<KeyShape>{KeyShape::kSeparatorPrefix});
  // A key between the pair in sorted order does not hide it.
  EXPECT_EQ(KeyShapesOf(Inputs({"user", "user-x", "user_1"})), std::vector<KeyShape>{KeyShape::kSeparatorPrefix});
  EXPECT_EQ(KeyShapesOf(Inputs({"a_b", "a"})), std::vector<KeyShape>{KeyShape::kSeparatorPrefix});
  EXPECT_EQ(KeyShapesOf(Inputs({"12", "x"})), std::vector<KeyShape>{KeyShape::kNumeric});
  EXPECT_EQ(KeyShapesOf(Inputs({"1a"})), std::vector<KeyShape>{});
  EXPECT_EQ(KeyShapesOf(Inputs({""})), std::vector<KeyShape>{KeyShape::kEmpty});
  EXPECT_EQ(KeyShapesOf(Inputs({"ü"})), std::vector<KeyShape>{KeyShape::kNonAscii});
  EXPECT_EQ(KeyShapesOf(Inputs({"", "_1", "1", "日本"})),
            (std::vector<KeyShape>{KeyShape::kSeparatorPrefix, KeyShape::kNumeric, KeyShape::kEmpty,
                                   KeyShape::kNonAscii}));
}

TEST(KeyShapesTest, EveryShapesKeysOpenWithAPairAndAreOfTheShape) {
  for (KeyShape shape : AllOf<KeyShape>()) {
    const std::vector<std::string>& keys = KeysOfShape(shape);
    ASSERT_GE(keys.size(), 8u) << NameOf(shape);
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size()) << NameOf(shape);
    const std::vector<KeyShape> pair = KeyShapesOf(Inputs({keys[0], keys[1]}));
    EXPECT_NE(std::find(pair.begin(), pair.end(), KeyShape::kSeparatorPrefix), pair.end()) << NameOf(shape);
    const std::vector<KeyShape> all = KeyShapesOf(Inputs(keys));
    EXPECT_NE(std::find(all.begin(), all.end(), shape), all.end()) << NameOf(shape);
  }
}

}  // namespace
}  // namespace durasim
