// Attempt: one incarnation of the agent job, from a fresh start or a restore
// until it crashes, fails, gets stuck or finishes its script. It owns
// everything a crash loses: the scheduler (with every pending handler and
// suspended coroutine) and, per subtask of the action operator, the
// producer, the store's cache and the runtime (keyed state of the subtask's
// key groups, its mailbox). All subtasks share the one simulated clock; the
// source is the attempt's, and routes each input to its key's subtask.
//
// The script runs on every subtask's mailbox with priority: consecutive
// driver steps run back to back, ahead of queued action tasks; `run` and
// `run_ms` let the subtasks work. A checkpoint's barrier reaches the
// subtasks in index order; it is saved once every subtask has snapshotted,
// and its completion or abort reaches every subtask. A crash or a failure of
// any subtask ends the whole attempt (Flink's full restart). After the last
// step the attempt runs until idle. Whatever the backend, the attempt is the
// same: the backend hands it a producer per subtask and reports every
// appended record through one handler (OnAppended).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/agent_runtime.h"
#include "model/backends/log_backend.h"
#include "model/decoded_values.h"
#include "model/fault_plan.h"
#include "model/faulty_log_client.h"
#include "model/log_operator.h"
#include "model/parts.h"
#include "model/scenario.h"
#include "model/world.h"
#include "store/action_state_store.h"
#include "store/check.h"

namespace durasim {

// A fault an attempt's script armed, and where it fired.
struct ArmedFault {
  int attempt = 0;
  FaultKind kind = FaultKind::kCrashAfterPutPersisted;
  int64_t nth = 1;
  std::optional<int32_t> subtask;   // armed on this subtask's points only
  FaultSelector select;             // and on the points it selects
  SourcePos pos;                    // the arm step in the scenario file
  std::optional<size_t> fired_at;   // its fault.fired trace line; none: it never fired
  FaultPoint hit;                   // what it hit, when it fired
};

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

  // The run without faults (sim/run/runner.cc's reference): no fault will be
  // armed, so the fault plan is sealed and no put's fault point is worked
  // out, and appended records reach the observers undecoded (state null).
  // REQUIRES: before Run; the script arms nothing; no observer of the world
  // reads an appended record's state.
  void RunWithoutFaults();

  End Run(SimDuration time_bound);
  // The run's healed epilogue, after Run finished: faults off, then a
  // checkpoint `id` taken and completed holding the mailbox, like every
  // script step. False (and error_message) when the mailbox is not free.
  // REQUIRES: Run returned kFinished.
  bool TakeFinalCheckpoint(const std::string& id);

  // The job, across its subtasks. REQUIRES: connected (Run did not end in
  // error before the script).
  int32_t parallelism() const { return static_cast<int32_t>(subtasks_.size()); }
  AgentRuntime& runtime(int32_t subtask) {
    DURASIM_CHECK(connected_.ok() && subtask >= 0 && subtask < parallelism());
    return *subtasks_[static_cast<size_t>(subtask)].runtime;
  }
  // Whether the attempt's stores rebuilt from a checkpoint (a restore that
  // got as far as the rebuild, accepted or rejected), and the records each
  // subtask's store scanned.
  bool restored() const { return rebuilt_; }
  std::vector<int64_t> records_scanned_by_subtask() const;
  // A durable call failure failed the job over (on_error: fail): why, or "".
  std::string call_failure() const;
  // The input key of that call, or "".
  std::string call_failure_key() const;
  // Every input was read and every run finished.
  bool AllInputsFinished() const;
  // The inputs (offsets) not finished: unread, queued, or running.
  std::vector<int64_t> UnfinishedInputs() const;
  // Every subtask's keyed state (keys are disjoint).
  KeyedStates keyed_states() const;
  // The stores' memory and the runtimes' per-checkpoint maps, summed over subtasks.
  StoreStats store_stats() const;
  size_t bookkeeping_entries() const;
  // The faults the script armed so far, in arming order.
  const std::vector<ArmedFault>& armed_faults() const { return armed_; }
  // What went wrong when Run returned kError.
  const std::string& error_message() const { return error_message_; }
  // Why Run returned kStuck, naming the bound and its value when one was hit
  // ("the simulated-time bound of 600000 ms per attempt (RunOptions::attempt_time_bound) passed").
  const std::string& stuck_reason() const { return stuck_reason_; }
  // The trace line that says it was stuck (its `attempt.stuck`).
  size_t stuck_line() const { return stuck_line_; }

