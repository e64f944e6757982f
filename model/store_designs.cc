// Store design names and options.
#include "model/store_designs.h"

#include <algorithm>

#include "model/scenario.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(StoreDesign design) {
  switch (design) {
    case StoreDesign::kKafkaRewind:
      return EnumInfo{"kafka-rewind",
                      "Kafka topic; the marker is rewound to the oldest record of an unfinished action"};
    case StoreDesign::kKafkaRewrite:
      return EnumInfo{"kafka-rewrite",
                      "Kafka topic; unfinished actions' states are written again at snapshot, after the end-offset "
                      "marker"};
    case StoreDesign::kFluss:
      return EnumInfo{"fluss",
                      "Fluss log table; a bucket-offset marker without table identity, rewound as kafka-rewind's; "
                      "fixed buckets, no tombstones"};
  }
  return std::nullopt;
}

const char* OriginOf(StoreDesign design) {
  switch (design) {
    case StoreDesign::kKafkaRewind:
      return "durasim's fix of apache/flink-agents #1158 (the upstream getRecoveryMarker read has no rewind)";
    case StoreDesign::kKafkaRewrite: return "apache/flink-agents #1175 (rewrite unfinished states at snapshot)";
    case StoreDesign::kFluss:
      return "Flink Agents 0.3.0 FlussActionStateStore, its marker rewound (0.3.0's is the bucket end offsets: "
             "#1158's shape, the legacy-end-offset-marker mutant)";
  }
  DURASIM_CHECK_MSG(false, "a store design cast from outside its table");
  return "";
}

StoreOptions StoreOptionsOf(const Scenario& scenario, int attempt) {
  const bool tombstones = scenario.TombstonesIn(attempt);
  return StoreOptions{scenario.store, tombstones, tombstones && scenario.log.delete_retention_ms > 0,
                      scenario.store_options.added_partitions == AddedPartitions::kReject,
                      scenario.store_options.get == GetEviction::kOnDivergence};
}

namespace {

// The steps a Fluss log table has no counterpart of, and why.
const char* FlussCannot(AttemptStep::Kind kind) {
  switch (kind) {
    case AttemptStep::Kind::kAddPartitions:
      return "adds partitions: a Fluss table's buckets are fixed (0.3.0 fails a restore on a bucket-set mismatch)";
    case AttemptStep::Kind::kRecreateTopic:
      return "re-creates the topic: a Fluss marker names no table, so a restore cannot tell a re-created one";
    case AttemptStep::Kind::kCompact: return "compacts the log: a Fluss log table is append-only";
    default: return nullptr;
  }
}

}  // namespace

std::optional<std::string> NotRunnableOn(const Scenario& scenario, StoreDesign design) {
  if (design != StoreDesign::kFluss) return std::nullopt;
  if (scenario.log.tombstones) return std::string("log.tombstones: a Fluss log table holds no tombstones");
  for (size_t a = 0; a < scenario.attempts.size(); ++a) {
    if (scenario.attempts[a].tombstones.value_or(false)) {
      const SourcePos& pos = scenario.attempts[a].pos;
      const std::string at = pos.line > 0 ? fmt::format(" (line {})", pos.line) : "";
      return fmt::format("attempt {}{} turns tombstones on: a Fluss log table holds no tombstones", a + 1, at);
    }
  }
  if (scenario.store_options.added_partitions != AddedPartitions::kReadFromStart) {
    return std::string("store_options.added_partitions: a Fluss table's buckets are fixed");
  }
  for (size_t a = 0; a < scenario.attempts.size(); ++a) {
    for (const HandMadeMarkerSpec& marker : scenario.attempts[a].markers.value_or(std::vector<HandMadeMarkerSpec>{})) {
      if (marker.version || marker.topic) {
        const std::string at = marker.pos.line > 0 ? fmt::format(" (line {})", marker.pos.line) : "";
        return fmt::format("attempt {}{} writes a marker with a version or topic: a Fluss marker is a bucket -> "
                           "offset map only",
                           a + 1, at);
      }
    }
    for (const AttemptStep& step : scenario.attempts[a].during_rebuild) {
      if (const char* why = FlussCannot(step.kind)) {
        const std::string at = step.pos.line > 0 ? fmt::format(" (line {})", step.pos.line) : "";
        return fmt::format("attempt {}{} during its rebuild {}", a + 1, at, why);
      }
    }
    for (const AttemptStep& step : scenario.attempts[a].steps) {
      if (const char* why = FlussCannot(step.kind)) {
        const std::string at = step.pos.line > 0 ? fmt::format(" (line {})", step.pos.line) : "";
        return fmt::format("attempt {}{} {}", a + 1, at, why);
      }
    }
  }
  return std::nullopt;
}

void FitToDesign(Scenario& scenario, StoreDesign design) {
  if (design == StoreDesign::kFluss) {
    scenario.log.tombstones = false;
    scenario.store_options.added_partitions = AddedPartitions::kReadFromStart;
    for (AttemptSpec& attempt : scenario.attempts) {
      attempt.tombstones.reset();
      std::erase_if(attempt.steps, [](const AttemptStep& step) { return FlussCannot(step.kind) != nullptr; });
      std::erase_if(attempt.during_rebuild, [](const AttemptStep& step) { return FlussCannot(step.kind) != nullptr; });
      if (attempt.markers) {
        for (HandMadeMarkerSpec& marker : *attempt.markers) {  // its offsets only
          marker.version.reset();
          marker.topic.reset();
        }
      }
    }
  }
  DURASIM_CHECK(!NotRunnableOn(scenario, design).has_value());
}

}  // namespace durasim
