// Coverage points: what World::CountFault counts, so that a sweep can say
// which faults fired and where (RunReport::fault_hits, keyed by the printed
// name). A point is a fault kind that fired, the same refined by the put it
// hit ("lose_ack@start"), or a fault the harness makes without arming one
// (ScriptFault).
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/enum_table.h"
#include "model/key_shapes.h"
#include "model/scenario.h"

namespace durasim {

// Faults a script makes, beyond the armed FaultKinds; the generator draws
// them too (properties/scenario_generator.h).
enum class ScriptFault {
  kCrashStep,        // a crash at the end of an attempt's script
  kCheckpointAbort,  // a checkpoint is aborted
  kNeverNotified,    // a checkpoint is neither completed nor aborted
  kRestoreOlder,     // restore the completed checkpoint before the latest
  kBrokerDown,       // a window where the broker is unreachable
};

std::optional<EnumInfo> EnumInfoOf(ScriptFault fault);

// Features of the agent's world a run exercised: not faults, but paths of
// the durable-execution rules (memory replay, saved failures, error
// handling) that a sweep must reach, so they are counted like faults.
enum class WorldFeature {
  kMemoryRecall,     // a recall step read a slot that was set
  kMemoryAdd,        // a memory_add step ran
  kMemoryReplayed,   // a completed action replayed from its saved state re-applied memory updates
  kCallFailed,       // a supplier call failed and its FAILED result was saved
  kFailureReraised,  // a saved FAILED result was re-raised without calling the supplier
  kOnErrorFail,      // a failed call failed the job over
  kOnErrorIgnore,    // a failed call ended its action with no effects
  kOnErrorRetry,     // a failed call was made again
  kAttemptArgument,  // a call with an attempt-dependent argument (`arg: {from: attempt}`) was made
  kSavedCallMismatch,  // a saved call was not the call at its index (function or argument): reuse ended there
  kPlanDeployed,     // an attempt ran a plan other than the scenario's (`plan:`)
  kParallelSubtasks,  // an attempt ran more than one subtask
  kRescale,          // a restore with another parallelism than the checkpoint's job
  kSubtaskFault,     // a fault armed on one subtask (`arm: {subtask: i}`) fired
  kFaultSelected,    // a fault aimed by a selector (`arm: {put, key, seq, action, call}`) fired
  kTombstoneFault,   // a fault that selected tombstones hit one
  kNotificationSkipped,  // a checkpoint completed without notifying the operator (`notify: false`)
  kCheckpointFailed,  // a checkpoint failed at run time (a subtask declined it)
  kFreshLineage,      // a fresh start after earlier attempts began a new lineage (a new job)
  kReconciledDone,     // a reconciler reported a PENDING call done: its outcome was used, no call made
  kReconciledNotDone,  // a reconciler reported a PENDING call not done: it was made again
  kReconciledUnknown,  // a reconciler could not tell: the call failed
  kHandMadeMarkers,    // a restore rebuilt from a union list written by hand (`restore: {markers: [...]}`)
  kLegacyMarkerRead,   // an accepted restore read a version-1 (legacy, bare offset map) marker
  kOnErrorContinue,    // a failed call was caught: the action went on with its fallback value
  kCompletionOnlyCall,  // a durable call was made without a PENDING slot first (durable: {pending: reconcilable})
  kRestoredWithoutStore,  // durable execution off: a restore with no store to read (durable: {execution: off})
  kSyncFallback,          // an async call ran synchronously: no executor (durable: {async: sync_fallback})
  kLaterStatesKept,       // get: evict_on_divergence: a lookup kept the cached states of later sequence numbers
  kCheckpointDrained,     // worker_pool engine: a checkpoint's barrier waited for pulled tasks to commit
  kTombstonesMigrated,    // a restore under another tombstone setting than the job that took its checkpoint
  kTypedKeyTwins,         // the inputs hold a Long key and the String key of its text (model/typed_key.h)
  kStepDuringRebuild,     // a step acted on the log while a restore's rebuild read it (restore: {during_rebuild})
};

std::optional<EnumInfo> EnumInfoOf(WorldFeature feature);

// What happened to the state topic's log (its lifecycle), counted like
// faults. A separate table, so that adding an entry draws nothing more from
// a seed's choices (the generator iterates the fault tables).
enum class LogEvent {
  kDeleteRecords,  // records left the log by DeleteRecords
  kRetention,      // records left the log by retention
  kStaleMarker,    // a restore met a marker a log event made stale (the oracle expected a rejection)
  kRecreateTopic,  // the topic was deleted and created again
  kSlowFetch,      // a rebuild met fetches that returned nothing
  kCompact,        // compaction removed superseded records
  kAddPartitions,  // partitions were added to the topic
  kAddedPartitionsRestored,  // a restore read partitions added after its checkpoint
  kAddedPartitionsRejected,  // a restore met them under `store_options: {added_partitions: reject}`
  kTombstonesRemoved,  // compaction removed tombstones past their delete horizon
  kForeignRecord,      // a record the run did not write was appended (`foreign`)
};

std::optional<EnumInfo> EnumInfoOf(LogEvent event);

// What a store design did that only it does, counted like faults; each
// event belongs to one design (DesignOf), and is required of a sweep only
// when that design ran in it.
enum class StoreEvent {
  kRewritesWritten,  // kafka-rewrite: a snapshot wrote unfinished states again, each acknowledged
  kRewriteFailed,    // kafka-rewrite: a rewrite was not acknowledged; the checkpoint was declined
  kBucketsRebuilt,   // fluss: a restore rebuilt the cache from a bucket-offset marker
};

std::optional<EnumInfo> EnumInfoOf(StoreEvent event);
StoreDesign DesignOf(StoreEvent event);
// Whether a run of `design` can reach `event` (fluss runs no scenario that
// re-creates, compacts or widens the log: NotRunnableOn, model/store_designs.h).
bool Reachable(LogEvent event, StoreDesign design);
// Whether a run of `design` can reach `feature` (fluss writes no tombstones,
// and its hand-made markers state offsets only: no legacy version).
bool Reachable(WorldFeature feature, StoreDesign design);


class CoveragePoint {
 public:
  // A fault kind fired, at the put `put` when it hit one.
  static CoveragePoint Fired(FaultKind kind, std::optional<PutPoint> put = std::nullopt) {
    return CoveragePoint(kind, put);
  }
  static CoveragePoint Made(ScriptFault fault) { return CoveragePoint(fault, std::nullopt); }
  static CoveragePoint Reached(WorldFeature feature) { return CoveragePoint(feature, std::nullopt); }
  static CoveragePoint Happened(LogEvent event) { return CoveragePoint(event, std::nullopt); }
  static CoveragePoint Happened(StoreEvent event) { return CoveragePoint(event, std::nullopt); }
  // The run's input keys make `shape` together (model/key_shapes.h).
  static CoveragePoint Shaped(KeyShape shape) { return CoveragePoint(shape, std::nullopt); }

  // "lose_ack", "lose_ack@start", "crash_step".
  std::string Name() const;

  // An order of points, so that a run counts them by point and names them
  // once, at its end (World::CountFault).
  auto operator<=>(const CoveragePoint&) const = default;

 private:
  CoveragePoint(std::variant<FaultKind, ScriptFault, WorldFeature, LogEvent, StoreEvent, KeyShape> what, std::optional<PutPoint> put)
      : what_(what), put_(put) {}

  std::variant<FaultKind, ScriptFault, WorldFeature, LogEvent, StoreEvent, KeyShape> what_;
  std::optional<PutPoint> put_;
};

// The points --require-coverage requires to fire, by name: every fault
// kind, then every script fault, every world feature, every key shape, every
// log event (put refinements are not required), then the store events of
// `designs` (every design's when none are named).
std::vector<std::string> RequiredCoverage(const std::vector<StoreDesign>& designs = {});

}  // namespace durasim
