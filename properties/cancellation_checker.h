// Invariant: cancellation reaches the caller and stays observable. After a
// put's wait is cancelled, that put returns kCancelled, and the caller's
// cancellation state is still set afterwards.
#pragma once

#include <optional>

#include "properties/invariant_checker.h"

namespace durasim {

class CancellationChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int attempt) override;
  void OnCancelInjected(size_t trace_index) override;
  void OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status, size_t trace_index) override;
  void OnCancelSeen(const Status& put_status, bool still_visible, size_t trace_index) override;

 private:
  std::optional<size_t> injected_;  // trace index of a cancellation not yet delivered
};

}  // namespace durasim
