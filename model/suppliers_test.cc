// Tests of Suppliers: results are defined for every argument and scale a
// scenario file may hold (wrap-around modulo 2^64, model/wrapping.h), so
// the sanitizer build sees no signed overflow.
#include "model/suppliers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace durasim {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

SupplierSpec Scaled(int64_t scale, bool drifting = false) {
  SupplierSpec spec;
  spec.name = "s";
  spec.scale = scale;
  spec.drifting = drifting;
  return spec;
}

CallIdentity CallOf(int call_index) {
  CallIdentity call;
  call.state_key = StateKey{"a", 1, 0, 0};
  call.call_index = call_index;
  call.function = "s";
  return call;
}

// Strategy: twenty chained calls of scale 10 on 1 overflow signed 64-bit
// arithmetic at the 19th; the result is 10^20 mod 2^64, computed by hand.
TEST(SuppliersTest, ChainedScalesWrapModulo2To64) {
  Suppliers suppliers({Scaled(10)});
  int64_t acc = 1;
  for (int i = 0; i < 20; ++i) {
    const SupplierOutcome outcome = suppliers.Invoke(CallOf(i), acc);
    ASSERT_FALSE(outcome.failed);
    acc = outcome.result;
  }
  EXPECT_EQ(acc, 7766279631452241920);  // 10^20 - 5 * 2^64
}

// Strategy: the products at the corners of the 64-bit range, where the
// signed product is undefined: each is the two's-complement wrap.
TEST(SuppliersTest, ScaleAtTheEndsOfTheRangeWraps) {
  EXPECT_EQ(Suppliers({Scaled(kMin)}).Invoke(CallOf(0), -1).result, kMin);
  EXPECT_EQ(Suppliers({Scaled(kMax)}).Invoke(CallOf(0), kMax).result, 1);
  EXPECT_EQ(Suppliers({Scaled(kMin)}).Invoke(CallOf(0), kMin).result, 0);
  EXPECT_EQ(Suppliers({Scaled(2)}).Invoke(CallOf(0), kMax).result, -2);
}

// Strategy: a drifting supplier adds 1000 per earlier invocation; on a
// result at the top of the range the sum wraps instead of overflowing.
TEST(SuppliersTest, DriftOnTheLargestResultWraps) {
  Suppliers suppliers({Scaled(1, true)});
  EXPECT_EQ(suppliers.Invoke(CallOf(0), kMax).result, kMax);
  EXPECT_EQ(suppliers.Invoke(CallOf(0), kMax).result, kMin + 999);
}

}  // namespace
}  // namespace durasim
