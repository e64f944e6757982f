// The script fault and put point tables, and coverage point names.
#include "model/coverage.h"

#include <algorithm>

#include "store/format.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(ScriptFault fault) {
  switch (fault) {
    case ScriptFault::kCrashStep: return EnumInfo{"crash_step", "a crash step in an attempt's script"};
    case ScriptFault::kCheckpointAbort: return EnumInfo{"checkpoint_abort", "a checkpoint is aborted"};
    case ScriptFault::kNeverNotified:
      return EnumInfo{"checkpoint_never_notified", "a checkpoint is neither completed nor aborted"};
    case ScriptFault::kRestoreOlder:
      return EnumInfo{"restore_older_checkpoint", "an attempt restores a completed checkpoint older than the latest"};
    case ScriptFault::kBrokerDown: return EnumInfo{"broker_down", "a window where the broker is unreachable"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(WorldFeature feature) {
  switch (feature) {
    case WorldFeature::kMemoryRecall: return EnumInfo{"memory_recall", "a recall step read a slot that was set"};
    case WorldFeature::kMemoryAdd: return EnumInfo{"memory_add", "a memory_add step ran"};
    case WorldFeature::kMemoryReplayed:
      return EnumInfo{"memory_replayed", "a replayed completed action re-applied its memory updates"};
    case WorldFeature::kCallFailed: return EnumInfo{"call_failed", "a supplier call failed; its FAILED result was saved"};
    case WorldFeature::kFailureReraised:
      return EnumInfo{"failure_reraised", "a saved FAILED result was re-raised without calling the supplier"};
    case WorldFeature::kOnErrorFail: return EnumInfo{"on_error_fail", "a failed call failed the job over"};
    case WorldFeature::kOnErrorIgnore: return EnumInfo{"on_error_ignore", "a failed call ended its action with no effects"};
    case WorldFeature::kOnErrorRetry: return EnumInfo{"on_error_retry", "a failed call was made again"};
    case WorldFeature::kAttemptArgument:
      return EnumInfo{"attempt_argument", "a call with an attempt-dependent argument was made"};
    case WorldFeature::kSavedCallMismatch:
      return EnumInfo{"saved_call_mismatch", "a saved call was not the call at its index: reuse ended there"};
    case WorldFeature::kPlanDeployed: return EnumInfo{"plan_deployed", "an attempt ran a plan other than the scenario's"};
    case WorldFeature::kParallelSubtasks:
      return EnumInfo{"parallel_subtasks", "an attempt ran more than one subtask of the action operator"};
    case WorldFeature::kRescale:
      return EnumInfo{"rescale", "a restore with another parallelism than the job that took the checkpoint"};
    case WorldFeature::kSubtaskFault: return EnumInfo{"subtask_fault", "a fault armed on one subtask fired"};
    case WorldFeature::kFaultSelected:
      return EnumInfo{"fault_selected", "a fault aimed at a put or call by its meaning (put, key, seq, action, call) fired"};
    case WorldFeature::kTombstoneFault: return EnumInfo{"tombstone_fault", "a fault aimed at tombstones hit one"};
    case WorldFeature::kNotificationSkipped:
      return EnumInfo{"notification_skipped", "a checkpoint completed without notifying the operator"};
    case WorldFeature::kCheckpointFailed:
      return EnumInfo{"checkpoint_failed", "a checkpoint failed at run time: a subtask declined it"};
    case WorldFeature::kFreshLineage:
      return EnumInfo{"fresh_lineage", "a fresh start after earlier attempts began a new lineage (a new job)"};
    case WorldFeature::kReconciledDone:
      return EnumInfo{"reconciled_done", "a reconciler reported a PENDING call done: its outcome was used, no call made"};
    case WorldFeature::kReconciledNotDone:
      return EnumInfo{"reconciled_not_done", "a reconciler reported a PENDING call not done: it was made again"};
    case WorldFeature::kReconciledUnknown:
      return EnumInfo{"reconciled_unknown", "a reconciler could not tell whether a PENDING call completed: it failed"};
    case WorldFeature::kHandMadeMarkers:
      return EnumInfo{"hand_made_markers", "a restore rebuilt from a union list of markers written by hand"};
    case WorldFeature::kLegacyMarkerRead:
      return EnumInfo{"legacy_marker_read", "an accepted restore read a version-1 marker (the bare offset map)"};
    case WorldFeature::kOnErrorContinue:
      return EnumInfo{"on_error_continue", "a failed call was caught: the action went on with its fallback value"};
    case WorldFeature::kCompletionOnlyCall:
      return EnumInfo{"completion_only_call", "a durable call was made without saving a PENDING slot first"};
    case WorldFeature::kRestoredWithoutStore:
      return EnumInfo{"restored_without_store", "durable execution off: a restore with no action-state store to read"};
    case WorldFeature::kSyncFallback:
      return EnumInfo{"sync_fallback", "an async call ran synchronously: the runtime has no executor for async calls"};
    case WorldFeature::kCheckpointDrained:
      return EnumInfo{"checkpoint_drained", "worker_pool engine: a checkpoint's barrier waited until the tasks "
                                            "workers had pulled were committed"};
    case WorldFeature::kTombstonesMigrated:
      return EnumInfo{"tombstones_migrated", "a restore ran under another tombstone setting than the job that took "
                                             "its checkpoint (an attempt's log: {tombstones})"};
    case WorldFeature::kTypedKeyTwins:
      return EnumInfo{"typed_key_twins", "the inputs hold a Long key and the String key of its text (!long 1 and "
                                         "\"1\"): two keys with one toString()"};
    case WorldFeature::kStepDuringRebuild:
      return EnumInfo{"step_during_rebuild", "a step acted on the log while a restore's rebuild read it (an append "
                                             "or added partitions: restore: {during_rebuild: [...]})"};
    case WorldFeature::kLaterStatesKept:
      return EnumInfo{"later_states_kept", "under get: evict_on_divergence, a lookup kept the cached states of later "
                                           "sequence numbers (no miss, no divergence)"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(LogEvent event) {
  switch (event) {
    case LogEvent::kDeleteRecords: return EnumInfo{"delete_records", "records left the log by DeleteRecords"};
    case LogEvent::kRetention: return EnumInfo{"retention", "records left the log by retention"};
    case LogEvent::kStaleMarker:
      return EnumInfo{"stale_marker", "a restore met a marker that a log event made stale"};
    case LogEvent::kRecreateTopic: return EnumInfo{"recreate_topic", "the topic was deleted and created again"};
    case LogEvent::kSlowFetch: return EnumInfo{"slow_fetch", "a rebuild met fetches that returned nothing"};
    case LogEvent::kCompact: return EnumInfo{"compact", "compaction removed superseded records"};
    case LogEvent::kAddPartitions: return EnumInfo{"add_partitions", "partitions were added to the topic"};
    case LogEvent::kAddedPartitionsRestored:
      return EnumInfo{"added_partitions_restored", "a restore read partitions added after its checkpoint"};
    case LogEvent::kAddedPartitionsRejected:
      return EnumInfo{"added_partitions_rejected",
                      "a restore met partitions added after its checkpoint under added_partitions: reject"};
    case LogEvent::kTombstonesRemoved:
      return EnumInfo{"tombstones_removed", "compaction removed tombstones past their delete horizon"};
    case LogEvent::kForeignRecord:
      return EnumInfo{"foreign_record", "a record the run did not write was appended to the topic"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(StoreEvent event) {
  switch (event) {
    case StoreEvent::kRewritesWritten:
      return EnumInfo{"rewrites_written", "a snapshot wrote unfinished states again, each acknowledged (kafka-rewrite)"};
    case StoreEvent::kRewriteFailed:
      return EnumInfo{"rewrite_failed", "a snapshot rewrite was not acknowledged: the checkpoint was declined "
                                        "(kafka-rewrite)"};
    case StoreEvent::kBucketsRebuilt:
      return EnumInfo{"buckets_rebuilt", "a restore rebuilt the cache from a bucket-offset marker (fluss)"};
  }
  return std::nullopt;
}

StoreDesign DesignOf(StoreEvent event) {
  switch (event) {
    case StoreEvent::kRewritesWritten:
    case StoreEvent::kRewriteFailed: return StoreDesign::kKafkaRewrite;
    case StoreEvent::kBucketsRebuilt: return StoreDesign::kFluss;
  }
  DURASIM_CHECK_MSG(false, "a store event cast from outside its table");
  return StoreDesign::kKafkaRewind;
}

bool Reachable(LogEvent event, StoreDesign design) {
  if (design != StoreDesign::kFluss) return true;
  switch (event) {
    case LogEvent::kRecreateTopic:
    case LogEvent::kCompact:
    case LogEvent::kAddPartitions:
    case LogEvent::kAddedPartitionsRestored:
    case LogEvent::kAddedPartitionsRejected:
    case LogEvent::kTombstonesRemoved: return false;
    default: return true;
  }
}

bool Reachable(WorldFeature feature, StoreDesign design) {
  return design != StoreDesign::kFluss ||
         (feature != WorldFeature::kTombstoneFault && feature != WorldFeature::kLegacyMarkerRead &&
          feature != WorldFeature::kTombstonesMigrated);
}

std::string CoveragePoint::Name() const {
  const char* what = std::visit([](auto value) { return NameOf(value); }, what_);
  return put_.has_value() ? fmt::format("{}@{}", what, NameOf(*put_)) : std::string(what);
}

std::vector<std::string> RequiredCoverage(const std::vector<StoreDesign>& designs) {
  std::vector<std::string> names = NamesOf<FaultKind>();
  for (const std::string& name : NamesOf<ScriptFault>()) names.push_back(name);
  // A feature or log event is required when some design of the sweep can
  // reach it (no designs: every design).
  const auto reachable = [&](auto point) {
    return designs.empty() ||
           std::any_of(designs.begin(), designs.end(), [&](StoreDesign design) { return Reachable(point, design); });
  };
  for (WorldFeature feature : AllOf<WorldFeature>()) {
    if (reachable(feature)) names.push_back(NameOf(feature));
  }
  for (const std::string& name : NamesOf<KeyShape>()) names.push_back(name);  // every design reaches each
  for (LogEvent event : AllOf<LogEvent>()) {
    if (reachable(event)) names.push_back(NameOf(event));
  }
  for (StoreEvent event : AllOf<StoreEvent>()) {
    if (designs.empty() || std::find(designs.begin(), designs.end(), DesignOf(event)) != designs.end()) {
      names.push_back(NameOf(event));
    }
  }
  return names;
}

}  // namespace durasim
