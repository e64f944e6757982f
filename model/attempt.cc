// Attempt implementation.
#include "model/attempt.h"

#include "store/check.h"

#include <fmt/format.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <exception>

namespace durasim {
namespace {
SimDuration Ms(int64_t ms) { return std::chrono::duration_cast<SimDuration>(std::chrono::milliseconds(ms)); }
}  // namespace

const char* AttemptEndName(Attempt::End end) {
  switch (end) {
    case Attempt::End::kFinished: return "finished";
    case Attempt::End::kCrashed: return "crashed";
    case Attempt::End::kFailed: return "failed";
    case Attempt::End::kRestoreRejected: return "restore-rejected";
    case Attempt::End::kStuck: return "stuck";
    case Attempt::End::kError: return "error";
  }
  return "unknown";
}

Attempt::Attempt(World& world, const AttemptSpec& spec, int number, const AttemptParts& parts)
    : world_(world), spec_(spec), number_(number) {
  scheduler_ = std::make_unique<Scheduler>(world.clock());
  FaultPlan::Hooks hooks;
  hooks.crash = [this](const std::string& reason) { runtime_->Crash(reason); };
  hooks.cancel_wait = [this] { runtime_->CancelRunningWait(); };
  hooks.corrupt = [this](int32_t partition, int64_t offset) { MarkCorrupted(partition, offset); };
  hooks.fired = [this](FaultKind fault, int64_t nth, std::optional<PutPoint> put) {
    world_.Record("fault.fired", fmt::format("fault={} nth={}{}", NameOf(fault), nth,
                                             put ? std::string(" put=") + NameOf(*put) : ""));
    world_.CountFault(CoveragePoint::Fired(fault));
    if (put) world_.CountFault(CoveragePoint::Fired(fault, put));
  };
  faults_ = std::make_unique<FaultPlan>(std::move(hooks));
  Result<BackendConnection> connection = world.backend().Connect(
      *scheduler_, [this](const LogRecord& record, AppendSeen seen) { OnAppended(record, seen); });
  if (!connection.ok()) {
    connected_ = connection.status();  // Run() reports it before anything runs
    return;
  }
  connection_.backend = &world.backend();
  log_client_ = std::move(connection->client);
  faulty_client_ = std::make_unique<FaultyLogClient>(*log_client_, *faults_, connection->write_faults);
  store_ = parts.make_store(*faulty_client_, world.scenario().log);
  runtime_ = parts.make_runtime(world, *scheduler_, *store_, *faults_);
}

void Attempt::OnAppended(const LogRecord& record, AppendSeen seen) {
  if (!world_.halted()) world_.lifecycle().NoteAppend(record, world_.now());
  const size_t index = world_.Record(AppendSeenTraceKind(seen), fmt::format("partition={} offset={} key={:?}",
                                                                            record.partition, record.offset, record.key));
  Result<DecodedState> decoded = DecodeStateValue(record.value);
  const DecodedState* state = decoded.ok() ? &decoded.value() : nullptr;
  world_.Notify([&](RunObserver& o) { o.OnRecordAppended(record, state, index); });
  if (seen == AppendSeen::kAppended) faults_->OnPersisted(record.partition, record.offset);
}

void Attempt::MarkCorrupted(int32_t partition, int64_t offset) {
  world_.backend().Corrupt(partition, offset);
  world_.NoteCorrupted(partition, offset);
  world_.Record("log.corrupted", fmt::format("partition={} offset={}", partition, offset));
}

bool Attempt::CorruptStep(int32_t partition, int64_t offset) {
  Result<bool> found = world_.backend().HasRecord(partition, offset);
  if (!found.ok()) {
    Error(fmt::format("corrupt: reading the log of backend {} failed: {}", world_.backend().name(),
                      found.status().ToString()));
    return false;
  }
  if (!*found) {
    Error(fmt::format("corrupt: no record at partition {} offset {}", partition, offset));
    return false;
  }
  MarkCorrupted(partition, offset);
  return true;
}

bool Attempt::DeleteRecords(int32_t partition, int64_t before_offset, LogEvent why) {
  const char* what = why == LogEvent::kRetention ? "retention" : "delete_records";
  Result<int64_t> start = world_.backend().DeleteRecords(partition, before_offset);
  if (!start.ok()) {
    Error(fmt::format("{}: backend {} failed: {}", what, world_.backend().name(), start.status().ToString()));
    return false;
  }
  LogLifecycle& lifecycle = world_.lifecycle();
  if (*start <= lifecycle.start(partition)) return true;  // nothing left the log
  const int64_t from = lifecycle.start(partition);
  lifecycle.NoteDeleted(partition, *start);
  world_.CountFault(CoveragePoint::Happened(why));
  world_.Record(why == LogEvent::kRetention ? "log.retention" : "log.deleted",
                fmt::format("partition={} records=[{}, {}) start={}", partition, from, *start, *start));
  return true;
}

bool Attempt::ApplyRetention() {
  const int64_t retention_ms = world_.scenario().log.retention_ms;
  if (retention_ms <= 0) return true;
  for (const auto& [partition, before] : world_.lifecycle().Expired(world_.now(), Ms(retention_ms))) {
    if (!DeleteRecords(partition, before, LogEvent::kRetention)) return false;
  }
  return true;
}

bool Attempt::Compact() {
  Result<std::vector<std::pair<int32_t, int64_t>>> removed = world_.backend().Compact();
  if (!removed.ok()) {
    Error(fmt::format("compact: backend {} failed: {}", world_.backend().name(), removed.status().ToString()));
    return false;
  }
  world_.lifecycle().NoteCompacted(*removed);
  for (const auto& [partition, offset] : *removed) world_.ForgetCorrupted(partition, offset);
  if (!removed->empty()) world_.CountFault(CoveragePoint::Happened(LogEvent::kCompact));
  world_.Record("log.compacted", fmt::format("records_removed={}", removed->size()));
  return true;
}

bool Attempt::RecreateTopic() {
  LogLifecycle& lifecycle = world_.lifecycle();
  world_.Record("log.recreated", fmt::format("incarnation={}", lifecycle.incarnation() + 1));
  world_.CountFault(CoveragePoint::Happened(LogEvent::kRecreateTopic));
  // The job fails over first, as Flink's would when its topic vanishes; the
  // topic is re-created with no incarnation connected.
  runtime_->Crash("recreate_topic");
  connection_.Close();
  if (Status recreated = world_.backend().RecreateTopic(); !recreated.ok()) {
    error_message_ = fmt::format("recreate_topic on backend {}: {}", world_.backend().name(), recreated.ToString());
    error_ = true;
    scheduler_->Stop();
    return false;
  }
  lifecycle.NoteRecreated();
  world_.ForgetCorrupted();
  return true;
}

void Attempt::Error(const std::string& message) {
  world_.Record("error", message);
  error_message_ = message;
  error_ = true;
  scheduler_->Stop();
}

Attempt::~Attempt() {
  connection_.Close();
  // The scheduler goes first: dropping its handlers unwinds suspended
  // coroutines, whose frames still refer to the runtime and the store.
  scheduler_.reset();
}

bool Attempt::Restore(End& end) {
  CheckpointStorage& storage = world_.checkpoints();
  const std::string id = *spec_.restore == kRestoreLatest     ? storage.latest_completed()
                         : *spec_.restore == kRestorePrevious ? storage.previous_completed()
                                                              : *spec_.restore;
  const Checkpoint* checkpoint = storage.Find(id);
  if (checkpoint == nullptr || checkpoint->phase != Checkpoint::Phase::kCompleted) {
    Error(fmt::format("checkpoint {} ({}) is not completed; cannot restore", *spec_.restore, id));
    end = End::kError;
    return false;
  }
  if (id != storage.latest_completed()) world_.CountFault(CoveragePoint::Made(ScriptFault::kRestoreOlder));
  if (!world_.log().IsUp(world_.now())) {
    // Nothing runs before the restore: wait for the broker.
    world_.Record("restore.wait", fmt::format("broker down until {}", FormatSimTime(world_.log().down_until())));
    world_.clock().now = world_.log().down_until();
  }
  if (world_.log().FetchesSlow(world_.now())) world_.CountFault(CoveragePoint::Happened(LogEvent::kSlowFetch));
  if (!runtime_->Restore(*checkpoint).ok()) {
    end = End::kRestoreRejected;
    return false;
  }
  return true;
}

Scheduler::RunEnd Attempt::Spawn(boost::asio::awaitable<void> script, SimDuration time_bound) {
  boost::asio::co_spawn(scheduler_->executor(), std::move(script), [](std::exception_ptr error) {
    if (error) std::rethrow_exception(error);
  });
  return scheduler_->Run(world_.now() + time_bound);
}

Attempt::End Attempt::Run(SimDuration time_bound) {
  world_.BeginAttempt(number_);
  world_.Record("attempt.start", spec_.restore ? fmt::format("restore={}", *spec_.restore) : "fresh");
  if (!connected_.ok()) {
    Error(fmt::format("cannot connect to the log of backend {}: {}", world_.backend().name(), connected_.ToString()));
    return End::kError;
  }
  if (Status discovered = world_.backend().DiscoverAppends(); !discovered.ok()) {
    Error(fmt::format("reading the log of backend {} failed: {}", world_.backend().name(), discovered.ToString()));
    return End::kError;
  }
  // Retention runs while the agent is down too.
  if (!ApplyRetention()) return End::kError;
  if (spec_.restore.has_value()) {
    End end = End::kError;
    if (!Restore(end)) return end;
  }
  Scheduler::RunEnd end = Scheduler::RunEnd::kStopped;
  try {
    end = Spawn(Drive(), time_bound);
  } catch (const std::exception& escaped) {
    // A coroutine of the script or the runtime threw: the attempt cannot go
    // on, and the run ends in error naming what was thrown.
    Error(fmt::format("an exception escaped a coroutine of attempt {}: {}", number_, escaped.what()));
  } catch (...) {
    Error(fmt::format("an exception escaped a coroutine of attempt {}: not a std::exception", number_));
  }
  if (error_) return End::kError;
  if (runtime_->failed()) return End::kFailed;
  if (runtime_->stopped()) return End::kCrashed;
  if (script_done_) return End::kFinished;
  world_.Record("attempt.stuck", end == Scheduler::RunEnd::kDeadline ? "simulated-time bound passed"
                                 : end == Scheduler::RunEnd::kBudget ? "handler budget exhausted"
                                                                     : "no runnable work left");
  return End::kStuck;
}

bool Attempt::TakeFinalCheckpoint(const std::string& id) {
  DURASIM_CHECK(script_done_);
  DURASIM_CHECK(!error_);
  faults_->DisarmAll();
  // The script is done and the runtime idle, so the mailbox is free and the
  // step runs as a driver step, at once. The scheduler stays stopped: work
  // the checkpoint would start (tombstone writes) does not run, as at the end
  // of every attempt.
  Mailbox& mailbox = runtime_->mailbox();
  if (!mailbox.TryAcquire()) {
    Error(fmt::format("the final checkpoint {}: the mailbox is still held at the end of the script", id));
    return false;
  }
  runtime_->TakeCheckpoint(id);
  runtime_->CompleteCheckpoint(id);
  mailbox.Release();
  return true;
}

boost::asio::awaitable<void> Attempt::Drive() {
  AgentRuntime& runtime = *runtime_;
  // The driver takes the mailbox before the restored tasks queue for it: they
  // queue ahead of any new input, and the script's first steps (a checkpoint
  // before dispatch, say) run before any of them.
  co_await runtime.mailbox().Acquire(true);
  bool holding = true;
  runtime.ResumeRestoredTasks();
  for (const AttemptStep& step : spec_.steps) {
    const bool lets_runtime_work = step.kind == AttemptStep::Kind::kRun || step.kind == AttemptStep::Kind::kRunFor;
    if (lets_runtime_work) {
      if (holding) runtime.mailbox().Release();
      holding = false;
      if (step.kind == AttemptStep::Kind::kRun) {
        co_await runtime.WaitIdle();
      } else {
        co_await scheduler_->AsyncSleep(Ms(step.duration_ms), boost::asio::use_awaitable);
      }
      continue;
    }
    if (!holding) co_await runtime.mailbox().Acquire(true);
    holding = true;
    if (!ApplyRetention() || !Apply(step) || runtime.stopped()) co_return;
  }
  if (holding) runtime.mailbox().Release();
  co_await runtime.WaitIdle();
  script_done_ = true;
  world_.Record("attempt.end", "script done, runtime idle");
  scheduler_->Stop();
}

bool Attempt::Apply(const AttemptStep& step) {
  AgentRuntime& runtime = *runtime_;
  switch (step.kind) {
    case AttemptStep::Kind::kRead:
      runtime.ReadInputs(step.count);
      return true;
    case AttemptStep::Kind::kCheckpoint:
      runtime.TakeCheckpoint(step.checkpoint);
      return true;
    case AttemptStep::Kind::kComplete: {
      runtime.CompleteCheckpoint(step.checkpoint);
      // The harness's record of committed cleanups: a checkpoint completed
      // in the incarnation that took it pruned (with tombstones) up to its
      // boundaries.
      const Checkpoint* completed = world_.checkpoints().Find(step.checkpoint);
      if (world_.scenario().log.tombstones && completed != nullptr && completed->attempt == number_ &&
          completed->phase == Checkpoint::Phase::kCompleted) {
        world_.lifecycle().NoteCommittedPrune(completed->completed);
      }
      return true;
    }
    case AttemptStep::Kind::kAbort:
      world_.CountFault(CoveragePoint::Made(ScriptFault::kCheckpointAbort));
      runtime.AbortCheckpoint(step.checkpoint);
      return true;
    case AttemptStep::Kind::kCrash:
      world_.CountFault(CoveragePoint::Made(ScriptFault::kCrashStep));
      runtime.Crash("crash step");
      return true;
    case AttemptStep::Kind::kArm:
      faults_->Arm(step.fault, step.nth);
      world_.Record("fault.armed", fmt::format("fault={} nth={}", NameOf(step.fault), step.nth));
      return true;
    case AttemptStep::Kind::kBrokerDown:
      if (Status down = world_.backend().TakeBrokerDown(); !down.ok()) {
        Error(fmt::format("broker_down on backend {}: {}", world_.backend().name(), down.ToString()));
        return false;
      }
      world_.CountFault(CoveragePoint::Made(ScriptFault::kBrokerDown));
      world_.log().SetDownUntil(world_.now() + Ms(step.duration_ms));
      world_.Record("broker.down", fmt::format("until={}", FormatSimTime(world_.log().down_until())));
      return true;
    case AttemptStep::Kind::kCorrupt:
      return CorruptStep(step.partition, step.offset);
    case AttemptStep::Kind::kDeleteRecords:
      return DeleteRecords(step.partition, step.offset, LogEvent::kDeleteRecords);
    case AttemptStep::Kind::kRecreateTopic:
      return RecreateTopic();
    case AttemptStep::Kind::kCompact:
      return Compact();
    case AttemptStep::Kind::kSlowFetch:
      world_.log().SetSlowFetchUntil(world_.now() + Ms(step.duration_ms));
      world_.Record("log.slow_fetch", fmt::format("until={}", FormatSimTime(world_.log().slow_fetch_until())));
      return true;
    case AttemptStep::Kind::kRun:
    case AttemptStep::Kind::kRunFor:
      return true;  // handled by Drive
  }
  return true;
}

}  // namespace durasim
