// Attempt: one incarnation of the agent process, from a fresh start or a
// restore until it crashes, fails, gets stuck or finishes its script. It owns
// everything a crash loses: the scheduler (with every pending handler and
// suspended coroutine), the producer, the store's cache and the runtime.
//
// The script runs on the mailbox with priority: consecutive driver steps run
// back to back, ahead of queued action tasks; `run` and `run_ms` let the
// runtime work. After the last step the attempt runs until idle.
#pragma once

#include <functional>
#include <memory>

#include "model/agent_runtime.h"
#include "model/fault_plan.h"
#include "model/faulty_log_client.h"
#include "model/memory_log_client.h"
#include "model/simulated_log_client.h"
#include "model/world.h"
#include "model/scenario.h"
#include "store/action_state_store.h"

namespace durasim {

// Builds the store (production or mutant) over a log client, configured as
// the scenario's log says.
using StoreFactory = std::function<std::unique_ptr<ActionStateStore>(LogClient&, const LogConfig&)>;
// Builds the runtime (production or mutant).
using RuntimeFactory =
    std::function<std::unique_ptr<AgentRuntime>(World&, Scheduler&, ActionStateStore&, FaultPlan&)>;

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

  Attempt(World& world, const AttemptSpec& spec, int number, const StoreFactory& make_store,
          const RuntimeFactory& make_runtime);
  ~Attempt();

  End Run(SimDuration time_bound);

  // For the run's epilogue: a final checkpoint once everything is finished.
  AgentRuntime& runtime() { return *runtime_; }
  ActionStateStore& store() { return *store_; }
  // What went wrong when Run returned kError.
  const std::string& error_message() const { return error_message_; }
  // Faults off for the rest of this attempt (the healed epilogue).
  void DisarmFaults() { faults_->DisarmAll(); }
  Scheduler& scheduler() { return *scheduler_; }

 private:
  boost::asio::awaitable<void> Drive();
  // Executes a step that needs the mailbox; false ends the attempt in error.
  bool Apply(const AttemptStep& step);
  // An append the checkers and the fault plan must hear of.
  void ObserveAppend(const LogRecord& record, std::string_view how);
  // Reports records a real log holds that the harness was not told of: a
  // write whose real answer never came (a slow broker); appends the sink
  // makes, injected lost acknowledgements included, are reported at once.
  void DiscoverUnobservedAppends();
  // Garbage at (partition, offset): written into the model's log; on other
  // backends shown to every reader of the log (a broker cannot overwrite a
  // record in place). REQUIRES: the record exists.
  void MarkCorrupted(int32_t partition, int64_t offset);
  // The corrupt step: false (and the attempt ends in error) when there is
  // no record at (partition, offset).
  bool CorruptStep(int32_t partition, int64_t offset);
  void Error(const std::string& message);

  World& world_;
  const AttemptSpec& spec_;
  int number_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<FaultPlan> faults_;
  // The producer in simulated time: the model's own, or one over the real
  // client of a backend that does not report appends.
  std::unique_ptr<LogClient> log_client_;
  std::unique_ptr<FaultyLogClient> faulty_client_;
  std::unique_ptr<ActionStateStore> store_;
  std::unique_ptr<AgentRuntime> runtime_;
  Status connected_;
  std::string error_message_;
  bool script_done_ = false;
  bool error_ = false;
};

const char* AttemptEndName(Attempt::End end);

}  // namespace durasim
