// Tests of the retry-budget checker, fed observer events by hand.
// Strategy: an action with `retry: {max: 1}` (2 tries per call); the log
// holds FAILED results at consecutive indices; a supplier call that would be
// a third try of the same call is a violation, a second try or a call after
// a success is not, nor is calling a PENDING slot again.
#include "properties/retry_budget_checker.h"

#include <gtest/gtest.h>

#include "model/identity.h"

namespace durasim {
namespace {

class RetryBudgetCheckerTest : public ::testing::Test {
 protected:
  RetryBudgetCheckerTest() : checker_(trace_, Actions()) {}

  static std::vector<ActionSpec> Actions() {
    ActionSpec action;
    action.name = "ask";
    action.on_error = ErrorHandling{OnError::kRetry, 1};
    return {action};
  }

  StateKey Key() const { return StateKey{"a", 1, 7, ActionHash("ask")}; }
  CallIdentity Call(int index) const { return CallIdentity{Key(), index, "llm", 42}; }
  static CallResult Result(CallStatus status) { return CallResult{"llm", 42, status, 0, ""}; }

  // The log now holds these call results for the state.
  void Saved(std::vector<CallResult> calls) {
    DecodedState decoded{Key(), ActionState{}};
    decoded.state.call_results = std::move(calls);
    checker_.OnRecordAppended(LogRecord{}, &decoded, trace_.Add(SimTime{}, 1, "appended", ""));
  }
  void Called(int index) { checker_.OnSupplierCall(Call(index), CallArgument{}, trace_.Add(SimTime{}, 1, "supplier.call", "")); }

  Trace trace_;
  RetryBudgetChecker checker_;
};

TEST_F(RetryBudgetCheckerTest, TheTriesOfTheBudgetPass) {
  Saved({Result(CallStatus::kPending)});
  Called(0);
  Saved({Result(CallStatus::kFailed), Result(CallStatus::kPending)});
  Called(1);
  Called(1);  // the PENDING slot of try 2 called again: not a new try
  EXPECT_TRUE(checker_.violations().empty());
}

TEST_F(RetryBudgetCheckerTest, ATryOverTheBudgetIsAViolation) {
  Saved({Result(CallStatus::kFailed), Result(CallStatus::kFailed), Result(CallStatus::kPending)});
  Called(2);
  ASSERT_EQ(checker_.violations().size(), 1u);
  EXPECT_EQ(checker_.violations()[0].invariant, Invariant::kRetryBudget);
}

TEST_F(RetryBudgetCheckerTest, ACallAfterASuccessStartsItsOwnTries) {
  Saved({Result(CallStatus::kFailed), Result(CallStatus::kSucceeded), Result(CallStatus::kFailed),
         Result(CallStatus::kPending)});
  Called(3);
  EXPECT_TRUE(checker_.violations().empty());
}

}  // namespace
}  // namespace durasim
