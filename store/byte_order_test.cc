// Strategy: CompareBytes must give std::string's order exactly (the maps it
// orders are iterated into traces). Checked on hand-picked cases where a
// word-wise compare could go wrong (a difference in the high bit, in the
// last byte of a word, past a shared prefix of whole words, a prefix of the
// other string, NUL bytes) and, by rapidcheck, on random strings over a
// small alphabet (so that long shared prefixes are common) and over all
// bytes; StateKey's order against the tuple order the defaulted one gave.
#include "store/byte_order.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "store/action_state.h"

namespace durasim {
namespace {

int Sign(std::strong_ordering order) { return order < 0 ? -1 : order > 0 ? 1 : 0; }
int StringSign(const std::string& a, const std::string& b) { return a.compare(b) < 0 ? -1 : a.compare(b) > 0 ? 1 : 0; }

TEST(ByteOrderTest, AgreesWithStdStringWhereWordsCouldMislead) {
  using namespace std::string_literals;
  const std::string cases[] = {
      "",          "a",         "b",         "ab",         "abcdefgh",   "abcdefgi",   "abcdefgh0",
      "abcdefghi", "abcdefgg",  "bbcdefgh",  "\x80",       "\x7f",       "a\x80",      "a\x7f",
      "\0"s,       "\0\0"s,     "a\0b"s,     "a\0c"s,      "abcdefghijklmnop",         "abcdefghijklmnoq",
      "abcdefghijklmnop_1",     "abcdefghijklmnop_10",     "\xff\xff\xff\xff\xff\xff\xff\xff",
      "\xff\xff\xff\xff\xff\xff\xff\xfe",                  "key-7_12_0123456789abcdef_fedcba9876543210",
      "key-7_12_0123456789abcdef_fedcba9876543211",        "key-7_2_0123456789abcdef_fedcba9876543210",
  };
  for (const std::string& a : cases) {
    for (const std::string& b : cases) {
      EXPECT_EQ(Sign(CompareBytes(a, b)), StringSign(a, b)) << "\"" << a << "\" vs \"" << b << "\"";
    }
  }
}

TEST(ByteOrderTest, AnOrderedSetIteratesAsWithStdLess) {
  const std::set<std::string> by_std = {"b_1", "a_10", "a_2", "a", "\xe9t\xe9", "A", "a_1_0000000000000000"};
  const std::set<std::string, ByteOrder> by_bytes(by_std.begin(), by_std.end());
  EXPECT_TRUE(std::equal(by_std.begin(), by_std.end(), by_bytes.begin(), by_bytes.end()));
  EXPECT_EQ(by_bytes.count(std::string_view("a_2")), 1u);  // transparent lookup
}

RC_GTEST_PROP(ByteOrder, AgreesWithStdStringOnStringsWithLongSharedPrefixes, ()) {
  const auto text = rc::gen::container<std::string>(rc::gen::elementOf(std::string("ab\x80\xff")));
  const std::string prefix = *text;
  const std::string a = prefix + *text;
  const std::string b = prefix + *text;
  RC_ASSERT(Sign(CompareBytes(a, b)) == StringSign(a, b));
  RC_ASSERT(Sign(CompareBytes(b, a)) == StringSign(b, a));
}

RC_GTEST_PROP(ByteOrder, AgreesWithStdStringOnAnyBytes, (const std::string& a, const std::string& b)) {
  RC_ASSERT(Sign(CompareBytes(a, b)) == StringSign(a, b));
}

RC_GTEST_PROP(ByteOrder, StateKeysOrderAsTheirFieldsInDeclarationOrder,
              (const std::string& key_a, const std::string& key_b, int64_t seq_a, int64_t seq_b)) {
  const bool same_key = *rc::gen::arbitrary<bool>();
  const StateKey a{key_a, seq_a, 1, 2};
  const StateKey b{same_key ? key_a : key_b, seq_b, 1, *rc::gen::inRange<uint64_t>(1, 4)};
  const auto tuple_order = std::tie(a.key, a.seq, a.event_hash, a.action_hash) <=>
                           std::tie(b.key, b.seq, b.event_hash, b.action_hash);
  RC_ASSERT(Sign(a <=> b) == Sign(tuple_order));
}

}  // namespace
}  // namespace durasim
