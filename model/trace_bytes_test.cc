// TraceBytes against std::string: the same appends give the same bytes.
#include "model/trace_bytes.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace durasim {
namespace {

std::string WordBytes(uint64_t word) { return std::string(reinterpret_cast<const char*>(&word), sizeof word); }

TEST(TraceBytesTest, EveryShortLengthIsCopiedExactly) {
  // Strategy: a word, then a text of each length 0..40 (every branch of the
  // inline copy: 0, 1-3, 4-7, 8-16 bytes and longer), so that copies land
  // at every offset, through several growths from empty.
  // Invariant: the bytes are the std::string appends' bytes.
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
  // Strategy: a copy, a copy-assignment, self-assignments and a move of a
  // buffer that has grown past its reserve.
  // Invariant: a copy owns other memory with the same bytes; a move takes
  // the bytes and leaves an empty, usable buffer; self-assignment keeps them.
  TraceBytes bytes;
  bytes.Reserve(4);
  bytes.Append("kind.name");
  bytes.AppendWord(42);
  const std::string expected = "kind.name" + WordBytes(42);
  TraceBytes copy(bytes);
  EXPECT_EQ(copy.view(), expected);
  EXPECT_NE(copy.view().data(), bytes.view().data());
  copy.Append("x");
  EXPECT_EQ(bytes.view(), expected);
  TraceBytes& alias = copy;
  copy = alias;
  EXPECT_EQ(copy.view(), expected + "x");
  copy = std::move(alias);
  EXPECT_EQ(copy.view(), expected + "x");
  TraceBytes moved(std::move(bytes));
  EXPECT_EQ(moved.view(), expected);
  EXPECT_EQ(bytes.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  bytes.Append("again");        // and usable
  EXPECT_EQ(bytes.view(), "again");
  copy = moved;
  EXPECT_EQ(copy.view(), expected);
  EXPECT_NE(copy.view().data(), moved.view().data());
}

RC_GTEST_PROP(TraceBytesProperty, SameBytesAsStdString, (const std::vector<std::string>& texts,
                                                           const std::vector<uint64_t>& words)) {
  // Strategy: texts and words interleaved in any number and length.
  // Invariant: the bytes are the std::string appends' bytes.
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
