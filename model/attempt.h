// Attempt: one incarnation of the agent process, from a fresh start or a
// restore until it crashes, fails, gets stuck or finishes its script. It owns
// everything a crash loses: the scheduler (with every pending handler and
// suspended coroutine), the producer, the store's cache and the runtime.
//
// The script runs on the mailbox with priority: consecutive driver steps run
// back to back, ahead of queued action tasks; `run` and `run_ms` let the
// runtime work. After the last step the attempt runs until idle. Whatever
// the backend, the attempt is the same: the backend hands it a producer and
// reports every appended record through one handler (OnAppended).
#pragma once

#include <memory>
#include <string>

#include "model/agent_runtime.h"
#include "model/backends/log_backend.h"
#include "model/fault_plan.h"
#include "model/faulty_log_client.h"
#include "model/parts.h"
#include "model/scenario.h"
#include "model/world.h"
#include "store/action_state_store.h"
#include "store/check.h"

namespace durasim {

class Attempt {
 public:
  enum class End {
    kFinished,         // the script ran and the runtime went idle
    kCrashed,          // a crash step or an armed crash fault
    kFailed,           // a put failed or was cancelled: the job fails over
    kRestoreRejected,  // the store rejected the recovery data
    kStuck,            // no progress possible, or the simulated-time bound passed
    kError,            // the script asked for something impossible
  };

  Attempt(World& world, const AttemptSpec& spec, int number, const AttemptParts& parts);
  ~Attempt();

  End Run(SimDuration time_bound);
  // The run's healed epilogue, after Run finished: faults off, then a
  // checkpoint `id` taken and completed holding the mailbox, like every
  // script step. False (and error_message) when the mailbox is not free.
  // REQUIRES: Run returned kFinished.
  bool TakeFinalCheckpoint(const std::string& id);

  // REQUIRES: connected (Run did not end in error before the script).
  AgentRuntime& runtime() {
    DURASIM_CHECK(runtime_ != nullptr);
    return *runtime_;
  }
  ActionStateStore& store() {
    DURASIM_CHECK(store_ != nullptr);
    return *store_;
  }
  // What went wrong when Run returned kError.
  const std::string& error_message() const { return error_message_; }

 private:
  boost::asio::awaitable<void> Drive();
  // Runs `script` on this attempt's scheduler until it stops or the bound passes.
  Scheduler::RunEnd Spawn(boost::asio::awaitable<void> script, SimDuration time_bound);
  // Executes a step that needs the mailbox; false ends the attempt in error.
  bool Apply(const AttemptStep& step);
  // The one route of an appended record to the checkers (and, for this
  // incarnation's own appends, the fault plan).
  void OnAppended(const LogRecord& record, AppendSeen seen);
  // The restore of the attempt's spec; false ends the attempt (`end`).
  bool Restore(End& end);
  // Garbage at (partition, offset), written by the backend where it can and
  // shown to every reader of the log. REQUIRES: the record exists.
  void MarkCorrupted(int32_t partition, int64_t offset);
  // The corrupt step: false (and the attempt ends in error) when there is
  // no record at (partition, offset).
  bool CorruptStep(int32_t partition, int64_t offset);
  // Log events (model/log_lifecycle.h): records below `before_offset` of
  // `partition` leave the log, by DeleteRecords or by retention.
  bool DeleteRecords(int32_t partition, int64_t before_offset, LogEvent why);
  // Retention (log.retention_ms): deletes what has expired by now.
  bool ApplyRetention();
  // recreate_topic: the running job fails over (its topic is gone), then
  // the topic is deleted and created again.
  bool RecreateTopic();
  // compact: log compaction (KafkaLog::Compact) on the backend.
  bool Compact();
  void Error(const std::string& message);

  World& world_;
  const AttemptSpec& spec_;
  int number_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<FaultPlan> faults_;
  // The producer in simulated time, from the backend.
  std::unique_ptr<LogClient> log_client_;
  std::unique_ptr<FaultyLogClient> faulty_client_;
  std::unique_ptr<ActionStateStore> store_;
  std::unique_ptr<AgentRuntime> runtime_;
  Status connected_;
  // Disconnects the backend when the attempt goes, also when building its
  // parts threw (the handler the backend holds refers to this attempt).
  struct Connection {
    LogBackend* backend = nullptr;
    void Close() {
      if (backend != nullptr) backend->Disconnect();
      backend = nullptr;
    }
    ~Connection() { Close(); }
  };
  Connection connection_;
  std::string error_message_;
  bool script_done_ = false;
  bool error_ = false;
};

const char* AttemptEndName(Attempt::End end);

}  // namespace durasim
