// The backend table.
#include "model/backends/backend_kind.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(BackendKind kind) {
  switch (kind) {
    case BackendKind::kModel: return EnumInfo{"model", "in-memory"};
    case BackendKind::kMock: return EnumInfo{"mock", "librdkafka's mock cluster"};
    case BackendKind::kKafka: return EnumInfo{"kafka", "a real broker"};
    case BackendKind::kFluss: return EnumInfo{"fluss", "a real Apache Fluss cluster, through the gateway"};
  }
  return std::nullopt;
}

}  // namespace durasim
