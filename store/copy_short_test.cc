// CopyShort copies exactly what memcpy copies, at every short length and
// alignment, and writes nothing past the copy.
#include "store/copy_short.h"

#include <gtest/gtest.h>

#include <string>

namespace durasim {
namespace {

TEST(CopyShortTest, EveryLengthAndOffsetCopiesExactlyTheBytes) {
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

TEST(CopyShortTest, UnderEightCopiesExactlyTheBytes) {
  const std::string source = "abcdefgh";
  for (size_t n = 0; n < 8; ++n) {
    char out[8] = {'.', '.', '.', '.', '.', '.', '.', '.'};
    CopyUnder8(out, source.data(), n);
    EXPECT_EQ(std::string(out, 8), source.substr(0, n) + std::string(8 - n, '.')) << n << " bytes";
  }
}

}  // namespace
}  // namespace durasim
