// The script fault and put point tables, and coverage point names.
#include "model/coverage.h"

#include <fmt/format.h>

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(ScriptFault fault) {
  switch (fault) {
    case ScriptFault::kCrashStep: return EnumInfo{"crash_step", "a crash step in an attempt's script"};
    case ScriptFault::kCheckpointAbort: return EnumInfo{"checkpoint_abort", "a checkpoint is aborted"};
    case ScriptFault::kNeverNotified:
      return EnumInfo{"checkpoint_never_notified", "a checkpoint is neither completed nor aborted"};
    case ScriptFault::kRestoreOlder:
      return EnumInfo{"restore_older_checkpoint", "an attempt restores a completed checkpoint older than the latest"};
    case ScriptFault::kBrokerDown: return EnumInfo{"broker_down", "a window where the broker is unreachable"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(PutPoint point) {
  switch (point) {
    case PutPoint::kStart: return EnumInfo{"start", "the action's first state"};
    case PutPoint::kPending: return EnumInfo{"pending", "a durable call's slot, before the call"};
    case PutPoint::kResult: return EnumInfo{"result", "a durable call's result"};
    case PutPoint::kComplete: return EnumInfo{"complete", "the finished action"};
  }
  return std::nullopt;
}

std::string CoveragePoint::Name() const {
  const char* what = std::visit([](auto value) { return NameOf(value); }, what_);
  return put_.has_value() ? fmt::format("{}@{}", what, NameOf(*put_)) : std::string(what);
}

std::vector<std::string> RequiredCoverage() {
  std::vector<std::string> names = NamesOf<FaultKind>();
  for (const std::string& name : NamesOf<ScriptFault>()) names.push_back(name);
  return names;
}

}  // namespace durasim
