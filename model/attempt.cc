// Attempt implementation.
#include "model/attempt.h"

#include <fmt/format.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <algorithm>
#include <exception>

#include "model/backends/client_record_sink.h"

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

Attempt::Attempt(World& world, const AttemptSpec& spec, int number, const StoreFactory& make_store,
                 const RuntimeFactory& make_runtime)
    : world_(world), spec_(spec), number_(number) {
  scheduler_ = std::make_unique<Scheduler>(world.clock());
  FaultPlan::Hooks hooks;
  hooks.crash = [this](const std::string& reason) { runtime_->Crash(reason); };
  hooks.cancel_wait = [this] { runtime_->CancelRunningWait(); };
  hooks.corrupt = [this](int32_t partition, int64_t offset) { MarkCorrupted(partition, offset); };
  hooks.fired = [this](FaultKind fault, int64_t nth, std::optional<PutPoint> put) {
    world_.Record("fault.fired", fmt::format("fault={} nth={}{}", FaultKindName(fault), nth,
                                             put ? std::string(" put=") + NameOf(*put) : ""));
    world_.CountFault(CoveragePoint::Fired(fault));
    if (put) world_.CountFault(CoveragePoint::Fired(fault, put));
  };
  faults_ = std::make_unique<FaultPlan>(std::move(hooks));
  LogBackend& backend = world.backend();
  BrokerWriteFaults* broker_faults = nullptr;  // the sink, where the broker injects write faults
  Result<std::unique_ptr<LogClient>> client = backend.Connect(*scheduler_);
  if (!client.ok()) {
    // Run() reports it; a placeholder keeps the parts below well formed.
    connected_ = client.status();
    client = std::unique_ptr<LogClient>(std::make_unique<MemoryLogClient>(*scheduler_, world.log(), world.scenario().log));
  } else if (backend.reports_appends()) {
    world.log().set_append_listener([this](const LogRecord& record) { ObserveAppend(record, "log.append"); });
  } else {
    // The model's producer timing and outage window over the real client.
    auto sink = std::make_unique<ClientRecordSink>(std::move(client).value(), backend, world.corrupted(),
                                                   [this](const LogRecord& record) { ObserveAppend(record, "log.append"); });
    if (backend.has_write_fault_controls()) broker_faults = sink.get();
    client = std::unique_ptr<LogClient>(
        std::make_unique<SimulatedLogClient>(*scheduler_, world.log(), world.scenario().log, std::move(sink)));
  }
  log_client_ = std::move(client).value();
  faulty_client_ = std::make_unique<FaultyLogClient>(*log_client_, *faults_, broker_faults);
  store_ = make_store(*faulty_client_, world.scenario().log);
  runtime_ = make_runtime(world, *scheduler_, *store_, *faults_);
}

void Attempt::ObserveAppend(const LogRecord& record, std::string_view how) {
  if (!world_.on_model_backend() && !world_.NoteObserved(record.partition, record.offset)) return;
  const size_t index =
      world_.Record(how, fmt::format("partition={} offset={} key={:?}", record.partition, record.offset, record.key));
  Result<DecodedState> decoded = DecodeStateValue(record.value);
  const DecodedState* state = decoded.ok() ? &decoded.value() : nullptr;
  world_.Notify([&](RunObserver& o) { o.OnRecordAppended(record, state, index); });
  if (how == "log.append") faults_->OnPersisted(record.partition, record.offset);
}

void Attempt::MarkCorrupted(int32_t partition, int64_t offset) {
  if (world_.on_model_backend()) world_.log().Corrupt(partition, offset);
  world_.NoteCorrupted(partition, offset);
  world_.Record("log.corrupted", fmt::format("partition={} offset={}", partition, offset));
}

