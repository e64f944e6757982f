// Tests of CompareBytes and the key orders built on it: they order exactly
// as std::string and the defaulted member-wise <=> did, so every map keyed by
// them iterates as before (and traces stay byte for byte).
#include "store/compare_bytes.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <tuple>

#include "store/action_state.h"

namespace durasim {
namespace {

// Bytes from a small alphabet that includes bytes above 0x7f, so equal
// prefixes, prefixes of each other and signed-char traps are all common.
rc::Gen<std::string> SmallBytes() {
  return rc::gen::container<std::string>(
      rc::gen::element('a', 'b', '\0', static_cast<char>(0x80), static_cast<char>(0xff)));
}

TEST(CompareBytesTest, OrdersAsStdString) {
  // Strategy: hand-picked pairs: equal, a prefix, a byte above 0x7f
  // against one below (unsigned, as memcmp compares), an embedded NUL.
  // Invariant: the order is std::string's.
  const std::string cases[] = {"", "a", "ab", "b", std::string("a\0", 2), "\x80", "\x7f", "\xff"};
  for (const std::string& a : cases) {
    for (const std::string& b : cases) EXPECT_EQ(CompareBytes(a, b), a <=> b) << a << " | " << b;
  }
}

RC_GTEST_PROP(CompareBytesTest, OrdersByteStringsAsStdString, ()) {
  const std::string a = *SmallBytes();
  const std::string b = *rc::gen::oneOf(SmallBytes(), rc::gen::just(a + *SmallBytes()));
  RC_ASSERT(CompareBytes(a, b) == (a <=> b));
  RC_ASSERT(CompareBytes(b, a) == (b <=> a));
}

RC_GTEST_PROP(CompareBytesTest, StateKeyOrdersMemberWise, ()) {
  // Invariant: StateKey's <=> is the defaulted one's: key, seq, event, action.
  const auto key = [] {
    return StateKey{*SmallBytes(), *rc::gen::inRange<int64_t>(-2, 3), *rc::gen::inRange<uint64_t>(0, 3),
                    *rc::gen::inRange<uint64_t>(0, 3)};
  };
  const StateKey a = key();
  const StateKey b = *rc::gen::oneOf(rc::gen::just(a), rc::gen::exec(key));
  RC_ASSERT((a <=> b) == (std::tie(a.key, a.seq, a.event_hash, a.action_hash) <=>
                          std::tie(b.key, b.seq, b.event_hash, b.action_hash)));
  RC_ASSERT((a == b) == ((a <=> b) == 0));
}

}  // namespace
}  // namespace durasim
