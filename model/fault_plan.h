// FaultPlan: the faults armed for one attempt and the counters of the points
// where they can fire (puts produced, records persisted, acknowledgements,
// durable calls finished, async calls started, checkpoint barriers). Each
// armed fault fires once, on the nth matching point counted from the
// attempt's start: over every subtask of the job, or, for a fault armed on
// one subtask, over that subtask's points only. A snapshot is the job's
// point (the checkpoint saved once every subtask has snapshotted): it counts
// for every arm.
#pragma once

#include <functional>
#include <map>
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

  // Returns the armed fault's index (0, 1, ... in arming order). `subtask`:
  // count only that subtask's points.
  size_t Arm(FaultKind kind, int64_t nth, std::optional<int32_t> subtask = std::nullopt);
  // Faults off, e.g. for the healed epilogue of a run.
  void DisarmAll();

  // The runtime says which put comes next (start, pending, result,
  // complete), so put faults can report the point they hit.
  void NoteNextPut(PutPoint why) { next_put_ = why; }

  // Each point names the subtask it happened in.
  enum class PutFate { kDeliver, kReject, kLoseAck };
  // A put was produced; decides its fate. Returns its ordinal (the job's)
  // too.
  PutFate OnProduce(int64_t& ordinal, int subtask);
  // The log holds a put's record at (partition, offset).
  void OnPersisted(int32_t partition, int64_t offset, int subtask);
  void OnAcked(int subtask);
  // `subtask`: whose put it is (its wait is the one a cancel_put cancels).
  void OnWaitStarted(int64_t ordinal, int subtask);
  void OnCallResultSaved(bool more_calls_follow, int subtask);
  void OnAsyncCallStarted(int subtask);
  // A durable call (sync or async) is in flight; true when it must be
  // cancelled (the caller cancels it: only the runtime knows which call).
  bool OnCallStarted(int subtask);
  // Returns true when the attempt crashed instead of taking the checkpoint.
  bool OnCheckpointBarrier(int subtask);
  void OnCheckpointTaken();

 private:
  struct Armed {
    FaultKind kind;
    int64_t nth;
    std::optional<int32_t> subtask;
    bool fired = false;
    bool disarmed = false;
  };
  // How many points of each kind happened, in the job or in one subtask.
  struct Counters {
    int64_t produced = 0;
    int64_t persisted = 0;
    int64_t acked = 0;
    int64_t calls_saved = 0;
    int64_t async_started = 0;
    int64_t calls_started = 0;
    int64_t barriers = 0;
  };
  // A point of subtask `subtask` (-1: the job's): its number in the job and
  // in its subtask.
  struct Count {
    int64_t job = 0;
    int64_t in_subtask = 0;
    int subtask = -1;
  };
  Count Next(int64_t Counters::*counter, int subtask);
  // Fires and returns true when an armed fault of `kind` matches `count`.
  bool Fire(FaultKind kind, const Count& count, std::optional<PutPoint> put);
  void Crash(FaultKind kind, const Count& count, std::optional<PutPoint> put, const std::string& reason);

  Hooks hooks_;
  std::vector<Armed> armed_;
  std::optional<PutPoint> next_put_;  // none before the attempt's first put
  Counters job_;
  std::map<int, Counters> by_subtask_;
  std::map<int64_t, Count> produced_counts_;  // by the job's put ordinal
  int64_t snapshots_ = 0;
};

}  // namespace durasim
