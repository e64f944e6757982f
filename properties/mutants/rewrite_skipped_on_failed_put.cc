// RewriteSkippedOnFailedPutStore implementation.
#include "properties/mutants/rewrite_skipped_on_failed_put.h"

namespace durasim {

boost::asio::awaitable<Status> RewriteSkippedOnFailedPutStore::CompleteSnapshot(const CompletedBoundaries& completed,
                                                                                const RecoveryMarker& marker) {
  const Status written = co_await KafkaActionStateStore::CompleteSnapshot(completed, marker);
  // The bug: the failure is logged and forgotten.
  (void)written;
  co_return Status::Ok();
}

}  // namespace durasim
