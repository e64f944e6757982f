// TraceBytes against std::string: the same appends give the same bytes.
#include "model/trace_bytes.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace durasim {
namespace {

std::string WordBytes(uint64_t word) { return std::string(reinterpret_cast<const char*>(&word), sizeof word); }

TEST(TraceBytesTest, EveryShortLengthIsCopiedExactly) {
  // Each branch of the inline copy (0-3, 4-7, 8-16 bytes, longer), each
  // after a word so that the copies land at an offset, through growth.
  TraceBytes bytes;
  std::string expected;
  for (size_t n = 0; n <= 40; ++n) {
    std::string text;
    for (size_t i = 0; i < n; ++i) text.push_back(static_cast<char>('a' + (n * 7 + i) % 26));
    bytes.AppendWord(n * 0x0101010101010101ULL);
    expected += WordBytes(n * 0x0101010101010101ULL);
    bytes.Append(text);
    expected += text;
    ASSERT_EQ(bytes.view(), expected) << "after " << n << " bytes";
  }
  EXPECT_EQ(bytes.size(), expected.size());
}

TEST(TraceBytesTest, CopiesAndMovesKeepTheBytes) {
  TraceBytes bytes;
  bytes.Reserve(4);
  bytes.Append("kind.name");
  bytes.AppendWord(42);
  const std::string expected = "kind.name" + WordBytes(42);
  TraceBytes copy(bytes);
  EXPECT_EQ(copy.view(), expected);
  copy.Append("x");
  EXPECT_EQ(bytes.view(), expected);  // the copy has its own bytes
  TraceBytes moved(std::move(bytes));
  EXPECT_EQ(moved.view(), expected);
  EXPECT_EQ(bytes.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  bytes.Append("again");        // and usable
  EXPECT_EQ(bytes.view(), "again");
  copy = moved;
  EXPECT_EQ(copy.view(), expected);
}

RC_GTEST_PROP(TraceBytesProperty, SameBytesAsStdString, (const std::vector<std::string>& texts,
                                                           const std::vector<uint64_t>& words)) {
  TraceBytes bytes;
  std::string expected;
  for (size_t i = 0; i < std::max(texts.size(), words.size()); ++i) {
    if (i < texts.size()) {
      bytes.Append(texts[i]);
      expected += texts[i];
    }
    if (i < words.size()) {
      bytes.AppendWord(words[i]);
      expected += WordBytes(words[i]);
    }
  }
  RC_ASSERT(bytes.view() == expected);
}

}  // namespace
}  // namespace durasim
