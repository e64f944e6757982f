// Pairwise coverage: how many seeds of a sweep hit each pair of coverage
// points (model/coverage.h: fault kinds, script faults, world features,
// key shapes, log events, store events) in one run. Bugs live where
// features meet, and a point that fires often can still never meet
// another. A pair counts when it can meet: some design the sweep ran
// reaches both points (a Fluss table has no added partitions; a store
// event is one design's). `explore --require-pairs N` fails a sweep where
// such a pair was hit together by fewer than N seeds.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/store_designs.h"

namespace durasim {

struct PairCount {
  std::string first;   // the pair's names, first < second
  std::string second;
  int64_t seeds = 0;   // seeds that hit both
  bool operator==(const PairCount&) const = default;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PairCount, first, second, seeds)

// What one seed's run hit: its design and its coverage points' hits.
struct SeedHits {
  StoreDesign store;
  const std::map<std::string, int64_t>* hits;
};

// Every pair of the points the sweep's designs require (RequiredCoverage)
// that can meet, with the seeds that hit both, in name order.
std::vector<PairCount> CountPairs(const std::vector<SeedHits>& seeds);

// The pairs of `table` hit together by fewer than `min` seeds, fewest first.
std::vector<PairCount> ThinPairs(const std::vector<PairCount>& table, int64_t min);

// Whether some design of `designs` reaches both points.
bool CanMeet(const std::string& a, const std::string& b, const std::vector<StoreDesign>& designs);

}  // namespace durasim
