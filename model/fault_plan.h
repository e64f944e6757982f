// FaultPlan: the faults armed for one attempt and the counters of the points
// where they can fire (puts produced, records persisted, acknowledgements,
// durable calls finished, async calls started, checkpoint barriers). Each
// armed fault fires once, on the nth matching point counted from the
// attempt's start.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/coverage.h"
#include "model/scenario.h"

namespace durasim {

class FaultPlan {
 public:
  // `crash` stops the attempt now; `cancel_wait` cancels the put wait that is
  // starting; `corrupt` overwrites a persisted record with garbage; `fired`
  // reports a fault that fired (the index Arm returned, kind, nth, the put
  // it hit, if any).
  struct Hooks {
    std::function<void(const std::string& reason)> crash;
    std::function<void(int subtask)> cancel_wait;
    std::function<void(int32_t partition, int64_t offset)> corrupt;
    std::function<void(size_t armed, FaultKind fault, int64_t nth, std::optional<PutPoint> put)> fired;
  };

  explicit FaultPlan(Hooks hooks) : hooks_(std::move(hooks)) {}

  // Returns the armed fault's index (0, 1, ... in arming order).
  size_t Arm(FaultKind kind, int64_t nth);
  // Faults off, e.g. for the healed epilogue of a run.
  void DisarmAll();

  // The runtime says which put comes next (start, pending, result,
  // complete), so put faults can report the point they hit.
  void NoteNextPut(PutPoint why) { next_put_ = why; }

  enum class PutFate { kDeliver, kReject, kLoseAck };
  // A put was produced; decides its fate. Returns its ordinal too.
  PutFate OnProduce(int64_t& ordinal);
  // The log holds a put's record at (partition, offset).
  void OnPersisted(int32_t partition, int64_t offset);
  void OnAcked();
  // `subtask`: whose put it is (its wait is the one a cancel_put cancels).
  void OnWaitStarted(int64_t ordinal, int subtask);
  void OnCallResultSaved(bool more_calls_follow);
  void OnAsyncCallStarted();
  // A durable call (sync or async) is in flight; true when it must be
  // cancelled (the caller cancels it: only the runtime knows which call).
  bool OnCallStarted();
  // Returns true when the attempt crashed instead of taking the checkpoint.
  bool OnCheckpointBarrier();
  void OnCheckpointTaken();

 private:
  struct Armed {
    FaultKind kind;
    int64_t nth;
    bool fired = false;
    bool disarmed = false;
  };
  // Fires and returns true when an armed fault of `kind` matches `count`.
  bool Fire(FaultKind kind, int64_t count, std::optional<PutPoint> put);
  void Crash(FaultKind kind, int64_t count, std::optional<PutPoint> put, const std::string& reason);

  Hooks hooks_;
  std::vector<Armed> armed_;
  std::optional<PutPoint> next_put_;  // none before the attempt's first put
  int64_t produced_ = 0;
  int64_t persisted_ = 0;
  int64_t acked_ = 0;
  int64_t calls_saved_ = 0;
  int64_t async_started_ = 0;
  int64_t calls_started_ = 0;
  int64_t barriers_ = 0;
  int64_t snapshots_ = 0;
};

}  // namespace durasim
