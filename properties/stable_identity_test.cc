// Tests of StableIdentity: reported names map to production identities.
#include "properties/stable_identity.h"

#include <gtest/gtest.h>

#include "model/identity.h"
#include "store/hash.h"

#include <vector>

namespace durasim {
namespace {

TEST(StableIdentityTest, ProductionNamesMapToThemselves) {
  // Strategy: names made by the production hashes come back unchanged.
  // Invariant: for the production runtime the checkers' view is the runtime's.
  StableIdentity stable;
  const StateKey key{"k", 1, InputEventHash(7), ActionHash("a0")};
  stable.LearnTask(TaskView{key, "a0", 0});
  const CallIdentity call{key, 0, "s0", CallArgsDigest("s0", 7)};
  stable.LearnCall(call, CallArgument{7, std::nullopt});
  EXPECT_EQ(stable.Of(key), key);
  EXPECT_EQ(stable.Of(call), call);
}

TEST(StableIdentityTest, PerAttemptNamesMapToOneIdentity) {
  // Strategy: two attempts name the same action and call differently (as a
  // per-process action hash and a per-attempt digest would).
  // Invariant: both map to the production identity, so a repeat is visible.
  StableIdentity stable;
  std::vector<CallIdentity> calls;
  for (uint64_t attempt = 1; attempt <= 2; ++attempt) {
    const StateKey key{"k", 1, InputEventHash(7), HashCombine(ActionHash("a0"), attempt)};
    stable.LearnTask(TaskView{key, "a0", 0});
    const CallIdentity call{key, 0, "s0", HashCombine(CallArgsDigest("s0", 7), attempt)};
    stable.LearnCall(call, CallArgument{7, std::nullopt});
    calls.push_back(call);
  }
  EXPECT_NE(calls[0], calls[1]);
  EXPECT_EQ(stable.Of(calls[0]), stable.Of(calls[1]));
  EXPECT_EQ(stable.Of(calls[0]).state_key.action_hash, ActionHash("a0"));
  EXPECT_EQ(stable.Of(calls[0]).args_digest, CallArgsDigest("s0", 7));
}

TEST(StableIdentityTest, ANameRelearntAsItselfStandsForItself) {
  // Strategy: one reported action hash and one reported call stand first for
  // another name, then for themselves (a name reused in a later attempt).
  // Invariant: the last lesson wins, also when it is the name itself (which
  // the class does not keep: it forgets the earlier one).
  StableIdentity stable;
  const StateKey key{"k", 1, InputEventHash(7), ActionHash("a1")};
  stable.LearnTask(TaskView{key, "a0", 0});
  EXPECT_EQ(stable.Of(key).action_hash, ActionHash("a0"));
  stable.LearnTask(TaskView{key, "a1", 0});
  EXPECT_EQ(stable.Of(key), key);

  const CallIdentity call{key, 0, "s0", CallArgsDigest("s0", 8)};
  stable.LearnCall(call, CallArgument{7, std::nullopt});
  EXPECT_EQ(stable.Of(call).args_digest, CallArgsDigest("s0", 7));
  stable.LearnCall(call, CallArgument{8, std::nullopt});
  EXPECT_EQ(stable.Of(call), call);
}

TEST(StableIdentityTest, UnknownNamesStayAsReported) {
  // Strategy: a record whose action or call was never reported.
  // Invariant: it is compared as it is (no guess).
  StableIdentity stable;
  const StateKey key{"k", 2, 11, 22};
  EXPECT_EQ(stable.Of(key), key);
}

}  // namespace
}  // namespace durasim
