// Aimed points: coverage points rare by construction inside their family
// (a reconciler's `unknown` needs a call in flight at a crash; the real
// get() keeps later states only where one key has one state per input; a
// version-1 marker is read only where no tombstone can be ...), which a
// boosted seed of the generator may aim at (issue 32, docs/exploring.md
// "Aimed points"). Each reshapes the scenario so that its point is likely
// hit whatever else the seed drew, so that the point meets the others.
//
// A point reshapes in up to four stages of GenerateFromSeed, each from the
// point's own stream of choices (Aims), so that what one point draws never
// moves another's draws. Every stage but kDesign reshapes alike whatever
// the store design; kDesign's draws come last in their point's stream.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "model/enum_table.h"
#include "model/scenario.h"
#include "properties/choices.h"

namespace durasim {

enum class AimedPoint {
  kReconcileInFlight,        // scripted reconcilers, a crash with a call's PENDING slot saved
  kOneKeyGet,                // one key, one action on the input, the real get()
  kLegacyMarkers,            // the restores that can read a version-1 marker read one
  kCleanupUnderCompaction,   // tombstones a compaction removes (DrawCleanupUnderCompaction, always)
  kAddedPartitionsRestored,  // partitions added after a completed checkpoint, then that checkpoint restored
  kRecreateTopic,            // the topic re-created in a faulty attempt
  kRareFaults,               // each faulty attempt arms a fault whose point is met least
  kRewriteFaults,            // a checkpoint mid-run; on kafka-rewrite, faults at its rewrites
};
std::optional<EnumInfo> EnumInfoOf(AimedPoint point);

// The checkpoint of the aimed cleanup chain (DrawCleanupUnderCompaction).
inline constexpr const char* kCleanupCheckpoint = "cp_cleanup";

// How often a boosted seed aims at `point`, in percent.
uint64_t AimPercent(AimedPoint point);
// Each point with its AimPercent, from a boosted seed's aim stream.
std::vector<AimedPoint> DrawAimedPoints(Choices& choices);

// Where in GenerateFromSeed a point reshapes the scenario.
enum class AimStage {
  kLog,      // before the store design is drawn: log steps and arms, alike for every design
  kDesign,   // after the design and its faults: what only one design does
  kMarkers,  // after the hand-made markers' draw, before the design's fit
  kRuntime,  // after every other draw but the get option's
};

// The aimed points of one seed, each with its own stream of choices.
class Aims {
 public:
  // `stream_seed`: the seed mixed with the generator's aim-stream constant.
  Aims(uint64_t stream_seed, const std::vector<AimedPoint>& points);

  bool Has(AimedPoint point) const;
  // Reshapes `scenario` for every aimed point that acts at `stage`.
  void Apply(AimStage stage, Scenario& scenario);

 private:
  std::vector<std::pair<AimedPoint, PrngChoices>> points_;
};

}  // namespace durasim
