// Store design names and options.
#include "model/store_designs.h"

#include "model/scenario.h"

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
  }
  return std::nullopt;
}

const char* OriginOf(StoreDesign design) {
  switch (design) {
    case StoreDesign::kKafkaRewind:
      return "durasim's fix of apache/flink-agents #1158 (the upstream getRecoveryMarker read has no rewind)";
    case StoreDesign::kKafkaRewrite: return "apache/flink-agents #1175 (rewrite unfinished states at snapshot)";
  }
  DURASIM_CHECK_MSG(false, "a store design cast from outside its table");
  return "";
}

StoreOptions StoreOptionsOf(const Scenario& scenario) {
  return StoreOptions{scenario.store, scenario.log.tombstones,
                      scenario.log.tombstones && scenario.log.delete_retention_ms > 0};
}

}  // namespace durasim
