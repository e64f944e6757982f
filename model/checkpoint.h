// Checkpoints and the durable checkpoint storage (Flink's job manager side):
// a checkpoint holds the runtime's keyed state, the store's recovery marker,
// the completed boundaries it was computed from and the source offset.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/keyed_state.h"
#include "store/action_state_store.h"
#include "store/check.h"

namespace durasim {

struct Checkpoint {
  // kFailed: a subtask declined it at run time (its store gave no marker,
  // say with the broker down); it never completes and cannot be restored.
  // kSubsumed: still pending when a checkpoint taken after it completed;
  // Flink's coordinator drops it (CHECKPOINT_SUBSUMED): it never completes
  // and cannot be restored, and its abort notice may still come.
  enum class Phase { kTaken, kCompleted, kAborted, kFailed, kSubsumed };
  std::string id;
  Phase phase = Phase::kTaken;
  int attempt = 0;
  // Every subtask's keyed state and completed boundaries (their keys are
  // disjoint): redistributed by key group on restore.
  KeyedStates keyed;
  CompletedBoundaries completed;
  // The union list of recovery markers: each subtask's, in subtask order. A
  // restore hands every subtask all of them; each rebuilds from their
  // per-partition minimum (MinimumMarker), whatever the new parallelism.
  std::vector<RecoveryMarker> markers;
  // The union list of processing keys (keys with a run in progress): each
  // subtask's, in subtask order. A restore hands every subtask all of them;
  // each resumes the distinct ones it owns.
  std::vector<std::vector<std::string>> processing_keys;
  int64_t source_offset = 0;
  int32_t parallelism = 1;  // of the job that took it
  // The harness's truth, not the store's: the topic incarnation the
  // checkpoint was taken in (model/log_lifecycle.h).
  int64_t topic_incarnation = 1;
  std::string failure;  // kFailed: which subtask declined it, and why
  std::string subsumed_by;  // kSubsumed: the completed checkpoint taken after it
};

// The per-partition minimum over `markers`: where every subtask of a
// restored job starts reading, so a state that moved to it is found; the
// completed boundaries the union of all (the subtasks' keys are disjoint).
// A list the store can merge is what MergeMarkers makes of it (version and
// topic those of its first version-2 entry). One it cannot (a list written
// by hand that mixes topics or names a version no store writes) keeps the
// first entry's version and topic: the store rejects it either way.
inline RecoveryMarker MinimumMarker(const std::vector<RecoveryMarker>& markers) {
  if (markers.empty()) return RecoveryMarker{};
  if (Result<RecoveryMarker> merged = MergeMarkers(markers); merged.ok()) return *std::move(merged);
  RecoveryMarker minimum;
  minimum.version = markers.front().version;
  minimum.topic = markers.front().topic;
  for (const RecoveryMarker& marker : markers) {
    for (const auto& [partition, offset] : marker.offsets) {
      auto [it, inserted] = minimum.offsets.emplace(partition, offset);
      if (!inserted && offset < it->second) it->second = offset;
    }
    minimum.completed.insert(marker.completed.begin(), marker.completed.end());
  }
  return minimum;
}

class CheckpointStorage {
 public:
  // Phases only move forward: taken, then completed, aborted or subsumed
  // (and a subsumed one aborted when its notice comes).
  void Save(Checkpoint checkpoint) {
    // A checkpoint is saved when taken, or when it failed to be.
    DURASIM_CHECK(checkpoint.phase == Checkpoint::Phase::kTaken || checkpoint.phase == Checkpoint::Phase::kFailed);
    DURASIM_CHECK_MSG(!checkpoints_.contains(checkpoint.id), "checkpoint " + checkpoint.id + " taken twice");
    taken_order_.push_back(checkpoint.id);
    checkpoints_[checkpoint.id] = std::move(checkpoint);
  }
  Checkpoint* Find(const std::string& id) {
    auto it = checkpoints_.find(id);
    return it == checkpoints_.end() ? nullptr : &it->second;
  }
  // REQUIRES: the checkpoint exists and is taken (not subsumed: the
  // parser rejects completing a checkpoint a later completion subsumed).
  // Every checkpoint taken before it and still pending is subsumed.
  void MarkCompleted(const std::string& id) {
    auto it = checkpoints_.find(id);
    DURASIM_CHECK_MSG(it != checkpoints_.end(), "checkpoint " + id + " was never taken");
    DURASIM_CHECK_MSG(it->second.phase != Checkpoint::Phase::kSubsumed,
                      "checkpoint " + id + " completed after " + it->second.subsumed_by + " subsumed it");
    DURASIM_CHECK_EQ(it->second.phase, Checkpoint::Phase::kTaken);
    it->second.phase = Checkpoint::Phase::kCompleted;
    completed_order_.push_back(id);
    for (const std::string& earlier : taken_order_) {
      if (earlier == id) break;
      Checkpoint& pending = checkpoints_.at(earlier);
      if (pending.phase != Checkpoint::Phase::kTaken) continue;
      pending.phase = Checkpoint::Phase::kSubsumed;
      pending.subsumed_by = id;
    }
  }
  // The most recently completed checkpoint, or "".
  std::string latest_completed() const { return completed_order_.empty() ? "" : completed_order_.back(); }
  // The one completed before it, or the latest when there is only one.
  std::string previous_completed() const {
    return completed_order_.size() < 2 ? latest_completed() : completed_order_[completed_order_.size() - 2];
  }
  // The checkpoints that failed at run time, by id.
  std::vector<const Checkpoint*> failed() const {
    std::vector<const Checkpoint*> out;
    for (const auto& [id, checkpoint] : checkpoints_) {
      if (checkpoint.phase == Checkpoint::Phase::kFailed) out.push_back(&checkpoint);
    }
    return out;
  }
  // Checkpoints taken but neither completed nor aborted (subsumed ones
  // whose abort notice never came included).
  size_t never_notified() const {
    size_t count = 0;
    for (const auto& [id, checkpoint] : checkpoints_) {
      count += checkpoint.phase == Checkpoint::Phase::kTaken || checkpoint.phase == Checkpoint::Phase::kSubsumed ? 1 : 0;
    }
    return count;
  }

 private:
  std::map<std::string, Checkpoint> checkpoints_;
  std::vector<std::string> taken_order_;
  std::vector<std::string> completed_order_;
};

}  // namespace durasim
