// Tests of the key group assignment.
#include "model/key_groups.h"

#include <gtest/gtest.h>

#include <string>

namespace durasim {
namespace {

struct Pinned {
  std::string key;
  int32_t java_hash;
  int32_t group_128, group_2, group_16, group_7;
};

// Strategy: Java itself (OpenJDK 17, `java Pin.java` with Flink's
// MathUtils.murmurHash written out and String.hashCode as Java has it)
// computed these; a key group differing from Flink's would move keys to
// other subtasks than a real job does. The keys are the generator's pool
// plus the empty key and one outside the BMP (a surrogate pair in UTF-16).
TEST(KeyGroupsTest, AssignmentMatchesJavaAndFlink) {
  const Pinned kPinned[] = {
      {"a", 97, 81, 1, 1, 2},
      {"b", 98, 22, 0, 6, 0},
      {"c", 99, 62, 0, 14, 1},
      {"user_1", -836030275, 53, 1, 5, 6},
      {"a_b_c", 92508904, 24, 0, 8, 5},
      {"_", 95, 83, 1, 3, 5},
      {"42", 1662, 13, 1, 13, 6},
      {"007", 47671, 19, 1, 3, 2},
      {"\xc3\xbc", 252, 41, 1, 9, 6},
      {"\xe6\x97\xa5\xe6\x9c\xac_\xe8\xaa\x9e", 802518598, 7, 1, 7, 0},
      {"with space", 719948076, 26, 0, 10, 6},
      {"x_1_0000000000000001_2", 1179722665, 44, 0, 12, 4},
      {std::string(64, 'k'), 930032640, 23, 1, 7, 0},
      {"", 0, 94, 0, 14, 0},
      {"\xf0\x9f\x98\x80", 1772899, 54, 0, 6, 6},
  };
  for (const Pinned& p : kPinned) {
    SCOPED_TRACE(p.key);
    EXPECT_EQ(JavaStringHashCode(p.key), p.java_hash);
    EXPECT_EQ(KeyGroupOf(p.key, 128), p.group_128);
    EXPECT_EQ(KeyGroupOf(p.key, 2), p.group_2);
    EXPECT_EQ(KeyGroupOf(p.key, 16), p.group_16);
    EXPECT_EQ(KeyGroupOf(p.key, 7), p.group_7);
  }
}

// Strategy: the ranges of P subtasks tile [0, M) without gaps or overlaps,
// and a key group's subtask is the one whose range holds it (Flink's two
// formulas agree), for every M up to 40 and every P up to M.
TEST(KeyGroupsTest, RangesTileTheKeyGroupsAndAgreeWithTheOperatorIndex) {
  for (int32_t m = 1; m <= 40; ++m) {
    for (int32_t p = 1; p <= m; ++p) {
      int32_t next = 0;
      for (int32_t i = 0; i < p; ++i) {
        const KeyGroupRange range = KeyGroupRangeOf(i, m, p);
        ASSERT_EQ(range.first, next) << "M=" << m << " P=" << p << " subtask " << i;
        ASSERT_GE(range.last, range.first) << "M=" << m << " P=" << p << " subtask " << i << " owns nothing";
        for (int32_t g = range.first; g <= range.last; ++g) ASSERT_EQ(SubtaskOfKeyGroup(g, m, p), i);
        next = range.last + 1;
      }
      ASSERT_EQ(next, m);
    }
  }
  // Java: g * 3 / 128 for g = 0, 42, 43, 85, 86, 127.
  EXPECT_EQ(SubtaskOfKeyGroup(42, 128, 3), 0);
  EXPECT_EQ(SubtaskOfKeyGroup(43, 128, 3), 1);
  EXPECT_EQ(SubtaskOfKeyGroup(85, 128, 3), 1);
  EXPECT_EQ(SubtaskOfKeyGroup(86, 128, 3), 2);
}

// Strategy: a byte that does not decode hashes as U+FFFD, so any key has a
// key group, never a crash; for a lone bad byte Java agrees (65533, and
// 68540 for "a\xc3": `new String(bytes, UTF_8).hashCode()` on OpenJDK 17).
TEST(KeyGroupsTest, MalformedUtf8HashesAsTheReplacementCharacter) {
  EXPECT_EQ(JavaStringHashCode("\xff"), 65533);
  EXPECT_EQ(JavaStringHashCode("a\xc3"), 68540);
  EXPECT_EQ(JavaStringHashCode("\xed\xa0\x80"), (31 * 0xfffd + 0xfffd) * 31 + 0xfffd);  // ours: one per byte
  EXPECT_GE(KeyGroupOf("\xed\xa0\x80", 128), 0);
}

}  // namespace
}  // namespace durasim
