// CancellationChecker implementation.
#include "properties/cancellation_checker.h"

#include <algorithm>

#include "store/format.h"

namespace durasim {

void CancellationChecker::OnAttemptStart(int /*attempt*/) { injected_.clear(); }

void CancellationChecker::OnCancelInjected(const std::optional<StateKey>& put, size_t trace_index) {
  injected_.push_back(Injected{put, trace_index});
}

void CancellationChecker::OnPutResult(const StateKey& key, uint64_t /*value_digest*/, const Status& status,
                                      size_t trace_index) {
  auto it = std::find_if(injected_.begin(), injected_.end(),
                         [&](const Injected& injected) { return !injected.put || *injected.put == key; });
  if (it == injected_.end()) return;
  if (status.code() != StatusCode::kCancelled) {
    Violate(Invariant::kCancellation,
            fmt::format("the put of {:?} seq {} was cancelled but returned {}", key.key, key.seq, status.ToString()),
            {it->trace_index, trace_index});
  }
  injected_.erase(it);
}

void CancellationChecker::OnCancelSeen(const Status& /*put_status*/, bool still_visible, size_t trace_index) {
  if (!still_visible) {
    Violate(Invariant::kCancellation, "a cancelled put left the caller's cancellation state cleared", {trace_index});
  }
}

}  // namespace durasim
