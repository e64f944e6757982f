// CancellationChecker implementation.
#include "properties/cancellation_checker.h"

#include <fmt/format.h>

namespace durasim {

void CancellationChecker::OnAttemptStart(int /*attempt*/) { injected_.reset(); }

void CancellationChecker::OnCancelInjected(size_t trace_index) { injected_ = trace_index; }

void CancellationChecker::OnPutResult(const StateKey& key, uint64_t /*value_digest*/, const Status& status,
                                      size_t trace_index) {
  if (!injected_.has_value()) return;
  if (status.code() != StatusCode::kCancelled) {
    Violate(Invariant::kCancellation,
            fmt::format("the put of {:?} seq {} was cancelled but returned {}", key.key, key.seq, status.ToString()),
            {*injected_, trace_index});
  }
  injected_.reset();
}

void CancellationChecker::OnCancelSeen(const Status& /*put_status*/, bool still_visible, size_t trace_index) {
  if (!still_visible) {
    Violate(Invariant::kCancellation, "a cancelled put left the caller's cancellation state cleared", {trace_index});
  }
}

}  // namespace durasim
