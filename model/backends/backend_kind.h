// BackendKind: where a run's log lives (model/backends/log_backend.h), named
// as --backend and the reports write it.
#pragma once

#include <optional>

#include "model/enum_table.h"

namespace durasim {

enum class BackendKind {
  kModel,  // the in-memory KafkaLog
  kMock,   // librdkafka's mock cluster, in process
  kKafka,  // a real broker
  kFluss,  // a real Apache Fluss cluster, through durasim's gateway (ci/fluss/)
};

std::optional<EnumInfo> EnumInfoOf(BackendKind kind);

// Why backend fluss runs one store design: its log is a Fluss log table,
// which only the Fluss store writes (a Kafka store's tombstones, compaction
// and DeleteRecords have no Fluss counterpart).
inline constexpr const char* kFlussBackendOnly =
    "the fluss backend is a Fluss log table, which only the fluss store design writes";

}  // namespace durasim
