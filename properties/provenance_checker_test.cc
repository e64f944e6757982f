// Tests of the provenance checker, fed observer events by hand.
#include "properties/provenance_checker.h"

#include <gtest/gtest.h>

#include "model/identity.h"

namespace durasim {
namespace {

class ProvenanceCheckerTest : public ::testing::Test {
 protected:
  StateKey Key() const { return StateKey{"a", 1, 7, ActionHash("ask")}; }
  CallIdentity Call(int index, uint64_t digest = 42) const { return CallIdentity{Key(), index, "llm", digest}; }
  static CallResult Succeeded(int64_t result, uint64_t digest = 42) {
    return CallResult{"llm", digest, CallStatus::kSucceeded, result, ""};
  }
  static CallResult Failed(std::string error) { return CallResult{"llm", 42, CallStatus::kFailed, 0, std::move(error)}; }

  void Answered(const CallIdentity& call, const CallResult& answer) {
    checker_.OnSupplierAnswered(call, answer, trace_.Add(SimTime{}, 1, "supplier.result", ""));
  }
  void Used(const CallIdentity& call, const CallResult& used, bool reused) {
    checker_.OnCallResultUsed(call, used, reused, trace_.Add(SimTime{}, 2, "call.reused", ""));
  }

  Trace trace_;
  ProvenanceChecker checker_{trace_};
};

// Strategy: a result and a failure the supplier answered are fine to use,
// made now or reused after a restore, and so is any of two answers to a
// call made again.
TEST_F(ProvenanceCheckerTest, AnsweredResultsAndFailuresMayBeUsed) {
  Answered(Call(0), Succeeded(5));
  Used(Call(0), Succeeded(5), false);
  Used(Call(0), Succeeded(5), true);
  Answered(Call(1), Failed("boom"));
  Used(Call(1), Failed("boom"), true);
  Answered(Call(2), Succeeded(7));
  Answered(Call(2), Succeeded(8));
  Used(Call(2), Succeeded(7), true);
  EXPECT_TRUE(checker_.violations().empty());
}

// Strategy: answers count within a lineage (docs/scenarios.md,
// "Lineages"): a new job going on with a result the job before it was
// answered is a violation naming both lineages; the first job's own
// reuse is fine, and so is the new job's own answer.
TEST_F(ProvenanceCheckerTest, AnotherLineagesAnswerIsNotThisLineages) {
  checker_.OnLineage(1);
  Answered(Call(0), Succeeded(5));
  Used(Call(0), Succeeded(5), true);
  EXPECT_TRUE(checker_.violations().empty());
  checker_.OnLineage(3);
  Used(Call(0), Succeeded(5), true);
  ASSERT_EQ(checker_.violations().size(), 1u);
  const std::string& message = checker_.violations()[0].message;
  EXPECT_NE(message.find("no supplier call of its lineage (the job started at attempt 3)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("the job started at attempt 1 did (result 5)"), std::string::npos) << message;
  Answered(Call(0), Succeeded(5));
  Used(Call(0), Succeeded(5), true);
  EXPECT_EQ(checker_.violations().size(), 1u);
}

// Strategy: a PENDING slot or a failure no supplier raised, used as a
// result, is a violation that says no supplier answered.
TEST_F(ProvenanceCheckerTest, AResultNoSupplierAnsweredIsAViolation) {
  Used(Call(0), CallResult{"llm", 42, CallStatus::kPending, 0, ""}, true);
  ASSERT_EQ(checker_.violations().size(), 1u);
  EXPECT_EQ(checker_.violations()[0].invariant, Invariant::kProvenance);
  EXPECT_NE(checker_.violations()[0].message.find("no supplier call ever answered"), std::string::npos);
}

// Strategy: a value other than the supplier's answer, or an answer saved
// for another argument digest, is a violation quoting the real answer.
TEST_F(ProvenanceCheckerTest, AnotherValueOrAnotherArgumentIsAViolation) {
  Answered(Call(0), Succeeded(5));
  Used(Call(0), Succeeded(6), true);
  Used(Call(0), Succeeded(5, 99), true);
  ASSERT_EQ(checker_.violations().size(), 2u);
  EXPECT_NE(checker_.violations()[0].message.find("its supplier answered result 5"), std::string::npos)
      << checker_.violations()[0].message;
  EXPECT_NE(checker_.violations()[1].message.find("saved for another function or argument"), std::string::npos)
      << checker_.violations()[1].message;
}

}  // namespace
}  // namespace durasim
