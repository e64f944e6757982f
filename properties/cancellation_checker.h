// Invariant: cancellation reaches the caller and stays observable. After a
// put's wait is cancelled, that put returns kCancelled, and the caller's
// cancellation state is still set afterwards. The cancelled put is the one
// the injection names: other puts (other keys, other subtasks) may finish
// in between, with their own results (seed 21739 of the long sweep).
#pragma once

#include <optional>
#include <vector>

#include "properties/invariant_checker.h"

namespace durasim {

class CancellationChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int attempt) override;
  void OnCancelInjected(const std::optional<StateKey>& put, size_t trace_index) override;
  void OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status, size_t trace_index) override;
  void OnCancelSeen(const Status& put_status, bool still_visible, size_t trace_index) override;

 private:
  struct Injected {
    std::optional<StateKey> put;  // none: the put is not known, the next result is taken as its
    size_t trace_index;
  };
  std::vector<Injected> injected_;  // cancellations not yet delivered
};

}  // namespace durasim
