// Tests of the ownership checker.
#include "properties/ownership_checker.h"

#include <gtest/gtest.h>

#include "model/trace.h"

namespace durasim {
namespace {

// Strategy: hand-fed resumes: the owner once is fine; a non-owner, and the
// same key twice in one attempt, are each a violation; a new attempt starts over.
TEST(OwnershipCheckerTest, OnlyTheOwnerResumesAKeyOnce) {
  Trace trace;
  OwnershipChecker checker(trace);
  const size_t line = trace.Add(SimTime{}, 2, "restore", "");
  checker.OnAttemptStart(2);
  checker.OnKeyResumed("a", 1, 1, line);
  EXPECT_TRUE(checker.violations().empty());
  checker.OnKeyResumed("b", 0, 1, line);
  ASSERT_EQ(checker.violations().size(), 1u);
  EXPECT_EQ(checker.violations()[0].invariant, Invariant::kOwnership);
  EXPECT_NE(checker.violations()[0].message.find("subtask 0 resumed in-flight key \"b\""), std::string::npos);
  checker.OnKeyResumed("a", 1, 1, line);
  ASSERT_EQ(checker.violations().size(), 2u);
  EXPECT_NE(checker.violations()[1].message.find("resumed twice"), std::string::npos);
  checker.OnKeyResumed("a", 1, 1, line);  // named once
  EXPECT_EQ(checker.violations().size(), 2u);
  checker.OnAttemptStart(3);
  checker.OnKeyResumed("c", 1, 1, line);
  EXPECT_EQ(checker.violations().size(), 2u);
}

// Strategy: a snapshot naming a key another subtask owns, or one key twice,
// is a violation at the checkpoint; a subtask's own distinct keys are fine.
TEST(OwnershipCheckerTest, ASnapshotHoldsOnlyDistinctOwnedKeys) {
  Trace trace;
  OwnershipChecker checker(trace);
  const size_t line = trace.Add(SimTime{}, 2, "checkpoint.taken", "");
  checker.OnProcessingKeysSnapshotted(0, {"a", "b"}, {0, 0}, line);
  EXPECT_TRUE(checker.violations().empty());
  checker.OnProcessingKeysSnapshotted(1, {"c", "a"}, {1, 0}, line);
  ASSERT_EQ(checker.violations().size(), 1u);
  EXPECT_NE(checker.violations()[0].message.find("subtask 1 snapshotted processing key \"a\", which subtask 0 owns"),
            std::string::npos);
  checker.OnProcessingKeysSnapshotted(1, {"c", "c"}, {1, 1}, line);
  ASSERT_EQ(checker.violations().size(), 2u);
  EXPECT_NE(checker.violations()[1].message.find("twice"), std::string::npos);
}

}  // namespace
}  // namespace durasim
