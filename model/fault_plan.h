// FaultPlan: the faults armed for one attempt and the counters of the points
// where they can fire (puts produced, records persisted, acknowledgements,
// durable calls finished, async calls started, checkpoint barriers). Each
// armed fault fires once, on the nth point it selects counted from the
// attempt's start: its kind's points over every subtask of the job, or, for
// a fault armed on one subtask, over that subtask's points only, and of
// those only the ones its selector names (a put's kind, key, sequence
// number, action, call). Tombstones are writes of their own kind, counted
// only by a fault that selects them. A snapshot is the job's point (the
// checkpoint saved once every subtask has snapshotted): it counts for every
// arm.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/coverage.h"
#include "model/fault_point.h"
#include "model/scenario.h"
#include "store/format.h"

namespace durasim {

class FaultPlan {
 public:
  // `crash` stops the attempt now; `cancel_wait` cancels the put wait that is
  // starting (the put's point: its subtask and state); `corrupt` overwrites a persisted record with garbage; `fired`
  // reports a fault that fired (the index Arm returned, kind, nth, the point
  // it hit).
  struct Hooks {
    std::function<void(const std::string& reason)> crash;
    std::function<void(const FaultPoint& put)> cancel_wait;
    std::function<void(int32_t partition, int64_t offset)> corrupt;
    std::function<void(size_t armed, FaultKind fault, int64_t nth, const FaultPoint& point)> fired;
  };

  explicit FaultPlan(Hooks hooks) : hooks_(std::move(hooks)) {}

  // Returns the armed fault's index (0, 1, ... in arming order). `subtask`:
  // count only that subtask's points; `select`: only the points it selects.
  size_t Arm(FaultKind kind, int64_t nth, std::optional<int32_t> subtask = std::nullopt,
             const FaultSelector& select = {});
  // The attempt's script arms only faults of these kinds (its arm steps):
  // the points of the other kinds' classes are not kept for arms to come.
  // Without it every point is kept. REQUIRES: nothing counted or armed
  // yet; Arm refuses a kind not announced.
  void ExpectArms(const std::vector<FaultKind>& kinds);
  // Faults off, e.g. for the healed epilogue of a run.
  void DisarmAll();
  // No fault will ever be armed: the run without faults (sim/run/runner.cc's
  // reference), whose points nobody counts. Points are no longer kept, and
  // a put's point need not be worked out (needs_put_points). REQUIRES:
  // nothing armed yet; Arm is refused from now on.
  void Seal();
  bool needs_put_points() const { return !sealed_; }

  // Each point names what it is about (FaultPoint), its subtask included.
  enum class PutFate { kDeliver, kReject, kLoseAck };
  // A write was produced; decides its fate. `ordinal` numbers the job's
  // writes (tombstones included), for OnWaitStarted.
  PutFate OnProduce(int64_t& ordinal, const FaultPoint& point);
  // The log holds a write's record at (partition, offset).
  void OnPersisted(int32_t partition, int64_t offset, const FaultPoint& point);
  void OnAcked(const FaultPoint& point);
  // The caller waits for write `ordinal` (its wait is the one a cancel_put
  // cancels).
  void OnWaitStarted(int64_t ordinal);
  void OnCallResultSaved(bool more_calls_follow, const FaultPoint& call);
  void OnAsyncCallStarted(const FaultPoint& call);
  // A durable call (sync or async) is in flight; true when it must be
  // cancelled (the caller cancels it: only the runtime knows which call).
  bool OnCallStarted(const FaultPoint& call);
  // Returns true when the attempt crashed instead of taking the checkpoint.
  bool OnCheckpointBarrier(int subtask);
  void OnCheckpointTaken();

 private:
  // Which points an arm counts: its kind's class of points.
  enum class PointClass { kProduced, kPersisted, kAcked, kCallSaved, kAsyncStarted, kCallStarted, kBarrier, kSnapshot };
  static constexpr size_t kPointClasses = static_cast<size_t>(PointClass::kSnapshot) + 1;  // kSnapshot stays last
  static PointClass ClassOf(FaultKind kind);

  struct Armed {
    FaultKind kind;
    int64_t nth;
    std::optional<int32_t> subtask;
    FaultSelector select;
    std::optional<uint64_t> action_hash;  // select.action's
    int64_t counted = 0;                  // the points it selected so far
    bool fired = false;
    bool disarmed = false;
  };
  // A write produced in this attempt and the cancel_put arm (if any) whose
  // nth write it is: the wait for it is the one that arm cancels.
  struct Produced {
    FaultPoint point;
    std::optional<size_t> cancel_arm;
  };

  // Per fault kind, the first arm (in arming order) whose nth point a point
  // is, if any.
  using Due = std::array<std::optional<size_t>, static_cast<size_t>(FaultKind::kCorruptRecord) + 1>;
  // at(): a kind declared after kCorruptRecord throws instead of overflowing.
  static std::optional<size_t>& DueOf(Due& due, FaultKind kind) { return due.at(static_cast<size_t>(kind)); }
  static std::optional<size_t> DueOf(const Due& due, FaultKind kind) { return due.at(static_cast<size_t>(kind)); }

  // Counts `point` for every live arm of `cls` that selects it.
  Due Count(PointClass cls, const FaultPoint& point, int64_t ordinal = 0);
  // Whether a live arm counts `point`.
  static bool Counts(const Armed& armed, const FaultPoint& point);
  // Fires the arm of `kind` that `due` names, if any.
  bool Fire(const Due& due, FaultKind kind, const FaultPoint& point);
  void Fired(size_t armed, const FaultPoint& point);
  // Counts `point`; when the arm of `kind` fires on it, crashes with the
  // reason `why` says of the class's `nth` point (formatted only then).
  void Crash(PointClass cls, FaultKind kind, const FaultPoint& point, fmt::format_string<int64_t> why, int64_t nth);

  // Every point of the attempt, so that an arm counts from the attempt's
  // start (`ordinal`: a write's, for kProduced).
  struct Seen {
    int64_t ordinal;
    FaultPoint point;
  };

  Hooks hooks_;
  bool sealed_ = false;
  std::vector<Armed> armed_;
  std::array<std::vector<Seen>, kPointClasses> seen_;  // by class
  // By class: whether an arm to come may count its points (ExpectArms).
  std::array<bool, kPointClasses> kept_classes_ = MakeAllKept();
  bool expected_ = false;  // ExpectArms was called
  static constexpr std::array<bool, kPointClasses> MakeAllKept() {
    std::array<bool, kPointClasses> all{};
    all.fill(true);
    return all;
  }
  std::map<int64_t, Produced> produced_;  // by the job's write ordinal
  // The job's points of each class so far, for the crash reasons.
  int64_t writes_ = 0;
  int64_t persisted_ = 0;
  int64_t acked_ = 0;
  int64_t calls_saved_ = 0;
  int64_t async_started_ = 0;
  int64_t barriers_ = 0;
  int64_t snapshots_ = 0;
};

}  // namespace durasim
