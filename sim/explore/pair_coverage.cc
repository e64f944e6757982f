// Pairwise coverage implementation.
#include "sim/explore/pair_coverage.h"

#include <algorithm>

#include "model/coverage.h"
#include "store/check.h"

namespace durasim {

namespace {

// Whether `design` reaches the point named `name`: a world feature or a log
// event as Reachable says, a store event on its own design, anything else
// (fault kinds, script faults, key shapes) on every design.
bool Reaches(StoreDesign design, const std::string& name) {
  if (std::optional<WorldFeature> feature = ParseName<WorldFeature>(name)) return Reachable(*feature, design);
  if (std::optional<LogEvent> event = ParseName<LogEvent>(name)) return Reachable(*event, design);
  if (std::optional<StoreEvent> event = ParseName<StoreEvent>(name)) return DesignOf(*event) == design;
  return true;
}

// Points no run reaches together, whatever the design: a store with
// tombstones rejects every version-1 marker (it holds no boundaries), so an
// accepted legacy restore never meets what needs tombstones; a run without a
// store (restored_without_store) writes and reads no record, so no put or
// record fault fires, nothing saved is replayed or reconciled, and no
// restore reads a marker to find stale or a partition added since; and the
// log events that count only where records leave the log (a compaction
// that removed one, deleted records, retention) meet it only on records
// from outside (a `foreign` step), which nothing in such a run reads: the
// pair checks nothing. The real
// get() is drawn where every input has one key: no pair of keys (a
// separator-prefix pair, typed twins) meets it.
bool Exclusive(const std::string& a, const std::string& b) {
  static const std::pair<const char*, const char*> kExclusive[] = {
      {"legacy_marker_read", "tombstone_fault"},
      {"legacy_marker_read", "tombstones_removed"},
      {"sync_fallback", "crash_async_in_flight"},  // no executor: no async call is ever in flight
      {"sync_fallback", "checkpoint_drained"},  // the worker-pool engine replaces the sync fallback
      {"added_partitions_rejected", "added_partitions_restored"},  // one store option or the other
      // get: evict_on_divergence is drawn only where all inputs share one key
      // (properties/scenario_generator.cc, OneStatePerInputOfOneKey).
      {"later_states_kept", "keys_separator_prefix"},
      {"later_states_kept", "typed_key_twins"},  // twins are two keys
      // no legacy marker is drawn where the log may hold tombstones
      {"legacy_marker_read", "tombstones_migrated"},
  };
  static const char* const kNeedAStore[] = {
      "added_partitions_rejected", "added_partitions_restored", "cancel_put", "checkpoint_failed",
      "completion_only_call", "corrupt_record", "crash_after_put_acked", "crash_after_put_persisted",
      "failure_reraised", "hand_made_markers", "later_states_kept", "legacy_marker_read", "lose_ack",
      "memory_replayed",
      "reconciled_done", "reconciled_not_done", "reconciled_unknown", "reject_put", "rewrite_failed",
      "rewrites_written", "saved_call_mismatch", "stale_marker", "tombstone_fault", "tombstones_removed",
      "compact", "delete_records", "retention",
  };
  const auto one_needs_a_store = [&](const std::string& without, const std::string& other) {
    return without == "restored_without_store" &&
           std::any_of(std::begin(kNeedAStore), std::end(kNeedAStore), [&](const char* name) { return other == name; });
  };
  if (one_needs_a_store(a, b) || one_needs_a_store(b, a)) return true;
  return std::any_of(std::begin(kExclusive), std::end(kExclusive), [&](const auto& pair) {
    return (a == pair.first && b == pair.second) || (a == pair.second && b == pair.first);
  });
}

}  // namespace

bool CanMeet(const std::string& a, const std::string& b, const std::vector<StoreDesign>& designs) {
  if (Exclusive(a, b)) return false;
  return std::any_of(designs.begin(), designs.end(),
                     [&](StoreDesign design) { return Reaches(design, a) && Reaches(design, b); });
}

std::vector<PairCount> CountPairs(const std::vector<SeedHits>& seeds) {
  std::vector<StoreDesign> designs;
  for (const SeedHits& seed : seeds) {
    if (std::find(designs.begin(), designs.end(), seed.store) == designs.end()) designs.push_back(seed.store);
  }
  // No seed: every design's pairs are missing, as RequiredCoverage({}) has
  // every design's points.
  if (designs.empty()) designs = AllOf<StoreDesign>();
  std::vector<std::string> points = RequiredCoverage(designs);
  std::sort(points.begin(), points.end());
  const size_t n = points.size();
  std::vector<int64_t> together(n * n, 0);
  std::vector<size_t> hit;  // indices of the points one seed hit
  for (const SeedHits& seed : seeds) {
    DURASIM_CHECK(seed.hits != nullptr);  // every seed names its hits
    hit.clear();
    // Both are in name order: one pass over each, not a lookup per point.
    auto next = seed.hits->begin();
    for (size_t i = 0; i < n && next != seed.hits->end(); ++i) {
      while (next != seed.hits->end() && next->first < points[i]) ++next;
      if (next != seed.hits->end() && next->first == points[i]) hit.push_back(i);
    }
    for (size_t x = 0; x < hit.size(); ++x) {
      for (size_t y = x + 1; y < hit.size(); ++y) ++together[hit[x] * n + hit[y]];
    }
  }
  // CanMeet's rule with each point's names parsed once per design, not
  // once per pair (about 8 M instructions of a sweep's end otherwise).
  std::vector<std::vector<char>> reaches(designs.size(), std::vector<char>(n));
  for (size_t d = 0; d < designs.size(); ++d) {
    for (size_t i = 0; i < n; ++i) reaches[d][i] = Reaches(designs[d], points[i]);
  }
  const auto can_meet = [&](size_t i, size_t j) {
    if (Exclusive(points[i], points[j])) return false;
    return std::any_of(reaches.begin(), reaches.end(), [&](const std::vector<char>& r) { return r[i] && r[j]; });
  };
  std::vector<PairCount> table;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (can_meet(i, j)) table.push_back(PairCount{points[i], points[j], together[i * n + j]});
    }
  }
  return table;
}

std::vector<PairCount> ThinPairs(const std::vector<PairCount>& table, int64_t min) {
  std::vector<PairCount> thin;
  for (const PairCount& pair : table) {
    if (pair.seeds < min) thin.push_back(pair);
  }
  std::stable_sort(thin.begin(), thin.end(), [](const PairCount& a, const PairCount& b) { return a.seeds < b.seeds; });
  return thin;
}

}  // namespace durasim
