// Scenario: the parsed, validated form of a scenario file (docs/scenarios.md).
//
// A scenario is data: the agent plan (actions and the suppliers they call),
// the keyed inputs, the attempts (each optionally restoring a checkpoint,
// then a script of driver steps and armed faults) and the expectation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/enum_table.h"
#include "model/reconcile.h"
#include "model/record_kind.h"
#include "store/action_state.h"
#include "store/recovery_marker.h"
#include "model/verdict.h"
#include "store/status.h"
#include "store/store_design.h"

namespace durasim {

// 1-based line and column in the scenario file; 0 when built in code.
struct SourcePos {
  int line = 0;
  int column = 0;
};

// The event type every input produces; actions listen on it with `on: [input]`.
inline constexpr const char* kInputEventType = "input";

enum class CallMode { kSync, kAsync };

// What a durable call's argument is made of. The answer of the outside world
// depends on the accumulator alone; the attempt number is what changes across
// a restore, like a timestamp or a request id in a prompt, so the call's
// argument digest no longer matches its saved result and the call is made
// again (Flink Agents' DurableExecutionContext).
enum class ArgSource {
  kAcc,      // the accumulator: the same on every replay
  kAttempt,  // the accumulator and the attempt number
};

// The argument source table: names as scenario files write them.
std::optional<EnumInfo> EnumInfoOf(ArgSource source);

// One step of an action. Every action carries an accumulator, an integer
// initialised to the triggering event's value.
struct ActionStep {
  enum class Kind {
    kCall,    // durable call: acc = supplier(acc)
    kMemory,  // memory update: memory[name] = acc
    kEmit,    // emit an event of type `name` with value acc
    kOutput,  // emit an output record with value acc
    kRecall,     // memory read: acc = acc + memory[name] (0 when the slot is unset)
    kMemoryAdd,  // memory update: memory[name] = memory[name] + acc
  };
  Kind kind = Kind::kOutput;
  std::string name;  // kCall: supplier name; kMemory, kRecall, kMemoryAdd: memory slot; kEmit: event type
  CallMode mode = CallMode::kSync;  // kCall only
  ArgSource arg = ArgSource::kAcc;  // kCall only
  SourcePos pos;
};

// What an action does when one of its durable calls fails (the supplier
// raised, or the saved FAILED result is re-raised on replay).
enum class OnError {
  kFail,    // the job fails over, like a failed put (Flink: the exception fails the job)
  kIgnore,  // the action ends at once, completed with no effects (no outputs, events or memory updates)
  kRetry,   // the call is made again at the next call index, up to `retries_max` times; then it fails over
  // The action catches the failure and goes on, with `fallback` as its
  // value (Flink Agents: an action whose catch block emits an "ERROR:"
  // output). The FAILED result stays saved, and is re-raised (and caught)
  // on replay.
  kContinue,
};

// The error handling table: names as scenario files write them.
std::optional<EnumInfo> EnumInfoOf(OnError on_error);

// Which durable calls save a PENDING slot before they are made (`durable:
// {pending: ...}`).
enum class PendingSlots {
  kEveryCall,     // every call: durasim's default
  kReconcilable,  // only a call whose supplier has a reconciler (Flink Agents main: a call without one is
                  // persisted once, at its completion)
};

std::optional<EnumInfo> EnumInfoOf(PendingSlots pending);

// Which engine runs the action tasks (`durable: {engine: ...}`).
enum class ExecutionEngine {
  kMailbox,     // the mailbox runs tasks; async calls wait off it (Flink Agents' continuation engine, JDK 21+)
  kWorkerPool,  // workers pull tasks; a checkpoint first drains the pulled ones (apache/flink-agents #1119, PR #1147)
};

std::optional<EnumInfo> EnumInfoOf(ExecutionEngine engine);

// How the runtime persists durable calls (`durable:`).
struct DurableOptions {
  // False: durable execution off (`execution: off`): no action-state store
  // (model/no_store.h); every call is made, nothing is persisted or read.
  bool execution = true;
  PendingSlots pending = PendingSlots::kEveryCall;
  // False (`async: sync_fallback`): the runtime has no executor for async
  // calls, and an async call runs synchronously, holding the mailbox (Flink
  // Agents' durableExecuteAsync on a context without one).
  bool async_executor = true;
  // kWorkerPool (`engine: worker_pool`): the barrier of a checkpoint waits
  // until every task a worker pulled is committed, starting no other
  // (AgentRuntime::BeginDrain); what is snapshotted is never in flight.
  ExecutionEngine engine = ExecutionEngine::kMailbox;
  bool operator==(const DurableOptions&) const = default;
};

// What a restore does with partitions added after its checkpoint
// (`store_options: {added_partitions: ...}`).
enum class AddedPartitions {
  kReadFromStart,  // read each from offset 0: durasim's default (docs/scenarios.md)
  kReject,         // reject the marker: the real Kafka store since apache/flink-agents #1101
};

std::optional<EnumInfo> EnumInfoOf(AddedPartitions added);

// What a store's get() does besides the lookup (`store_options: {get: ...}`).
enum class GetEviction {
  kLookup,        // nothing: a lookup never changes the cache (durasim's default)
  kOnDivergence,  // the real get(): evicts later states on a miss or a "divergence" (docs/findings.md, finding 1)
};

std::optional<EnumInfo> EnumInfoOf(GetEviction eviction);

// The real store's choices where durasim's differ by design
// (`store_options:`).
struct StoreChoices {
  AddedPartitions added_partitions = AddedPartitions::kReadFromStart;
  GetEviction get = GetEviction::kLookup;
  bool operator==(const StoreChoices&) const = default;
};

struct ErrorHandling {
  OnError kind = OnError::kFail;
  int64_t retries_max = 0;  // kRetry: tries after the first
  int64_t fallback = 0;     // kContinue: the value the action goes on with
  // Tries one call gets: the first and its retries.
  int64_t tries_max() const { return 1 + (kind == OnError::kRetry ? retries_max : 0); }
};

struct ActionSpec {
  std::string name;
  std::vector<std::string> on;  // event types that trigger it
  std::vector<ActionStep> steps;
  ErrorHandling on_error;       // for every durable call of the action
  SourcePos pos;
};

// A supplier is the outside world behind a durable call.
struct SupplierSpec {
  std::string name;
  // Result = argument * scale when scale is set, otherwise a digest of
  // (supplier name, call identity, argument) reduced to [0, 1000).
  std::optional<int64_t> scale;
  // A drifting supplier's result also changes with every invocation, so a
  // repeated call shows in the outputs.
  bool drifting = false;
  int64_t latency_ms = 1;  // simulated time a call takes
  // With a range (`latency_ms: {min, max}`), a perturbed run draws each
  // call's latency in [latency_ms, latency_ms_max]; otherwise, and in every
  // run without --perturb, a call takes latency_ms (model/perturbation.h).
  std::optional<int64_t> latency_ms_max;
  // The nth invocation of this supplier in the run (all attempts) fails.
  std::optional<int64_t> fails_nth;
  // A call fails when a digest of its identity (state key, call index,
  // function, argument digest) falls below this percentage: every
  // invocation of the same call agrees, in every run.
  int64_t fail_percent = 0;
  // Its reconciler's answers (model/reconcile.h), by asking: the nth time
  // it is asked in the run gets the nth, past the end the last. Empty: no
  // reconciler, a PENDING call is made again.
  std::vector<ReconcileAnswer> reconcile;
  SourcePos pos;
};

// A version of the agent: the suppliers and the actions that call them.
// An attempt may deploy a new one (AttemptSpec::plan); it keeps the
// scenario's actions, in order, each listening on what it listened on, and
// may change their steps, their error handling and the suppliers.
struct PlanSpec {
  std::vector<SupplierSpec> suppliers;
  std::vector<ActionSpec> actions;
  SourcePos pos;
};

struct InputSpec {
  std::string key;  // any string, separators included
  int64_t value = 0;
  SourcePos pos;
};

// A fault armed by an attempt step; fires on the nth matching point of that
// attempt (1-based, counted from the attempt's start). A new kind needs its
// entry in EnumInfoOf (scenario.cc), its model (FaultPlan), its draw in the
// generator (properties/scenario_generator.cc) and a row in
// docs/scenarios.md; the compiler asks for the first and the third.
enum class FaultKind {
  kCrashAfterPutPersisted,  // crash right after the log holds the nth put
  kCrashAfterPutAcked,      // crash right after the nth put's acknowledgement
  kCrashBetweenCalls,       // crash after the nth durable call's result is saved, before the next call
  kCrashAsyncInFlight,      // crash while the nth async supplier call is in flight
  kCrashBeforeCheckpoint,   // crash as the nth checkpoint barrier arrives, before the snapshot
  kCrashAfterCheckpoint,    // crash right after the nth snapshot, before any notification
  kRejectPut,               // the nth put is rejected: not persisted, error
  kLoseAck,                 // the nth put is persisted, its acknowledgement lost
  kCancelPut,               // the caller's wait for the nth put is cancelled
  kCancelCall,              // the nth durable call is cancelled while in flight
  kCorruptRecord,           // the record of the nth persisted put is overwritten with garbage in the log
};

// The fault kind table, in declaration order: a kind's name as scenario
// files and traces write it, and what it does; defined by the fault catalog
// (model/fault_catalog.h), the kind's one home.
std::optional<EnumInfo> EnumInfoOf(FaultKind kind);

// What a write to the state topic is: which put of an action (the `why=` of
// put.issued lines), or a tombstone the store sends when it prunes a state.
// Faults can select puts by it (FaultSelector), and a put fault's coverage
// point is refined by it.
enum class PutPoint {
  kStart,      // the action's first state
  kPending,    // a durable call's slot before the call
  kResult,     // a durable call's result
  kComplete,   // the action finished
  kTombstone,  // a pruned state's tombstone (sent without waiting)
  kCleanup,    // a prune's cleanup record, ahead of its tombstones (with log.delete_retention_ms; its
               // acknowledgement is awaited by the prune's tail, no action: the tombstones wait for it)
  kRewrite,    // kafka-rewrite: an unfinished state written again at a snapshot (awaited by the driver)
};

std::optional<EnumInfo> EnumInfoOf(PutPoint point);

// Which points an armed fault counts, beyond its kind and subtask: every
// field given must match (docs/scenarios.md "Aiming a fault"). Tombstones
// are counted only by a fault that selects `put: tombstone`.
struct FaultSelector {
  std::optional<PutPoint> put;      // put faults only
  std::optional<std::string> key;   // the input key of the put or call
  std::optional<int64_t> seq;       // its sequence number
  std::optional<std::string> action;  // the action's name
  std::optional<int32_t> call;      // the durable call's index in its action (a pending or result put, or a call)
  bool empty() const { return !put && !key && !seq && !action && !call; }
  bool operator==(const FaultSelector&) const = default;
};

// The record a `foreign` step appends from outside the run: its key is
// given (bytes) or that of the record at `key_of` on the step's partition,
// its value is given, that of the record at `value_of`, or empty (a
// tombstone).
struct ForeignRecordSpec {
  std::optional<std::string> key;
  std::optional<int64_t> key_of;
  std::optional<std::string> value;
  std::optional<int64_t> value_of;
  bool tombstone = false;
  bool operator==(const ForeignRecordSpec&) const = default;
};

struct AttemptStep {
  enum class Kind {
    kRead,        // the source delivers `count` more inputs (count < 0: all)
    kCheckpoint,  // take checkpoint `checkpoint`
    kComplete,    // notify checkpoint `checkpoint` complete
    kAbort,       // notify checkpoint `checkpoint` aborted
    kRun,         // let the runtime work until it is idle
    kRunFor,      // let the runtime work for `duration_ms` of simulated time
    kCrash,       // crash now
    kArm,         // arm fault `fault` on the `nth` matching point
    kBrokerDown,  // the broker is unreachable for `duration_ms` from now
    kCorrupt,     // overwrite the record at (partition, offset) with garbage
    kDeleteRecords,  // Kafka's DeleteRecords: records of `partition` below `offset` leave the log
    kRecreateTopic,  // the topic is deleted and created again (a new incarnation); the running job fails over
    kSlowFetch,      // fetches return nothing for `duration_ms` from now (each waits its fetch wait)
    kCompact,        // log compaction: only the latest record of each key stays
    kAddPartitions,  // Kafka's CreatePartitions: `count` partitions are added to the topic
    kForeign,        // a record the run does not write is appended to `partition` from outside (`foreign`)
  };
  Kind kind = Kind::kRun;
  int64_t count = 0;           // kRead; kAddPartitions: how many partitions are added
  std::string checkpoint;      // kCheckpoint, kComplete, kAbort
  bool notify = true;          // kComplete: the operator hears of the completion (`notify: false`: it does not)
  int64_t duration_ms = 0;     // kRunFor, kBrokerDown, kSlowFetch
  FaultKind fault = FaultKind::kCrashAfterPutPersisted;  // kArm
  int64_t nth = 1;             // kArm
  std::optional<int32_t> subtask;  // kArm: count only this subtask's points
  FaultSelector select;        // kArm: count only the points it selects
  int32_t partition = 0;       // kCorrupt, kDeleteRecords, kForeign
  int64_t offset = 0;          // kCorrupt; kDeleteRecords: the before offset
  ForeignRecordSpec foreign;   // kForeign
  SourcePos pos;
};

// `restore:` values that pick a checkpoint by order when the attempt starts:
// the most recently completed one, or the one completed before it (the
// latest when there is only one).
inline constexpr const char* kRestoreLatest = "latest";
inline constexpr const char* kRestorePrevious = "previous";
// The checkpoint the runner takes after the last attempt (its epilogue, for
// the bounded-memory check): a scenario may not name one so.
inline constexpr const char* kFinalCheckpoint = "__final__";

// A recovery marker an attempt writes by hand into its restore's union list
// (`restore: {checkpoint: <id>, markers: [...]}`): what another store
// version wrote, or no store did, to test what the store does with it. What
// it does not state is that of the checkpoint's own markers merged
// (MinimumMarker): its version, topic and offsets.
struct HandMadeMarkerSpec {
  enum class Offsets {
    kCheckpoint,  // the checkpoint's own
    kLogEnd,      // the log's end offsets at the restore, of the partitions the checkpoint's marker names
    kStated,      // `stated`
  };
  // 1: the legacy form, the bare partition -> offset map (no topic, no
  // completed boundaries); 2: the current form; anything else: a version no
  // store writes.
  std::optional<int32_t> version;
  std::optional<std::string> topic;  // a version-2 marker of another topic
  Offsets offsets = Offsets::kCheckpoint;
  MarkerOffsets stated;
  SourcePos pos;
};

struct AttemptSpec {
  std::optional<std::string> restore;  // checkpoint id, latest or previous; none: start fresh
  // The restore's union list written by hand (it may be empty: a store
  // rejects an empty list); none: the checkpoint's own.
  std::optional<std::vector<HandMadeMarkerSpec>> markers;
  // The job's parallelism from this attempt on (a rescale at its restore);
  // none: the one in effect stays.
  std::optional<int32_t> parallelism;
  // A new version of the agent deployed as this attempt starts; it stays
  // until an attempt deploys another. None: the plan in effect stays.
  std::optional<PlanSpec> plan;
  // `restore: {during_rebuild: [...]}`: steps (`foreign`, `add_partitions`)
  // that act on the log while the restore's rebuild reads it: after it
  // captured the end offsets, before its first fetch. Empty: none.
  std::vector<AttemptStep> during_rebuild;
  // `log: {tombstones: b}`: whether the stores of the job deployed from this
  // attempt on emit tombstones (a configuration migration); none: the
  // setting in effect stays (Scenario::TombstonesIn).
  std::optional<bool> tombstones;
  std::vector<AttemptStep> steps;
  SourcePos pos;
};

// Producer and broker timing of the simulated log.
struct LogConfig {
  int32_t partitions = 1;
  int64_t linger_ms = 5;
  int64_t ack_latency_ms = 1;
  // Ranges a perturbed run draws from (`linger_ms: {min, max}`): each
  // linger and each acknowledgement then takes a latency in [value, max].
  // None: fixed. A run without --perturb always takes the minimum.
  std::optional<int64_t> linger_ms_max;
  std::optional<int64_t> ack_latency_ms_max;
  int64_t delivery_timeout_ms = 300;  // how long a produce retries while the broker is down
  // How often the runtime re-runs an action whose put the broker rejected
  // (definitely not persisted) before the job fails over. A lost
  // acknowledgement or a cancelled wait always fails over.
  int64_t put_retries_max = 0;
  // Prune also appends a tombstone for every state it drops (Flink Agents'
  // opt-in KAFKA_ACTION_STATE_TOMBSTONE_ENABLED). A restore of a checkpoint
  // older than the prune then loses those states: with tombstones, restore
  // only the latest completed checkpoint.
  bool tombstones = false;
  // Kafka's retention.ms in simulated time: a record appended longer ago
  // than this leaves the log (checked at each attempt's start and before
  // each script step). 0: records are kept forever.
  int64_t retention_ms = 0;
  // Kafka's delete.retention.ms in simulated time: a compact that reaches a
  // tombstone stamps its delete horizon (now + this, as KIP-534's cleaner
  // does), and a compact at or after the horizon removes it. With
  // tombstones, the store then also appends cleanup records (the boundary
  // outlives the tombstones). 0: compaction never removes a tombstone.
  int64_t delete_retention_ms = 0;
};

// What the scenario expects of a run.
// What `expect: log:` states of one record the topic holds at the end of
// the run; what it leaves out is not checked.
struct ExpectedCall {
  std::optional<std::string> function;
  std::optional<CallStatus> status;
  std::optional<int64_t> result;     // SUCCEEDED
  std::optional<std::string> error;  // FAILED
  SourcePos pos;
};
struct ExpectedRecord {
  RecordKind kind = RecordKind::kStart;
  std::optional<std::string> key;     // the input key (a cleanup record's too)
  std::optional<int64_t> seq;         // a cleanup record's: the highest pruned
  std::optional<std::string> action;  // by name
  std::optional<std::vector<ExpectedCall>> calls;  // every call slot, in order
  std::optional<std::vector<int64_t>> outputs;     // the output events a completed state keeps
  std::optional<std::vector<MemoryUpdate>> memory;  // every memory update the state holds, in order
  std::optional<std::vector<EmittedEvent>> events;  // every emitted event but outputs, in order
  SourcePos pos;
};
// Every record of one partition, in offset order.
struct ExpectedPartition {
  int32_t partition = 0;
  std::vector<ExpectedRecord> records;
  SourcePos pos;
};

// What `expect: restores:` and `expect: checkpoints:` state of a recovery
// marker; what it leaves out is not checked.
struct ExpectedMarker {
  std::optional<int32_t> version;
  std::optional<std::string> topic;
  std::optional<MarkerOffsets> offsets;
  std::optional<CompletedBoundaries> completed;
  SourcePos pos;
};
// What `expect: restores:` states of one subtask's restore.
struct ExpectedRestore {
  int attempt = 0;  // 1-based; the attempt restores
  int32_t subtask = 0;
  std::optional<ExpectedMarker> marker;  // the merged marker the rebuild read from
  // Every state the store caches after the rebuild, in state key order
  // (key, then seq): kind start, pending, result or complete.
  std::optional<std::vector<ExpectedRecord>> cache;
  std::optional<std::string> rejected;  // the rebuild is rejected with a message holding this
  SourcePos pos;
};
// What `expect: completions:` states of what one subtask's store caches
// right after a checkpoint's completion notice reached it (its prune done).
struct ExpectedCompletion {
  std::string checkpoint;
  int32_t subtask = 0;
  std::vector<ExpectedRecord> cache;  // every cached state, in state key order
  SourcePos pos;
};
// What `expect: checkpoints:` states of the markers a checkpoint saved.
struct ExpectedCheckpoint {
  std::string id;
  std::vector<ExpectedMarker> markers;  // one per subtask that took it, in subtask order
  SourcePos pos;
};

struct Expectation {
  // pass, error, or the invariant that must be violated (model/verdict.h).
  ExpectedVerdict verdict;
  std::optional<std::vector<int64_t>> outputs;  // de-duplicated, in input order
  std::optional<int64_t> supplier_calls;        // total over all attempts
  // Supplier invocations of these suppliers (by name; others unchecked).
  std::map<std::string, int64_t> calls_by_supplier;
  // Supplier invocations per input, one count per input in `inputs` order
  // (the calls of every action its events ran); empty: unchecked.
  std::vector<int64_t> calls_by_input;
  // Whether each arm step fired, in file order; empty: unchecked.
  std::vector<bool> fired;
  // How each attempt ends (Attempt::End's names), in order; empty: unchecked.
  std::vector<std::string> attempt_ends;
  // Records scanned by each subtask's rebuild at any restore, at most.
  std::optional<int64_t> restore_scanned_max;
  // Inputs (0-based positions in `inputs`) allowed to be unfinished at the
  // end of the last attempt; `unfinished_all`: any. Otherwise an unfinished
  // input is a liveness violation (unless the run without faults fails over
  // on a durable call failure, or the run ends in an error).
  std::vector<int64_t> unfinished;
  bool unfinished_all = false;
  // The records of these partitions at the end of the run; others unchecked.
  std::vector<ExpectedPartition> log;
  std::vector<ExpectedRestore> restores;
  std::vector<ExpectedCheckpoint> checkpoints;
  std::vector<ExpectedCompletion> completions;
  // Armed faults may stay unfired (generated scenarios, whose faults are
  // drawn blind); otherwise an armed fault that never fires is an error.
  bool allow_unfired = false;
  SourcePos pos;
};

struct Scenario {
  std::string path;  // file it came from, for messages
  std::string name;
  std::string description;
  uint64_t seed = 1;
  // The perturbed schedule this run follows (`durasim run --perturb`,
  // model/perturbation.h): latencies drawn in their ranges, same-time timers
  // in a seeded order. None: the canonical schedule (minimum latencies, FIFO).
  std::optional<uint64_t> perturb_seed;
  std::optional<std::string> mutant;  // run with this mutant unless overridden
  // The store design every attempt's stores follow (`store:`, `--store`).
  StoreDesign store = StoreDesign::kKafkaRewind;
  StoreChoices store_options;
  DurableOptions durable;
  // The file names its design: it is design-specific, and `--store` leaves
  // it as it is (a file says why in its header).
  bool store_named = false;
  // The action operator's parallelism P (subtasks) and max parallelism M
  // (key groups), as Flink has them (model/key_groups.h).
  int32_t parallelism = 1;
  int32_t max_parallelism = 128;
  LogConfig log;
  std::vector<SupplierSpec> suppliers;
  std::vector<ActionSpec> actions;
  std::vector<InputSpec> inputs;
  std::vector<AttemptSpec> attempts;
  Expectation expect;

  // The plan attempt `attempt` (1-based) runs: the last one deployed at or
  // before it; nullptr: the scenario's own suppliers and actions.
  const PlanSpec* DeployedPlan(int attempt) const;
  // The parallelism attempt `attempt` (1-based) runs with.
  int32_t ParallelismOf(int attempt) const;
  // Whether the stores of attempt `attempt` (1-based) emit tombstones: the
  // last `log: {tombstones}` of an attempt at or before it, else log.tombstones.
  bool TombstonesIn(int attempt) const;
  // Whether any attempt's stores emit tombstones: the log may hold some.
  bool TombstonesEver() const;
  // The topic's partitions after every add_partitions step of the run.
  int32_t PartitionsMax() const;
  // The memory slots some `memory` or `memory_add` step writes, in the
  // actions or any attempt's plan: the only ones a `recall` may read.
  std::set<std::string> MemorySlotsWritten() const;
};

}  // namespace durasim
