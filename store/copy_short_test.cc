// CopyShort and CopyUnder8 copy exactly what memcpy copies.
#include "store/copy_short.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace durasim {
namespace {

TEST(CopyShortTest, EveryLengthAndOffsetCopiesExactlyTheBytes) {
  // Strategy: every length 0..40 (each branch: 0, 1-3, 4-7, 8-16, longer)
  // from and to every offset 0..7 of larger buffers.
  // Invariant: the destination holds the source's bytes there and nothing
  // else changed.
  std::string source;
  for (int i = 0; i < 64; ++i) source.push_back(static_cast<char>(0x41 + i));
  for (size_t n = 0; n <= 40; ++n) {
    for (size_t from = 0; from < 8; ++from) {
      for (size_t to = 0; to < 8; ++to) {
        std::string out(64, '.');
        std::string expected(64, '.');
        CopyShort(out.data() + to, source.data() + from, n);
        expected.replace(to, n, source, from, n);
        ASSERT_EQ(out, expected) << n << " bytes from " << from << " to " << to;
      }
    }
  }
}

TEST(CopyShortTest, ReadsAndWritesOnlyTheBytesCopied) {
  // Strategy: source and destination are heap blocks of exactly n bytes, so
  // a read or write past either end is a heap overflow the sanitizer build
  // reports; CopyUnder8 alike below 8.
  // Invariant: the copy is the source.
  for (size_t n = 0; n <= 40; ++n) {
    auto source = std::make_unique<char[]>(n);
    auto out = std::make_unique<char[]>(n);
    for (size_t i = 0; i < n; ++i) source[i] = static_cast<char>('a' + i % 26);
    CopyShort(out.get(), source.get(), n);
    EXPECT_EQ(std::string(out.get(), n), std::string(source.get(), n)) << n << " bytes";
    if (n >= 8) continue;
    auto under8 = std::make_unique<char[]>(n);
    CopyUnder8(under8.get(), source.get(), n);
    EXPECT_EQ(std::string(under8.get(), n), std::string(source.get(), n)) << n << " bytes";
  }
}

TEST(CopyShortTest, UnderEightCopiesExactlyTheBytes) {
  // Strategy: each length 0..7 from each offset of a source, into a
  // destination with room after the copy.
  // Invariant: the copied bytes, and the rest of the destination unchanged.
  const std::string source = "abcdefghijklmnop";
  for (size_t n = 0; n < 8; ++n) {
    for (size_t from = 0; from < 8; ++from) {
      char out[8] = {'.', '.', '.', '.', '.', '.', '.', '.'};
      CopyUnder8(out, source.data() + from, n);
      EXPECT_EQ(std::string(out, 8), source.substr(from, n) + std::string(8 - n, '.')) << n << " from " << from;
    }
  }
}

}  // namespace
}  // namespace durasim
