// NodePool: a map served by a pool holds what a plain map holds, in the same
// order, and allocates a node only when the pool has none to give.
#include "store/node_pool.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "store/hash.h"

namespace durasim {
namespace {

// Counts the map's node allocations and frees (the map allocates nothing
// else).
struct NodeCounts {
  int64_t allocated = 0;
  int64_t freed = 0;
};
NodeCounts counts;

template <typename T>
struct CountingAllocator {
  using value_type = T;
  CountingAllocator() = default;
  template <typename U>
  CountingAllocator(const CountingAllocator<U>& /*other*/) {}
  T* allocate(size_t n) {
    ++counts.allocated;
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, size_t n) {
    ++counts.freed;
    std::allocator<T>().deallocate(p, n);
  }
  template <typename U>
  bool operator==(const CountingAllocator<U>& /*other*/) const {
    return true;
  }
};

using Map = std::map<std::string, int, std::less<>, CountingAllocator<std::pair<const std::string, int>>>;

TEST(NodePoolTest, HoldsWhatAPlainMapHolds) {
  // Strategy: one seeded sequence of inserts (hinted and not) and erases of
  // few keys, some too long for a string's inline buffer (so entries come
  // and go, as a put in flight does), applied to a pooled map and to a
  // plain one.
  // Invariant: after every step both hold the same entries in the same order.
  Map pooled;
  std::map<std::string, int> plain;
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
      if (state % 2 == 0) {
        nodes.Insert(pooled, at, key, value);
      } else {
        nodes.Insert(pooled, key, value);
      }
      plain.emplace(key, value);
    }
    ASSERT_TRUE(std::equal(pooled.begin(), pooled.end(), plain.begin(), plain.end())) << "step " << step;
  }
}

TEST(NodePoolTest, AllocatesOnlyWhenNoNodeIsKept) {
  // Strategy: a pool of two; three entries inserted, all erased, three
  // inserted again, counting the map's allocations.
  // Invariant: the first inserts allocate one node each; of the three
  // erases two keep their nodes and the third frees its node; the second
  // round reuses the two kept nodes and allocates one.
  Map map;
  NodePool<Map, 2> nodes;
  counts = {};
  for (const char* key : {"a", "b", "c"}) nodes.Insert(map, key, 0);
  EXPECT_EQ(counts.allocated, 3);
  while (!map.empty()) nodes.Erase(map, map.begin());
  EXPECT_EQ(counts.freed, 1);
  nodes.Insert(map, "x", 1);
  nodes.Insert(map, map.end(), "y", 2);
  EXPECT_EQ(counts.allocated, 3);
  nodes.Insert(map, "z", 3);
  EXPECT_EQ(counts.allocated, 4);
  EXPECT_TRUE((map == Map{{"x", 1}, {"y", 2}, {"z", 3}}));
}

TEST(NodePoolDeathTest, AKeyAlreadyThereIsABug) {
  // Strategy: insert a key the map holds, with no kept node and through one.
  // Invariant: the check aborts both times (an insert that failed would
  // leave the entry's old value in place silently).
  Map map;
  NodePool<Map> nodes;
  nodes.Insert(map, "a", 1);
  EXPECT_DEATH(nodes.Insert(map, "a", 3), "size_before");
  nodes.Insert(map, "b", 2);
  nodes.Erase(map, map.find("b"));
  EXPECT_DEATH(nodes.Insert(map, map.end(), "a", 3), "size_before");
}

}  // namespace
}  // namespace durasim
