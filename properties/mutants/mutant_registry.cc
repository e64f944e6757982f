// The mutant registry: one line per mutant.
#include <memory>
#include <string>
#include <vector>

#include "properties/mutants/added_partitions_accepted.h"
#include "properties/mutants/attribute_only_event_identity.h"
#include "properties/mutants/await_before_flush.h"
#include "properties/mutants/boundaries_only_with_tombstones.h"
#include "properties/mutants/cache_before_ack.h"
#include "properties/mutants/canary.h"
#include "properties/mutants/cancel_as_failure.h"
#include "properties/mutants/cleanup_in_tombstones_only.h"
#include "properties/mutants/divergence_eviction.h"
#include "properties/mutants/failure_as_miss.h"
#include "properties/mutants/fluss_missing_bucket_as_zero.h"
#include "properties/mutants/fluss_prune_skips_separator_keys.h"
#include "properties/mutants/fresh_start_reads_topic.h"
#include "properties/mutants/key_to_string.h"
#include "properties/mutants/no_ownership_filter.h"
#include "properties/mutants/own_marker_only.h"
#include "properties/mutants/resume_unowned_keys.h"
#include "properties/mutants/rewrite_after_marker.h"
#include "properties/mutants/rewrite_skipped_on_failed_put.h"
#include "properties/mutants/reuse_by_index.h"
#include "properties/mutants/stale_processing_keys.h"
#include "properties/mutants/reused_failure_not_a_try.h"
#include "properties/mutants/fire_and_forget_put.h"
#include "properties/mutants/leak_checkpoint_map_on_abort.h"
#include "properties/mutants/legacy_marker_ignores_new_partitions.h"
#include "properties/mutants/no_release_on_skipped_notification.h"
#include "properties/mutants/leak_completed_boundaries.h"
#include "properties/mutants/legacy_end_offset_marker.h"
#include "properties/mutants/marker_ignores_new_partitions.h"
#include "properties/mutants/continue_saves_fallback.h"
#include "properties/mutants/marker_list_skips_legacy.h"
#include "properties/mutants/no_pending_before_reconcilable_call.h"
#include "properties/mutants/no_store_drops_in_flight.h"
#include "properties/mutants/sync_fallback_skips_persist.h"
#include "properties/mutants/marker_without_topic_identity.h"
#include "properties/mutants/memory_in_operator_state.h"
#include "properties/mutants/pending_as_hit.h"
#include "properties/mutants/per_process_action_id.h"
#include "properties/mutants/prune_by_key_prefix.h"
#include "properties/mutants/prune_on_snapshot.h"
#include "properties/mutants/random_id_in_call.h"
#include "properties/mutants/rebuild_accepts_invalid.h"
#include "properties/mutants/rebuild_reads_appended.h"
#include "properties/mutants/reconcile_ignored.h"
#include "properties/mutants/reconcile_on_completed.h"
#include "properties/mutants/stop_at_first_empty_fetch.h"
#include "properties/mutants/swallow_cancellation.h"
#include "properties/mutants/tombstones_before_cleanup_ack.h"
#include "properties/mutants/tombstones_without_boundary.h"
#include "model/store_designs.h"
#include "properties/mutants/mutant.h"
#include "properties/mutants/worker_pool_skips_drain.h"
#include "store/check.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

const std::vector<StoreDesign>& KafkaDesigns() {
  static const std::vector<StoreDesign> kDesigns = {StoreDesign::kKafkaRewind, StoreDesign::kKafkaRewrite};
  return kDesigns;
}

std::optional<std::string> WhyNotOn(const Mutant& mutant, StoreDesign design) {
  if (mutant.AppliesTo(design)) return std::nullopt;
  std::string designs;
  for (StoreDesign d : mutant.designs) designs += (designs.empty() ? "" : ", ") + std::string(NameOf(d));
  return "mutant \"" + mutant.name + "\" is a hazard of store design " + designs + ", not of " + NameOf(design);
}