bool Attempt::CorruptStep(int32_t partition, int64_t offset) {
  bool found = false;
  if (world_.on_model_backend()) {
    found = world_.log().Find(partition, offset) != nullptr;
  } else {
    Result<std::vector<std::vector<LogRecord>>> all = world_.ReadLog();
    if (!all.ok()) {
      Error(fmt::format("corrupt: reading the log of backend {} failed: {}", world_.backend().name(),
                        all.status().ToString()));
      return false;
    }
    if (partition >= 0 && static_cast<size_t>(partition) < all->size()) {
      const std::vector<LogRecord>& records = (*all)[static_cast<size_t>(partition)];
      found = std::any_of(records.begin(), records.end(), [&](const LogRecord& r) { return r.offset == offset; });
    }
  }
  if (!found) {
    Error(fmt::format("corrupt: no record at partition {} offset {}", partition, offset));
    return false;
  }
  MarkCorrupted(partition, offset);
  return true;
}

void Attempt::DiscoverUnobservedAppends() {
  Result<std::vector<std::vector<LogRecord>>> all = world_.ReadLog();
  if (!all.ok()) {
    Error(fmt::format("reading the log of backend {} failed: {}", world_.backend().name(), all.status().ToString()));
    return;
  }
  for (const std::vector<LogRecord>& partition : *all) {
    for (const LogRecord& record : partition) ObserveAppend(record, "log.discovered");
  }
}

void Attempt::Error(const std::string& message) {
  world_.Record("error", message);
  error_message_ = message;
  error_ = true;
  scheduler_->Stop();
}

Attempt::~Attempt() {
  world_.log().set_append_listener(nullptr);
  // The scheduler goes first: dropping its handlers unwinds suspended
  // coroutines, whose frames still refer to the runtime and the store.
  scheduler_.reset();
}

Attempt::End Attempt::Run(SimDuration time_bound) {
  world_.BeginAttempt(number_);
  world_.Record("attempt.start", spec_.restore ? fmt::format("restore={}", *spec_.restore) : "fresh");
  if (!connected_.ok()) {
    Error(fmt::format("cannot connect to the log of backend {}: {}", world_.backend().name(), connected_.ToString()));
    return End::kError;
  }
  if (!world_.on_model_backend()) {
    DiscoverUnobservedAppends();
    if (error_) return End::kError;
  }
  if (spec_.restore.has_value()) {
    CheckpointStorage& storage = world_.checkpoints();
    const std::string id = *spec_.restore == kRestoreLatest     ? storage.latest_completed()
                           : *spec_.restore == kRestorePrevious ? storage.previous_completed()
                                                                : *spec_.restore;
    const Checkpoint* checkpoint = storage.Find(id);
    if (checkpoint == nullptr || checkpoint->phase != Checkpoint::Phase::kCompleted) {
      Error(fmt::format("checkpoint {} ({}) is not completed; cannot restore", *spec_.restore, id));
      return End::kError;
    }
    if (id != storage.latest_completed()) world_.CountFault(CoveragePoint::Made(ScriptFault::kRestoreOlder));
    if (!world_.log().IsUp(world_.now())) {
      // Nothing runs before the restore: wait for the broker.
      world_.Record("restore.wait", fmt::format("broker down until {}", FormatSimTime(world_.log().down_until())));
      world_.clock().now = world_.log().down_until();
    }
    if (!runtime_->Restore(*checkpoint).ok()) return End::kRestoreRejected;
  }
  boost::asio::co_spawn(scheduler_->executor(), Drive(), [](std::exception_ptr error) {
    if (error) std::rethrow_exception(error);
  });
  const Scheduler::RunEnd end = scheduler_->Run(world_.now() + time_bound);
  if (error_) return End::kError;
  if (runtime_->failed()) return End::kFailed;
  if (runtime_->stopped()) return End::kCrashed;
  if (script_done_) return End::kFinished;
  world_.Record("attempt.stuck", end == Scheduler::RunEnd::kDeadline ? "simulated-time bound passed"
                                 : end == Scheduler::RunEnd::kBudget ? "handler budget exhausted"
                                                                     : "no runnable work left");
  return End::kStuck;
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
    if (!Apply(step) || runtime.stopped()) co_return;
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
    case AttemptStep::Kind::kComplete:
      runtime.CompleteCheckpoint(step.checkpoint);
      return true;
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
      world_.Record("fault.armed", fmt::format("fault={} nth={}", FaultKindName(step.fault), step.nth));
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
    case AttemptStep::Kind::kRun:
    case AttemptStep::Kind::kRunFor:
      return true;  // handled by Drive
  }
  return true;
}

}  // namespace durasim
