// Typed keys (typed_key.h).
#include "model/typed_key.h"

#include <gtest/gtest.h>

#include "model/key_groups.h"

namespace durasim {
namespace {

// Strategy: a Long key and the String key of its text are two identities
// with one text; a String key never reads as a Long key.
TEST(TypedKeyTest, LongAndStringKeysOfOneTextAreTwoKeys) {
  EXPECT_NE(LongKey(1), std::string("1"));
  EXPECT_EQ(KeyText(LongKey(1)), "1");
  EXPECT_EQ(KeyText("1"), "1");
  EXPECT_EQ(LongOfKey(LongKey(-42)), std::optional<int64_t>(-42));
  EXPECT_EQ(LongOfKey("1"), std::nullopt);
  EXPECT_EQ(LongOfKey(std::string(kLongKeyMark) + "x"), std::nullopt);
  EXPECT_TRUE(StartsWithLongKeyMark(LongKey(0)));
  EXPECT_FALSE(StartsWithLongKeyMark("long:1"));
}

// Strategy: Long.hashCode folds the high word into the low one, as Java's
// does: values Java computes (Long.valueOf(v).hashCode()).
TEST(TypedKeyTest, LongHashCodeIsJavas) {
  EXPECT_EQ(JavaLongHashCode(1), 1);
  EXPECT_EQ(JavaLongHashCode(-1), 0);                     // 0xffffffff ^ 0xffffffff
  EXPECT_EQ(JavaLongHashCode(int64_t{1} << 32), 1);       // high word 1, low word 0
  EXPECT_EQ(JavaLongHashCode(4294967297LL), 0);           // 1 ^ 1
  EXPECT_EQ(JavaLongHashCode(2147483648LL), INT32_MIN);   // 0x80000000
}

// Strategy: a Long key's key group comes from Long.hashCode, a String's
// from String.hashCode: "1" hashes to 49, Long 1 to 1, so their groups
// differ where murmur(49) and murmur(1) do.
TEST(TypedKeyTest, KeyGroupOfALongKeyUsesLongHashCode) {
  EXPECT_EQ(KeyGroupOf(LongKey(1), 128), FlinkMurmurHash(1) % 128);
  EXPECT_EQ(KeyGroupOf("1", 128), FlinkMurmurHash(49) % 128);
  EXPECT_EQ(KeyGroupOf(LongKey(7), 128), FlinkMurmurHash(7) % 128);
}

}  // namespace
}  // namespace durasim
