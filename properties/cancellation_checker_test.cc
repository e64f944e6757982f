// Tests of the cancellation checker.
#include "properties/cancellation_checker.h"

#include <gtest/gtest.h>

#include "model/trace.h"

namespace durasim {
namespace {

StateKey Key(const std::string& key) {
  StateKey state_key;
  state_key.key = key;
  state_key.seq = 1;
  return state_key;
}

const Status kCancelled(StatusCode::kCancelled, "cancelled");
const Status kRejected(StatusCode::kNotPersisted, "rejected by the broker");

// Strategy: a cancellation is judged on the put it names: another key's put
// that ends first with its own result is no violation (the false alarm of
// the first long sweep), the named put's result must be cancelled, and a
// cancellation whose put is not known takes the next result as its own.
TEST(CancellationCheckerTest, JudgesThePutTheInjectionNames) {
  Trace trace;
  CancellationChecker checker(trace);
  const size_t line = trace.Add(SimTime{}, 1, "cancel.injected", "");
  checker.OnAttemptStart(1);
  checker.OnCancelInjected(Key("a"), line);
  checker.OnPutResult(Key("_1"), 0, kRejected, line);  // another subtask's put
  EXPECT_TRUE(checker.violations().empty());
  checker.OnPutResult(Key("a"), 0, kCancelled, line);
  EXPECT_TRUE(checker.violations().empty());
  checker.OnPutResult(Key("a"), 0, Status::Ok(), line);  // a later put of "a": not cancelled
  EXPECT_TRUE(checker.violations().empty());

  checker.OnCancelInjected(Key("a"), line);
  checker.OnPutResult(Key("a"), 0, Status::Ok(), line);  // the cancelled put says it was saved
  ASSERT_EQ(checker.violations().size(), 1u);
  EXPECT_EQ(checker.violations()[0].invariant, Invariant::kCancellation);

  checker.OnCancelInjected(std::nullopt, line);
  checker.OnPutResult(Key("b"), 0, kRejected, line);  // unknown put: the next result is its
  EXPECT_EQ(checker.violations().size(), 2u);

  checker.OnCancelInjected(Key("c"), line);
  checker.OnAttemptStart(2);  // a new attempt forgets what the last one left
  checker.OnPutResult(Key("c"), 0, Status::Ok(), line);
  EXPECT_EQ(checker.violations().size(), 2u);
}

}  // namespace
}  // namespace durasim