std::vector<StoreDesign> DrawableDesigns(const std::optional<std::string>& name) {
  const Mutant* mutant = name ? FindMutant(*name) : nullptr;
  return mutant != nullptr ? mutant->designs : std::vector<StoreDesign>{};
}

AttemptParts PartsWith(const Mutant* mutant, StoreDesign design) {
  AttemptParts parts = ProductionParts();
  if (mutant == nullptr || !mutant->AppliesTo(design)) return parts;
  if (mutant->make_store) parts.make_store = mutant->make_store;
  if (mutant->make_runtime) parts.make_runtime = mutant->make_runtime;
  return parts;
}

namespace {

// Saving a state (the put, its acknowledgement, its cancellation), releasing
// what a checkpoint no longer needs, and the first recovery mistakes.
void AddSaveAndReleaseMutants(std::vector<Mutant>& mutants) {
  mutants.insert(mutants.end(), {
      {"legacy-end-offset-marker", "the recovery marker is the topic's end offsets at snapshot time",
       "apache/flink-agents #1158; on fluss, Flink Agents 0.3.0's FlussActionStateStore as shipped", Invariant::kOnce,
       LegacyEndOffsetMarkerStores(), {}},
      {"cache-before-ack", "put caches the state before the write is acknowledged; a rejected write looks saved",
       "#1158 review: send, cache, then flush", Invariant::kPhantomSave, StoreOf<CacheBeforeAckStore>(), {}, KafkaDesigns()},
      {"fire-and-forget-put", "put reports saved without flushing or awaiting the acknowledgement",
       "pre-#1158 put: send() without get()", Invariant::kPhantomSave, StoreOf<FireAndForgetPutStore>(), {}, KafkaDesigns()},
      {"swallow-cancellation", "a cancelled wait returns an error but clears the caller's cancellation state",
       "#1158 review: InterruptedException caught, interrupt flag not restored", Invariant::kCancellation,
       StoreOf<SwallowCancellationStore>(), {}, KafkaDesigns()},
      {"await-before-flush", "put awaits the acknowledgement before flushing, waiting out the linger",
       "#1158 review / #1177: send().get() before flush(), 6.9 ms against 0.8 ms per put", Invariant::kPutLatency,
       StoreOf<AwaitBeforeFlushStore>(), {}, KafkaDesigns()},
      {"leak-completed-boundaries", "prune never drops a key's bookkeeping, even when no state is left",
       "#1158 review: latestKeySeqNum entries accumulate per key", Invariant::kBoundedMemory,
       StoreOf<LeakCompletedBoundariesStore>(), {}, KafkaDesigns()},
      {"leak-checkpoint-map-on-abort", "an aborted checkpoint's per-checkpoint sequence map is never released",
       "Flink Agents checkpointIdToSeqNums kept on abort", Invariant::kBoundedMemory, {},
       RuntimeOf<LeakCheckpointMapOnAbortRuntime>()},
      {"no-release-on-skipped-notification",
       "a completion notice releases only its own checkpoint's map, not those of checkpoints whose notice never came",
       "Flink's notifications are best-effort; Flink Agents removes an entry only on its own notification",
       Invariant::kBoundedMemory, {}, RuntimeOf<NoReleaseOnSkippedNotificationRuntime>()},
      {"prune-by-key-prefix", "prune finds a key's states by the record-key prefix \"<key>_\" and reads the next "
       "field as the sequence number: pruning key a evicts key a_1's states", "prefix matching over record keys "
       "(#885's class): Flink Agents' removeStateEntries(key + \"_\", ...) without its four-field parse", Invariant::kOnce,
       PruneByKeyPrefixStores(), {}},
      {"rebuild-accepts-invalid", "rebuild skips invalid marker entries and undecodable records instead of failing",
       "#1158 review: recovery must reject invalid recovery data", Invariant::kInvalidRecovery,
       StoreOf<RebuildAcceptsInvalidStore>(), {}, KafkaDesigns()},
      {"prune-on-snapshot", "states are pruned when a checkpoint is taken instead of when it completes",
       "pruning (with tombstones) before the checkpoint is confirmed", Invariant::kFinished,
       // On the store before the cleanup check (#691): the production store
       // rejects the restore the premature prune broke (invalid-recovery).
       StoreOf<TombstonesWithoutBoundaryStore>(), RuntimeOf<PruneOnSnapshotRuntime>(), KafkaDesigns()},
  });
}

// Replaying saved states: which saved call result a call takes, and the
// identities that find the saved states.
void AddReplayMutants(std::vector<Mutant>& mutants) {
  mutants.insert(mutants.end(), {
      {"pending-as-hit", "a PENDING call slot is replayed as a saved result", "durable-call replay matching",
       Invariant::kSameAnswer, {}, RuntimeOf<PendingAsHitRuntime>()},
      {"reconcile-ignored", "a PENDING call whose supplier has a reconciler is made again without asking it",
       "Flink Agents' reconcilers (DurableExecutionContext): a PENDING slot goes to the reconciler first",
       Invariant::kReconcile, {}, RuntimeOf<ReconcileIgnoredRuntime>()},
      {"continue-saves-fallback", "a failed call its action catches (on_error: continue) is saved as SUCCEEDED "
       "with the fallback value, not as the failure", "a catch inside the durable wrapper, before it records the "
       "outcome (Flink Agents: the exception is persisted, then rethrown to the action)", Invariant::kProvenance, {},
       RuntimeOf<ContinueSavesFallbackRuntime>()},
      {"no-pending-before-reconcilable-call", "with durable: {pending: reconcilable}, a call whose supplier has a "
       "reconciler is also persisted only at its completion: a crash in flight leaves its reconciler nothing to ask",
       "Flink Agents: a reconcilable call persists its PENDING slot before it runs, a plain call only its completion",
       Invariant::kReconcile, {}, RuntimeOf<NoPendingBeforeReconcilableCallRuntime>()},
      {"no-store-drops-in-flight", "with durable execution off, a restore resumes none of the keys in flight at "
       "the checkpoint: only a store, it assumes, could bring them back", "Flink Agents' DurableExecutionManager "
       "without a store: its in-flight tasks are operator state, not store state", Invariant::kLiveness, {},
       RuntimeOf<NoStoreDropsInFlightRuntime>()},
      {"sync-fallback-skips-persist", "without an executor for async calls, an async call is made synchronously "
       "outside the durable path: neither its PENDING slot nor its result is saved", "Flink Agents: "
       "durableExecuteAsync falls back to a synchronous durableExecute (PENDING, then the result)",
       Invariant::kReconcile, {}, RuntimeOf<SyncFallbackSkipsPersistRuntime>()},
      {"worker-pool-skips-drain", "with the worker_pool engine, a checkpoint's barrier does not wait for the tasks "
       "workers pulled: they are in neither the keyed state nor the log's completed states, so a restore loses them",
       "apache/flink-agents PR #1147 (#1119): drain at prepareSnapshotPreBarrier, since pulled-but-uncommitted "
       "results live only in memory", Invariant::kLiveness, {}, RuntimeOf<WorkerPoolSkipsDrainRuntime>()},
      {"reconcile-on-completed", "a call's reconciler is asked about saved results too, and its answer replaces them",
       "Flink Agents' reconcilers: only a PENDING slot is reconciled", Invariant::kReconcile, {},
       RuntimeOf<ReconcileOnCompletedRuntime>()},
      {"cancel-as-failure", "a durable call cancelled in flight is persisted as FAILED and replayed as a failure",
       "durable execution catching InterruptedException as a call failure", Invariant::kSameAnswer, {},
       RuntimeOf<CancelAsFailureRuntime>()},
      {"per-process-action-id", "the action part of a state key changes with the process (each attempt)",
       "apache/flink-agents #1094: action id from a per-JVM hash code", Invariant::kFinished, {},
       RuntimeOf<PerProcessActionIdRuntime>()},
      {"random-id-in-call", "a durable call's argument digest embeds a per-attempt id; saved results never match",
       "apache/flink-agents #964: a request id in the call id, regenerated on restore", Invariant::kOnce, {},
       RuntimeOf<RandomIdInCallRuntime>()},
      {"attribute-only-event-identity", "an emitted event's hash covers only its type and value; identical siblings "
       "share a state key", "apache/flink-agents #1084 (open)", Invariant::kFinished, {},
       RuntimeOf<AttributeOnlyEventIdentityRuntime>()},
      {"divergence-eviction", "get treats two cached states of one (key, seq) as divergence and evicts later states",
       "apache/flink-agents 8ad3a32 KafkaActionStateStore.get/checkDivergence; 0.3.0 FlussActionStateStore.get",
       Invariant::kFinished, DivergenceEvictionStores(), {}},
      {"eviction-on-every-get", "with store_options: {get: evict_on_divergence}, every lookup evicts the later "
       "states, a hit without divergence too", "the real get()'s condition (a miss, or two cached states of one "
       "(key, seq)) simplified away", Invariant::kFinished, EvictionOnEveryGetStores(), {}},
      {"key-to-string", "a state is named by its input key's text: a Long key and the String key of its text share "
       "their states", "apache/flink-agents #1099 (fixed by PR #1100: a digest of the key's serialized bytes)",
       Invariant::kPhantomSave, KeyToStringStores(), {}},
      {"failure-as-miss", "a saved FAILED call result is treated as a cache miss and the supplier is called again",
       "Flink Agents: a FAILED call result is re-raised on replay, never called again", Invariant::kOnce, {},
       RuntimeOf<FailureAsMissRuntime>()},
      {"reused-failure-not-a-try", "after a restore, re-raised saved failures do not count as tries of a retried call",
       "retry counters kept in memory instead of derived from the saved call results", Invariant::kRetryBudget, {},
       RuntimeOf<ReusedFailureNotATryRuntime>()},
      {"reuse-by-index", "a saved call result is reused by its index alone, whatever function and argument it was saved for",
       "Flink Agents' DurableExecutionContext matches index, function id and argument digest", Invariant::kProvenance,
       {}, RuntimeOf<ReuseByIndexRuntime>()},
  });
}

// Restoring: which subtask keeps which keys, what the recovery marker
// names, how a rebuild reads the log, and the committed cleanup boundary.
void AddRestoreMutants(std::vector<Mutant>& mutants) {
  mutants.insert(mutants.end(), {
      {"no-ownership-filter", "a rebuilding store keeps every key group's states, not only its subtask's",
       "apache/flink-agents #1010", Invariant::kBoundedMemory, StoreOf<NoOwnershipFilterStore>(), {}, KafkaDesigns()},
      {"own-marker-only",
       "a restored subtask rebuilds from its own marker instead of the minimum over the union list",
       "union-list recovery markers merged per subtask", Invariant::kOnce, {}, RuntimeOf<OwnMarkerOnlyRuntime>(),
       // kafka-rewrite writes every unfinished state again after its
       // subtask's marker, which hides the lost states from once; what shows
       // is the own marker's boundaries, which lack the moved keys' (a
       // tombstone of a state "still needed": the restore is rejected).
       {}, {{StoreDesign::kKafkaRewrite, Invariant::kInvalidRecovery}}},
      {"resume-unowned-keys", "after a restore every subtask resumes every in-flight key, owned or not",
       "apache/flink-agents #581", Invariant::kOnce, {}, RuntimeOf<ResumeUnownedKeysRuntime>()},
      {"memory-in-operator-state", "short-term memory is kept with the subtask, not the key: a key a rescale moves "
       "arrives without its memory", "memory in operator state instead of keyed state (a pair only: memory and a "
       "rescale)", Invariant::kSameAnswer, {}, RuntimeOf<MemoryInOperatorStateRuntime>()},
      {"stale-processing-keys",
       "a restored subtask keeps every processing key of the union list, owned or not, and snapshots them again",
       "apache/flink-agents #824", Invariant::kOwnership, {}, RuntimeOf<StaleProcessingKeysRuntime>()},
      {"marker-without-topic-identity", "the recovery marker holds offsets only; a re-created topic's restore "
       "rebuilds from the new topic's data", "apache/flink-agents #1101: versioned marker with topic name and id",
       Invariant::kInvalidRecovery, StoreOf<MarkerWithoutTopicIdentityStore>(), {}, KafkaDesigns()},
      {"stop-at-first-empty-fetch", "rebuild ends a partition at the first fetch that returns nothing",
       "Flink Agents' first rebuild loop, which ended at the first empty poll (#1101)", Invariant::kOnce,
       StoreOf<StopAtFirstEmptyFetchStore>(), {}, KafkaDesigns()},
      {"tombstones-without-boundary", "tombstones on, no committed cleanup boundary: an older checkpoint's restore "
       "loses states its inputs need", "apache/flink-agents #691 / #1101: the committed cleanup boundary",
       Invariant::kFinished, StoreOf<TombstonesWithoutBoundaryStore>(), {}, KafkaDesigns()},
      {"marker-ignores-new-partitions", "rebuild reads only the partitions its marker names; partitions added "
       "after the checkpoint are skipped", "apache/flink-agents rebuildState (assigns the marker's partitions only)",
       Invariant::kOnce, StoreOf<MarkerIgnoresNewPartitionsStore>(), {}, KafkaDesigns()},
      {"added-partitions-accepted", "a store configured to reject a changed partition set (store_options: "
       "{added_partitions: reject}) reads the added partitions from offset 0 instead",
       "apache/flink-agents #1101: the partition-set check", Invariant::kInvalidRecovery,
       StoreOf<AddedPartitionsAcceptedStore>(), {}, KafkaDesigns()},
      {"cleanup-in-tombstones-only", "with tombstones, the committed cleanup boundary is the tombstones alone; "
       "compaction past delete.retention.ms removes it", "apache/flink-agents #1101: the boundary is recorded before "
       "the data goes", Invariant::kInvalidRecovery, StoreOf<CleanupInTombstonesOnlyStore>(), {}, KafkaDesigns()},
      {"rebuild-reads-appended", "a rebuild reads each partition to its end as it is when read, not as captured "
       "when the rebuild began: it reads records appended meanwhile", "apache/flink-agents 8ad3a32 rebuildState: "
       "polls until a poll returns nothing", Invariant::kInvalidRecovery, StoreOf<RebuildReadsAppendedStore>(), {},
       KafkaDesigns()},
      {"boundaries-only-with-tombstones", "a store that emits no tombstones writes no completed boundaries in its "
       "marker: after tombstones are turned off, a restore reading the earlier job's tombstones cannot tell a "
       "committed cleanup", "apache/flink-agents #885: the option controls emission only, recovery applies every "
       "tombstone in the topic", Invariant::kInvalidRecovery, StoreOf<BoundariesOnlyWithTombstonesStore>(), {},
       {StoreDesign::kKafkaRewind}},
      {"tombstones-before-cleanup-ack", "a prune's tombstones go right behind its cleanup record, acknowledged or "
       "not: a refused record leaves tombstones without their boundary", "durasim's finding 3 (a long sweep, seed "
       "28697)", Invariant::kFinished, StoreOf<TombstonesBeforeCleanupAckStore>(), {}, KafkaDesigns()},
      {"marker-list-skips-legacy", "a rebuild skips the version-1 (bare offset map) entries of its union list: a "
       "legacy entry holding the smallest offsets is lost, and the rebuild starts past states it needs",
       "apache/flink-agents rebuildState (skips every marker that is not a Map)", Invariant::kOnce,
       StoreOf<MarkerListSkipsLegacyStore>(), {}, KafkaDesigns()},
      {"legacy-marker-ignores-new-partitions", "a rebuild from a union list holding a version-1 marker reads only "
       "the partitions the list names: partitions added after the checkpoint are skipped on the legacy path alone",
       "a legacy-format path older than topics that gain partitions (apache/flink-agents #1101 handles them for "
       "the current marker)", Invariant::kOnce, StoreOf<LegacyMarkerIgnoresNewPartitionsStore>(), {}, KafkaDesigns()},
      {"fresh-start-reads-topic", "a fresh start (a new job, no checkpoint) rebuilds its store from the log start, "
       "taking an earlier job's saved results as its own", "a missing recovery marker read as \"read everything\"",
       Invariant::kProvenance, {}, RuntimeOf<FreshStartReadsTopicRuntime>()},
  });
}

// The hazards of one store design, each a no-op on the others.
void AddDesignMutants(std::vector<Mutant>& mutants) {
  mutants.insert(mutants.end(), {
      {"rewrite-skipped-on-failed-put", "kafka-rewrite: a rewrite the log did not acknowledge is skipped and the "
       "snapshot handed over without it", "#1175's failure mode: a rewrite that fails", Invariant::kOnce,
       StoreOf<RewriteSkippedOnFailedPutStore>(), {}, {StoreDesign::kKafkaRewrite}},
      {"rewrite-after-marker", "kafka-rewrite: the snapshot is handed over once the rewrites are sent, before they "
       "are acknowledged", "#1175's failure mode: the marker taken before the rewrites are acknowledged",
       Invariant::kOnce, StoreOf<RewriteAfterMarkerStore>(), {}, {StoreDesign::kKafkaRewrite}},
      {"fluss-missing-bucket-as-zero", "fluss: the marker lists only the buckets whose end moved since the "
       "previous snapshot, and a rebuild reads a bucket it does not list from offset 0",
       "apache/fluss #3838: undo recovery kept only changed buckets; a later restore read the others from 0",
       Invariant::kInvalidRecovery, StoreOf<FlussMissingBucketAsZeroStore>(), {}, {StoreDesign::kFluss}},
      {"fluss-prune-skips-separator-keys", "fluss: prune keeps every state of an input key holding '_' (its record "
       "key does not split into four '_'-separated fields)", "Flink Agents 0.3.0 FlussActionStateStore.pruneState "
       "(ActionStateUtil.parseKey requires four fields; an entry that fails is logged and kept)",
       Invariant::kBoundedMemory, StoreOf<FlussPruneSkipsSeparatorKeysStore>(), {}, {StoreDesign::kFluss}},
  });
}

// Every entry names one mutant, says what it breaks and where it comes from,
// and replaces the store, the runtime or both (empty factories would run
// the production parts, which no checker can catch).
void CheckRegistry(const std::vector<Mutant>& mutants) {
  for (size_t i = 0; i < mutants.size(); ++i) {
    const Mutant& mutant = mutants[i];
    DURASIM_CHECK_MSG(!mutant.name.empty(), "mutant #" + std::to_string(i) + " has no name");
    DURASIM_CHECK_MSG(!mutant.description.empty() && !mutant.origin.empty(), mutant.name);
    DURASIM_CHECK_MSG(mutant.make_store || mutant.make_runtime, mutant.name + " replaces neither store nor runtime");
    for (size_t j = 0; j < i; ++j) {
      DURASIM_CHECK_MSG(mutants[j].name != mutant.name, "mutant " + mutant.name + " is registered twice");
    }
  }
}

// Every mutant, in registration order (the order listings and the kill
// matrix show).
std::vector<Mutant> RegisteredMutants() {
  std::vector<Mutant> mutants;
  AddSaveAndReleaseMutants(mutants);
  AddReplayMutants(mutants);
  AddRestoreMutants(mutants);
  AddDesignMutants(mutants);
  mutants.push_back({"canary", "every output is off by one", "none: proves the checkers are alive",
                     Invariant::kSameAnswer, {}, RuntimeOf<CanaryRuntime>()});
  CheckRegistry(mutants);
  return mutants;
}

}  // namespace

const std::vector<Mutant>& AllMutants() {
  static const std::vector<Mutant> kMutants = RegisteredMutants();
  return kMutants;
}

const Mutant* FindMutant(const std::string& name) {
  for (const Mutant& mutant : AllMutants()) {
    if (mutant.name == name) return &mutant;
  }
  return nullptr;
}

}  // namespace durasim
