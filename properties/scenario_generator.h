// The scenario generator: whole scenarios (plan, inputs, an attempt
// schedule with faults, and a healed last attempt) from a stream of
// choices. Every generated scenario is valid: ParseScenario accepts what
// WriteScenarioYaml makes of it.
//
// Swarm testing: each seed first draws which fault kinds are on at all and
// how often they are armed, so different seeds stress different mixes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/coverage.h"
#include "model/scenario.h"
#include "properties/aimed_points.h"
#include "properties/choices.h"

namespace durasim {

// The generator's late gates, each opening a family of features on some
// seeds (docs/exploring.md): memory and failing calls, changing calls and
// plans, parallelism and rescale, log events, log shapes, aimed faults,
// completions without notice, fresh lineages and foreign records.
enum class LateGate {
  kWorld,
  kChangingCalls,
  kParallelism,
  kLogEvents,
  kLogShapes,
  kAimedFaults,
  kSkippedNotices,
  kBlame,
};
std::optional<EnumInfo> EnumInfoOf(LateGate gate);

struct Swarm {
  std::vector<FaultKind> armed_kinds;        // on for this seed
  std::vector<ScriptFault> script_faults;    // on for this seed (model/coverage.h)
  uint64_t fault_percent = 50;               // chance per phase to arm one fault
  int64_t inputs_max = 10;
  int64_t keys_max = 3;
  int64_t actions_max = 2;
  int64_t faulty_attempts_max = 3;
  // Late gates opened whatever their own draw: two of them for some seeds,
  // so that rare features meet (pairwise coverage).
  std::vector<LateGate> forced_gates;
  // Points a boosted seed aims at (properties/aimed_points.h).
  std::vector<AimedPoint> aimed_points;
  // "armed=crash_after_put_acked,lose_ack script=abort,broker_down rate=40% ..."
  std::string Describe() const;
};

// Every fault kind and script fault on, for coverage checks.
Swarm FullSwarm();
Swarm DrawSwarm(Choices& choices);
Scenario GenerateScenario(Choices& choices, const Swarm& swarm);

struct Generated {
  Swarm swarm;
  Scenario scenario;
};
// The scenario of explore seed `seed`: swarm and scenario both from it,
// then its store design: a Kafka design and that design's faults, then
// fluss for a third of the seeds (so a seed that draws a Kafka design keeps
// what it meant before fluss). The draws are made whatever the design is:
// `store` (--store) overrides the drawn design and leaves every other draw
// as it was. Without `store`, `drawable` (a mutant's designs,
// DrawableDesigns in properties/mutants/mutant.h; empty: every design)
// narrows it: one design is taken as `store` is; the two Kafka designs
// draw no fluss.
Generated GenerateFromSeed(uint64_t seed, std::optional<StoreDesign> store = std::nullopt,
                           const std::vector<StoreDesign>& drawable = {});

// Drops the arms aimed at kafka-rewrite's rewrites (a seed that drew
// kafka-rewrite and its faults, then another design).
void DropRewriteArms(Scenario& scenario);

}  // namespace durasim
