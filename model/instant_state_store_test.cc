// Strategy: InstantStateStore as the run without faults uses it: a put is
// acknowledged at once and read back, a later put of a key replaces it,
// prune drops exactly the states of one input key up to a sequence number
// (the edges: other keys, a key that is a prefix of another, the largest
// sequence number), and what it cannot do (rebuild, mark) is an error.
#include "model/instant_state_store.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "store/run_sync.h"

namespace durasim {
namespace {

StateKey Key(const std::string& key, int64_t seq, uint64_t action_hash = 0xa1) {
  return StateKey{key, seq, 0xe1, action_hash};
}

ActionState Completed(int64_t output) {
  ActionState state;
  state.emitted_events.push_back(EmittedEvent{kOutputEventType, output});
  state.completed = true;
  return state;
}

TEST(InstantStateStoreTest, APutIsReadBackAndALaterPutReplacesIt) {
  InstantStateStore store;
  EXPECT_FALSE(store.Get(Key("k", 1)).has_value());
  ASSERT_TRUE(RunSync(store.Put(Key("k", 1), Completed(10))).ok());
  ASSERT_TRUE(RunSync(store.Put(Key("k", 1), Completed(20))).ok());
  ASSERT_TRUE(RunSync(store.Put(Key("k", 1, 0xa2), Completed(30))).ok());
  EXPECT_EQ(store.Get(Key("k", 1)), Completed(20));
  EXPECT_EQ(store.Get(Key("k", 1, 0xa2)), Completed(30));
  EXPECT_FALSE(store.Get(Key("k", 2)).has_value());
  EXPECT_EQ(store.Stats().cached_states, 2u);
}

TEST(InstantStateStoreTest, PruneDropsOneKeysStatesUpToASequenceNumber) {
  InstantStateStore store;
  for (const char* key : {"a", "ab", "b"}) {
    for (int64_t seq = 1; seq <= 3; ++seq) ASSERT_TRUE(RunSync(store.Put(Key(key, seq), Completed(seq))).ok());
  }
  store.Prune("a", 2);
  EXPECT_FALSE(store.Get(Key("a", 1)).has_value());
  EXPECT_FALSE(store.Get(Key("a", 2)).has_value());
  EXPECT_TRUE(store.Get(Key("a", 3)).has_value());
  EXPECT_TRUE(store.Get(Key("ab", 1)).has_value());  // "a" is a prefix of "ab", not the same key
  EXPECT_EQ(store.CachedInputKeys(), (std::vector<std::string>{"a", "ab", "b"}));

  store.Prune("ab", std::numeric_limits<int64_t>::max());
  EXPECT_EQ(store.CachedInputKeys(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(store.Get(Key("b", 1)).has_value());
  EXPECT_EQ(store.Stats().cached_states, 4u);
}

TEST(InstantStateStoreTest, HasNoLogToRebuildFromOrToMark) {
  InstantStateStore store;
  EXPECT_EQ(store.Rebuild(RecoveryMarker{}).code(), StatusCode::kInternal);
  EXPECT_EQ(store.GetRecoveryMarker(CompletedBoundaries{}).status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace durasim
