// Tests of UTF-8 validation.
#include "store/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace durasim {
namespace {

// Strategy: valid text of every sequence length passes; each kind of
// invalid sequence is found at its offset.
TEST(Utf8Test, FindsTheFirstInvalidByte) {
  EXPECT_TRUE(IsValidUtf8("a key \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_TRUE(IsValidUtf8(std::string("nul\0inside", 10)));
  EXPECT_EQ(FirstInvalidUtf8("ab\xff"), 2u);           // not a lead byte
  EXPECT_EQ(FirstInvalidUtf8("\x80"), 0u);             // a continuation alone
  EXPECT_EQ(FirstInvalidUtf8("a\xc3"), 1u);            // truncated
  EXPECT_EQ(FirstInvalidUtf8("\xc0\xaf"), 0u);         // overlong
  EXPECT_EQ(FirstInvalidUtf8("x\xed\xa0\x80"), 1u);    // a surrogate
  EXPECT_EQ(FirstInvalidUtf8("\xf4\x90\x80\x80"), 0u); // past U+10FFFF
}

}  // namespace
}  // namespace durasim
