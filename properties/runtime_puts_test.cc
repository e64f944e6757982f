// Tests of RuntimePuts.
#include "properties/runtime_puts.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

// Strategy: two puts of one key end one at a time; the key is in flight
// until the second ends, another key never is, and an end without an issue
// (a put a crash ended, whose result comes after Clear) changes nothing.
TEST(RuntimePutsTest, AKeyIsInFlightUntilEveryPutOfItEnded) {
  const StateKey a{"a", 1, 7, 9};
  const StateKey b{"b", 1, 7, 9};
  RuntimePuts puts;
  puts.Issued(a);
  puts.Issued(a);
  puts.Ended(a);
  EXPECT_TRUE(puts.InFlight(a));
  EXPECT_FALSE(puts.InFlight(b));
  puts.Ended(a);
  EXPECT_FALSE(puts.InFlight(a));
  puts.Ended(b);
  EXPECT_FALSE(puts.InFlight(b));
  puts.Issued(b);
  EXPECT_TRUE(puts.InFlight(b));
}

// Strategy: Clear (an attempt's start: a crash ended every put) leaves no key
// in flight, and a late end after it does not go below nothing.
TEST(RuntimePutsTest, ClearEndsEveryPut) {
  const StateKey a{"a", 1, 7, 9};
  RuntimePuts puts;
  puts.Issued(a);
  puts.Clear();
  EXPECT_FALSE(puts.InFlight(a));
  puts.Ended(a);
  puts.Issued(a);
  EXPECT_TRUE(puts.InFlight(a));
}

}  // namespace
}  // namespace durasim
