#include "sim/explore/pair_coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/coverage.h"
#include "model/enum_table.h"

namespace durasim {
namespace {

const PairCount* Find(const std::vector<PairCount>& table, const std::string& a, const std::string& b) {
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const PairCount& pair) { return pair.first == a && pair.second == b; });
  return it == table.end() ? nullptr : &*it;
}

TEST(PairCoverageTest, CountsTheSeedsThatHitBothPointsOfEachPair) {
  const std::map<std::string, int64_t> one = {{"lose_ack", 3}, {"rescale", 1}, {"lose_ack@start", 2}};
  const std::map<std::string, int64_t> two = {{"lose_ack", 1}, {"rescale", 2}, {"key_empty", 1}};
  const std::map<std::string, int64_t> three = {{"key_empty", 1}};
  const std::vector<PairCount> table = CountPairs({{StoreDesign::kKafkaRewind, &one},
                                                   {StoreDesign::kKafkaRewind, &two},
                                                   {StoreDesign::kKafkaRewind, &three}});
  ASSERT_NE(Find(table, "lose_ack", "rescale"), nullptr);
  EXPECT_EQ(Find(table, "lose_ack", "rescale")->seeds, 2);  // seeds, not hits
  EXPECT_EQ(Find(table, "key_empty", "lose_ack")->seeds, 1);
  EXPECT_EQ(Find(table, "key_empty", "rescale")->seeds, 1);
  EXPECT_EQ(Find(table, "compact", "lose_ack")->seeds, 0);  // required, never met: listed with 0
  EXPECT_EQ(Find(table, "lose_ack", "lose_ack@start"), nullptr);  // refinements are not points of a pair
  // Only kafka-rewind ran: the other designs' events are not required.
  EXPECT_EQ(Find(table, "buckets_rebuilt", "lose_ack"), nullptr);
  for (const PairCount& pair : table) EXPECT_LT(pair.first, pair.second);
}

TEST(PairCoverageTest, NoSeedsMissEveryPair) {
  // A shard that ran no seed must not pass --require-pairs.
  const std::vector<PairCount> table = CountPairs({});
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(ThinPairs(table, 1).size(), table.size());
  EXPECT_NE(Find(table, "buckets_rebuilt", "lose_ack"), nullptr);
}

// Strategy: CountPairs decides which pairs can meet from a table of what
// each design reaches; for every subset of designs it ran, the pairs it
// lists are exactly those CanMeet accepts.
TEST(PairCoverageTest, TheTableListsExactlyThePairsThatCanMeet) {
  const std::map<std::string, int64_t> none;
  const std::vector<StoreDesign> all = AllOf<StoreDesign>();
  for (size_t mask = 1; mask < (size_t{1} << all.size()); ++mask) {
    std::vector<SeedHits> seeds;
    std::vector<StoreDesign> designs;
    for (size_t d = 0; d < all.size(); ++d) {
      if ((mask >> d) & 1) {
        seeds.push_back({all[d], &none});
        designs.push_back(all[d]);
      }
    }
    std::vector<std::string> points = RequiredCoverage(designs);
    std::sort(points.begin(), points.end());
    std::vector<std::pair<std::string, std::string>> expected;
    for (size_t i = 0; i < points.size(); ++i) {
      for (size_t j = i + 1; j < points.size(); ++j) {
        if (CanMeet(points[i], points[j], designs)) expected.emplace_back(points[i], points[j]);
      }
    }
    std::vector<std::pair<std::string, std::string>> listed;
    for (const PairCount& pair : CountPairs(seeds)) listed.emplace_back(pair.first, pair.second);
    EXPECT_EQ(listed, expected) << "designs mask " << mask;
    EXPECT_FALSE(listed.empty());
  }
}

TEST(PairCoverageTest, APairMeetsOnlyWhereOneDesignReachesBoth) {
  const std::vector<StoreDesign> all = {StoreDesign::kKafkaRewind, StoreDesign::kKafkaRewrite, StoreDesign::kFluss};
  EXPECT_TRUE(CanMeet("lose_ack", "buckets_rebuilt", all));
  EXPECT_FALSE(CanMeet("add_partitions", "buckets_rebuilt", all));  // a Fluss table has fixed buckets
  EXPECT_FALSE(CanMeet("rewrites_written", "buckets_rebuilt", all));  // two designs' own events
  EXPECT_TRUE(CanMeet("rewrites_written", "add_partitions", all));
  EXPECT_FALSE(CanMeet("tombstones_removed", "legacy_marker_read", all));  // tombstones reject a legacy marker
  EXPECT_TRUE(CanMeet("legacy_marker_read", "recreate_topic", all));
  EXPECT_FALSE(CanMeet("lose_ack", "restored_without_store", all));  // no store: no put to lose
  EXPECT_TRUE(CanMeet("crash_step", "restored_without_store", all));
  EXPECT_FALSE(CanMeet("hand_made_markers", "restored_without_store", all));  // no store: no marker to hand
  EXPECT_FALSE(CanMeet("completion_only_call", "restored_without_store", all));  // no store: nothing saved
  EXPECT_FALSE(CanMeet("lose_ack", "rewrites_written", {StoreDesign::kFluss}));
}

TEST(PairCoverageTest, ThinPairsAreThoseBelowTheMinimumFewestFirst) {
  const std::vector<PairCount> table = {{"a", "b", 5}, {"a", "c", 0}, {"b", "c", 20}, {"b", "d", 3}};
  EXPECT_EQ(ThinPairs(table, 20), (std::vector<PairCount>{{"a", "c", 0}, {"b", "d", 3}, {"a", "b", 5}}));
  EXPECT_TRUE(ThinPairs(table, 0).empty());
}

}  // namespace
}  // namespace durasim
