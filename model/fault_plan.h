// FaultPlan: the faults armed for one attempt and the counters of the points
// where they can fire (puts produced, records persisted, acknowledgements,
// async calls started, waits started). Each armed fault fires once, on the
// nth matching point counted from the attempt's start.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/scenario.h"

namespace durasim {

class FaultPlan {
 public:
  // `crash` stops the attempt now; `cancel_wait` cancels the put wait that is
  // starting; `record` writes a trace line (kind, detail).
  struct Hooks {
    std::function<void(const std::string& reason)> crash;
    std::function<void()> cancel_wait;
    std::function<void(std::string_view kind, const std::string& detail)> record;
  };

  explicit FaultPlan(Hooks hooks) : hooks_(std::move(hooks)) {}

  void Arm(FaultKind kind, int64_t nth);

  enum class PutFate { kDeliver, kReject, kLoseAck };
  // A put was produced; decides its fate. Returns its ordinal too.
  PutFate OnProduce(int64_t& ordinal);
  void OnPersisted();
  void OnAcked();
  void OnAsyncCallStarted();
  void OnWaitStarted(int64_t ordinal);

 private:
  struct Armed {
    FaultKind kind;
    int64_t nth;
    bool fired = false;
  };
  // Fires and returns true when an armed fault of `kind` matches `count`.
  bool Fire(FaultKind kind, int64_t count);

  Hooks hooks_;
  std::vector<Armed> armed_;
  int64_t produced_ = 0;
  int64_t persisted_ = 0;
  int64_t acked_ = 0;
  int64_t async_started_ = 0;
};

const char* FaultKindName(FaultKind kind);

}  // namespace durasim
