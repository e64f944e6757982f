// NoReleaseOnSkippedNotificationRuntime implementation.
#include "properties/mutants/no_release_on_skipped_notification.h"

#include <algorithm>

namespace durasim {

void NoReleaseOnSkippedNotificationRuntime::ReleaseSubsumedCheckpoints(const std::string& id) {
  // The bug: only the notified checkpoint's entry goes; earlier ones stay.
  pending_checkpoints_.erase(id);
  std::erase(pending_order_, id);
}

}  // namespace durasim
