// The fault catalog's tables (model/fault_catalog.h).
#include "model/fault_catalog.h"

#include "store/check.h"

namespace durasim {
namespace {

const char* ParametersOf(ArmTarget target) {
  switch (target) {
    case ArmTarget::kPut: return "nth put; put, key, seq, action, call; subtask";
    case ArmTarget::kCall: return "nth durable call; key, seq, action, call; subtask";
    case ArmTarget::kCheckpoint: return "nth checkpoint; subtask";
    case ArmTarget::kNone: break;
  }
  DURASIM_CHECK_MSG(false, "an armed fault aims at puts, calls or checkpoints");
  return "";
}

// An armed fault counts its kind (and a put fault also the put it hit).
FaultEntry Armed(const char* name, ArmTarget target, const char* description, FaultKind kind, bool late) {
  FaultEntry entry{name, ParametersOf(target), description, CoveragePoint::Fired(kind),
                   late ? GeneratorDraw::kLateArm : GeneratorDraw::kSwarmArm};
  entry.target = target;
  return entry;
}

constexpr ArmTarget kPutPoint = ArmTarget::kPut;
constexpr ArmTarget kCallPoint = ArmTarget::kCall;
constexpr ArmTarget kCheckpointPoint = ArmTarget::kCheckpoint;

StepEntry Job(const char* keyword, bool takes_value) { return StepEntry{keyword, takes_value, StepFamily::kJob, std::nullopt}; }

StepEntry Operation(const char* keyword, bool takes_value, FaultEntry fault) {
  return StepEntry{keyword, takes_value, StepFamily::kLogOperation, std::move(fault)};
}

}  // namespace

std::optional<EnumInfo> EnumInfoOf(GeneratorDraw draw) {
  switch (draw) {
    case GeneratorDraw::kSwarmArm: return EnumInfo{"swarm_arm", "an arm of a kind the seed's swarm picked"};
    case GeneratorDraw::kLateArm: return EnumInfo{"late_arm", "an arm of a kind drawn after the first choices"};
    case GeneratorDraw::kScript: return EnumInfo{"script", "a step the attempt builder places"};
    case GeneratorDraw::kLogEvents: return EnumInfo{"log_events", "behind the gate of the log's events"};
    case GeneratorDraw::kLogShapes: return EnumInfo{"log_shapes", "behind the gate of the log's shapes"};
    case GeneratorDraw::kBlame: return EnumInfo{"blame", "behind the gate of blame (a new job, a foreign record)"};
    case GeneratorDraw::kPerturbedRun: return EnumInfo{"perturbed_run", "drawn by every perturbed run"};
    case GeneratorDraw::kNotDrawn: return EnumInfo{"not_drawn", "hand-written scenarios only"};
  }
  return std::nullopt;
}

std::optional<FaultEntry> FaultEntryOf(FaultKind kind) {
  switch (kind) {
    case FaultKind::kCrashAfterPutPersisted:
      return Armed("crash_after_put_persisted", kPutPoint, "crash right after the log holds the nth put", kind, false);
    case FaultKind::kCrashAfterPutAcked:
      return Armed("crash_after_put_acked", kPutPoint, "crash right after the nth put's acknowledgement", kind, false);
    case FaultKind::kCrashBetweenCalls:
      return Armed("crash_between_calls", kCallPoint,
                   "crash after the nth durable call's result is saved, before the next", kind, false);
    case FaultKind::kCrashAsyncInFlight:
      return Armed("crash_async_in_flight", kCallPoint,
                   "crash while the nth async supplier call is in flight", kind, false);
    case FaultKind::kCrashBeforeCheckpoint:
      return Armed("crash_before_checkpoint", kCheckpointPoint,
                   "crash as the nth checkpoint barrier arrives, before the snapshot", kind, false);
    case FaultKind::kCrashAfterCheckpoint:
      return Armed("crash_after_checkpoint", kCheckpointPoint,
                   "crash right after the nth snapshot, before any notification", kind, false);
    case FaultKind::kRejectPut:
      return Armed("reject_put", kPutPoint, "the nth put is rejected: not persisted, error", kind, false);
    case FaultKind::kLoseAck:
      return Armed("lose_ack", kPutPoint, "the nth put is persisted, its acknowledgement lost", kind, false);
    case FaultKind::kCancelPut:
      return Armed("cancel_put", kPutPoint, "the caller's wait for the nth put is cancelled", kind, false);
    case FaultKind::kCancelCall:
      return Armed("cancel_call", kCallPoint, "the nth durable call is cancelled while in flight", kind, true);
    case FaultKind::kCorruptRecord:
      return Armed("corrupt_record", kPutPoint, "the record of the nth persisted put is overwritten with garbage",
                   kind, true);
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(FaultKind kind) {
  const std::optional<FaultEntry> entry = FaultEntryOf(kind);
  if (!entry) return std::nullopt;
  return EnumInfo{entry->name, entry->description};
}

std::optional<StepEntry> StepEntryOf(AttemptStep::Kind kind) {
  using Kind = AttemptStep::Kind;
  switch (kind) {
    case Kind::kRead: return Job("read", true);
    case Kind::kCheckpoint: return Job("checkpoint", true);
    case Kind::kComplete: return Job("complete", true);
    case Kind::kAbort:
      return StepEntry{"abort", true, StepFamily::kScriptFault,
                       FaultEntry{"abort", "<checkpoint id>", "notify a checkpoint aborted",
                                  CoveragePoint::Made(ScriptFault::kCheckpointAbort), GeneratorDraw::kScript}};
    case Kind::kRun: return Job("run", false);
    case Kind::kRunFor: return Job("run_ms", true);
    case Kind::kCrash:
      return StepEntry{"crash", false, StepFamily::kScriptFault,
                       FaultEntry{"crash", "", "crash now: everything in memory is lost",
                                  CoveragePoint::Made(ScriptFault::kCrashStep), GeneratorDraw::kScript}};
    case Kind::kArm: return Job("arm", true);
    case Kind::kBrokerDown:
      return Operation("broker_down", true,
                       FaultEntry{"broker_down", "{for_ms}", "the broker is unreachable for a while",
                                  CoveragePoint::Made(ScriptFault::kBrokerDown), GeneratorDraw::kScript});
    case Kind::kCorrupt:
      return Operation("corrupt", true,
                       FaultEntry{"corrupt", "{partition, offset}", "overwrite the record at an offset with garbage",
                                  std::nullopt, GeneratorDraw::kNotDrawn,
                                  "a record named by its offset is a hand-written case; explore corrupts by meaning "
                                  "with the armed corrupt_record, counted as corrupt_record"});
    case Kind::kDeleteRecords:
      return Operation("delete_records", true,
                       FaultEntry{"delete_records", "{partition, before_offset}",
                                  "Kafka's DeleteRecords: the records below an offset leave the log",
                                  CoveragePoint::Happened(LogEvent::kDeleteRecords), GeneratorDraw::kLogEvents});
    case Kind::kRecreateTopic:
      return Operation("recreate_topic", false,
                       FaultEntry{"recreate_topic", "", "the topic is deleted and created again under its name",
                                  CoveragePoint::Happened(LogEvent::kRecreateTopic), GeneratorDraw::kLogEvents});
    case Kind::kSlowFetch:
      return Operation("slow_fetch", true,
                       FaultEntry{"slow_fetch", "{for_ms}", "fetches return nothing for a while",
                                  CoveragePoint::Happened(LogEvent::kSlowFetch), GeneratorDraw::kLogEvents});
    case Kind::kCompact:
      return Operation("compact", false,
                       FaultEntry{"compact", "", "log compaction: only each key's latest record stays",
                                  CoveragePoint::Happened(LogEvent::kCompact), GeneratorDraw::kLogEvents});
    case Kind::kAddPartitions:
      return Operation("add_partitions", true,
                       FaultEntry{"add_partitions", "<n>", "Kafka's CreatePartitions: n partitions join the topic",
                                  CoveragePoint::Happened(LogEvent::kAddPartitions), GeneratorDraw::kLogShapes});
    case Kind::kForeign:
      return Operation("foreign", true,
                       FaultEntry{"foreign", "{partition, key | key_of, value | value_of | tombstone}",
                                  "a record the run does not write is appended from outside",
                                  CoveragePoint::Happened(LogEvent::kForeignRecord), GeneratorDraw::kBlame});
  }
  return std::nullopt;
}

std::optional<FaultEntry> FaultEntryOf(ScheduleDraw draw) {
  constexpr const char* kNotCounted =
      "a perturbed run is counted by `run --perturb` (schedules run, failed), not by a coverage point: every "
      "perturbed run draws it";
  switch (draw) {
    case ScheduleDraw::kLatency:
      return FaultEntry{"latency", "{min, max} on linger_ms, ack_latency_ms or a supplier's latency_ms",
                        "each latency given as a range is drawn in it", std::nullopt, GeneratorDraw::kPerturbedRun,
                        kNotCounted};
    case ScheduleDraw::kTimerOrder:
      return FaultEntry{"timer_order", "", "timers due at the same instant fire in a seeded order, not FIFO",
                        std::nullopt, GeneratorDraw::kPerturbedRun, kNotCounted};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(ScheduleDraw draw) {
  const std::optional<FaultEntry> entry = FaultEntryOf(draw);
  if (!entry) return std::nullopt;
  return EnumInfo{entry->name, entry->description};
}

}  // namespace durasim
