// NodePool: a map served by a pool holds what a plain map holds, in the same
// order, and reuses the nodes it gave up.
#include "store/node_pool.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "store/hash.h"

namespace durasim {
namespace {

using Map = std::map<std::string, int>;

TEST(NodePoolTest, HoldsWhatAPlainMapHolds) {
  // Strategy: one seeded sequence of inserts and erases of few keys (so
  // entries come and go, as a put in flight does) applied to a pooled map
  // and to a plain one.
  // Invariant: after every step both hold the same entries in the same order.
  Map pooled;
  Map plain;
  NodePool<Map> nodes;
  uint64_t state = 20261207;
  for (int step = 0; step < 5000; ++step) {
    state = Mix64(state);
    const std::string key = "key-" + std::to_string(state % 7) + std::string(state % 3 == 0 ? 20 : 0, 'x');
    const int value = static_cast<int>(state >> 40);
    auto at = pooled.lower_bound(key);
    if (at != pooled.end() && at->first == key) {
      nodes.Erase(pooled, at);
      plain.erase(key);
    } else {
      nodes.Insert(pooled, at, key, value);
      plain.emplace(key, value);
    }
    ASSERT_EQ(pooled, plain) << "step " << step;
  }
}

TEST(NodePoolTest, ReusesTheNodeItGaveUp) {
  // Strategy: erase an entry, insert another key.
  // Invariant: the new entry lives where the erased one did (no allocation),
  // with the new key and value.
  Map map;
  NodePool<Map> nodes;
  nodes.Insert(map, map.end(), "a", 1);
  const std::pair<const std::string, int>* before = &*map.begin();
  nodes.Erase(map, map.begin());
  EXPECT_TRUE(map.empty());
  auto inserted = nodes.Insert(map, map.end(), "b", 2);
  EXPECT_EQ(&*inserted, before);
  EXPECT_EQ(map, (Map{{"b", 2}}));
}

TEST(NodePoolTest, KeepsAtMostItsCapacity) {
  // Strategy: a pool of two gives up three entries, then three are inserted.
  // Invariant: the first two reuse kept nodes (the last kept first), the
  // third is a new node; the map holds all three.
  Map map;
  NodePool<Map, 2> nodes;
  for (const char* key : {"a", "b", "c"}) nodes.Insert(map, map.end(), key, 0);
  const auto* a = &*map.find("a");
  const auto* b = &*map.find("b");
  while (!map.empty()) nodes.Erase(map, map.begin());  // a and b kept, c freed
  const auto* x = &*nodes.Insert(map, map.end(), "x", 1);
  const auto* y = &*nodes.Insert(map, map.end(), "y", 2);
  EXPECT_EQ(x, b);
  EXPECT_EQ(y, a);
  const auto* z = &*nodes.Insert(map, map.end(), "z", 3);
  EXPECT_NE(z, a);
  EXPECT_NE(z, b);
  EXPECT_EQ(map, (Map{{"x", 1}, {"y", 2}, {"z", 3}}));
}

TEST(NodePoolDeathTest, AKeyAlreadyThereIsABug) {
  // Strategy: insert a key the map holds, through a kept node.
  // Invariant: the check aborts (an insert that failed would leave the
  // entry's old value in place silently).
  Map map;
  NodePool<Map> nodes;
  nodes.Insert(map, map.end(), "a", 1);
  nodes.Insert(map, map.end(), "b", 2);
  nodes.Erase(map, map.find("b"));
  EXPECT_DEATH(nodes.Insert(map, map.end(), "a", 3), "node.empty");
}

}  // namespace
}  // namespace durasim