 private:
  boost::asio::awaitable<void> Drive();
  // Runs `script` on this attempt's scheduler until it stops or the bound passes.
  Scheduler::RunEnd Spawn(boost::asio::awaitable<void> script, SimDuration time_bound);
  // Executes a step that needs the mailbox, a checkpoint excepted (Drive
  // awaits TakeCheckpoint); false ends the attempt in error.
  bool Apply(const AttemptStep& step);
  // Driver steps across the subtasks. REQUIRES: the driver holds every mailbox.
  void ReadInputs(int64_t count);  // count < 0: all remaining
  // Each subtask's snapshot in index order (each may wait for its store's
  // snapshot writes), then the job's checkpoint.
  boost::asio::awaitable<void> TakeCheckpoint(const std::string& id);
  // A checkpoint `id` of this attempt with no snapshot in it yet.
  Checkpoint NewCheckpoint(const std::string& id) const;
  // Adds subtask `subtask`'s snapshot to `checkpoint`; with none (a crash
  // at the barrier, or a decline) saves it as failed when the subtask
  // declined, and returns false.
  bool AddSnapshot(Checkpoint& checkpoint, size_t subtask, std::optional<AgentRuntime::Snapshot> snapshot,
                   size_t& queued);
  // Saves a checkpoint every subtask snapshotted (`queued` tasks in all).
  void SaveCheckpoint(Checkpoint checkpoint, size_t queued);
  void CompleteCheckpoint(const std::string& id, bool notify);
  // Checkpoint `id` if it is taken and not yet completed or aborted; else
  // null, and the notification is traced as ignored.
  Checkpoint* TakenCheckpoint(const std::string& id);
  void AbortCheckpoint(const std::string& id);
  void CrashJob(const std::string& reason);
  bool stopped() const;
  bool failed() const;
  // Takes (priority) or releases every subtask's mailbox, in index order.
  boost::asio::awaitable<void> AcquireMailboxes();
  void ReleaseMailboxes();
  // The worker_pool engine's barrier of checkpoint `id`: every subtask
  // stops pulling tasks, and the driver lets go of the mailboxes until the
  // pulled ones are committed. False when nothing drains (another engine,
  // or a runtime that does not: mutant worker-pool-skips-drain).
  boost::asio::awaitable<bool> DrainForBarrier(const std::string& id);
  boost::asio::awaitable<void> WaitIdle();
  // The one route of an appended record to the checkers (and, for this
  // incarnation's own appends, the fault plan).
  void OnAppended(const LogRecord& record, AppendSeen seen);
  // The subtask whose producer wrote `record` (-1 when its key is no state key).
  int WriterOf(const LogRecord& record);
  // The checkpoint the attempt's spec restores, `latest` and `previous`
  // resolved. REQUIRES: the spec restores.
  std::string RestoreId() const;
  // The lineage this attempt continues (that of the attempt that took the
  // checkpoint it restores) or begins (a fresh start: its own number).
  int Lineage() const;
  // The restore's union list written by hand (spec_.markers), and why every
  // store must reject it; none (and the attempt's error) when the log's end
  // offsets cannot be read.
  std::optional<AgentRuntime::HandMadeList> HandMadeList(const Checkpoint& checkpoint);
  // The restore of the attempt's spec; false ends the attempt (`end`).
  bool Restore(End& end);
  // Restores every subtask from `checkpoint` (or `hand_made`), with the
  // attempt's steps during the rebuild; false (and `end`) when a subtask
  // rejected it or a step failed.
  bool RestoreSubtasks(const Checkpoint& checkpoint, const AgentRuntime::HandMadeList* hand_made, End& end);
  // recreate_topic: the job fails over, then the log operator re-creates
  // the topic; false (and the attempt ends in error) when the backend fails.
  bool RecreateTopic();
  // An operation of the log operator: false (and the attempt ends in error,
  // naming why) when it failed.
  bool Operated(const Status& done);
  void Error(const std::string& message);

  // One subtask of the action operator: what a crash loses of it.
  struct Subtask {
    std::unique_ptr<LogClient> log_client;  // its producer in simulated time, from the backend
    std::unique_ptr<FaultyLogClient> faulty_client;
    std::unique_ptr<ActionStateStore> store;
    std::unique_ptr<AgentRuntime> runtime;
  };

  World& world_;
  const AttemptSpec& spec_;
  int number_;
  LogOperator log_operator_;  // the scenario's hand on the log, from outside the job
  bool rebuilt_ = false;  // Restore reached the stores' rebuild
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<FaultPlan> faults_;
  bool without_faults_ = false;  // RunWithoutFaults
  int snapshotting_ = -1;  // the subtask whose snapshot is being taken (its writes are rewrites), or -1
  DecodedValues decoded_values_;  // shared by the subtasks' faulty clients and OnAppended
  std::vector<Subtask> subtasks_;
  int64_t source_offset_ = 0;  // the next input the source delivers
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
  std::vector<ArmedFault> armed_;
  std::string error_message_;
  std::string stuck_reason_;
  size_t stuck_line_ = 0;
  bool script_done_ = false;
  bool error_ = false;
};

const char* AttemptEndName(Attempt::End end);

}  // namespace durasim
