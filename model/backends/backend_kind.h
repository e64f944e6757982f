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
};

std::optional<EnumInfo> EnumInfoOf(BackendKind kind);

}  // namespace durasim
