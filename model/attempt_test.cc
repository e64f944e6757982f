// Tests of Attempt: one incarnation of the agent process, built from a
// scenario written in code (the parser is a floor above).
#include "model/attempt.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "store/kafka_action_state_store.h"

namespace durasim {
namespace {

// One input, one action that saves its output: its start is a put.
Scenario OneInputScenario() {
  Scenario scenario;
  scenario.name = "one_input";
  ActionSpec action;
  action.name = "echo";
  action.on = {kInputEventType};
  action.steps.push_back(ActionStep{ActionStep::Kind::kOutput, "", CallMode::kSync, ArgSource::kAcc, {}});
  scenario.actions.push_back(action);
  scenario.inputs.push_back(InputSpec{"k", 7, {}});
  AttemptSpec attempt;
  AttemptStep read_all;
  read_all.kind = AttemptStep::Kind::kRead;
  read_all.count = -1;
  attempt.steps.push_back(read_all);
  scenario.attempts.push_back(attempt);
  return scenario;
}

// A store whose put throws from inside its coroutine.
class ThrowingStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  boost::asio::awaitable<Status> Put(const StateKey&, const ActionState&) override {
    throw std::runtime_error("put exploded");
    co_return Status::Ok();
  }
};

// Strategy: the production parts run the one-input scenario to its end, and
// the final checkpoint is taken holding the free mailbox.
TEST(AttemptTest, FinishesAndTakesTheFinalCheckpoint) {
  const Scenario scenario = OneInputScenario();
  World world(scenario);
  Attempt attempt(world, scenario.attempts[0], 1, ProductionParts());
  ASSERT_EQ(attempt.Run(std::chrono::minutes(1)), Attempt::End::kFinished) << attempt.error_message();
  EXPECT_TRUE(attempt.AllInputsFinished());
  ASSERT_TRUE(attempt.TakeFinalCheckpoint("final")) << attempt.error_message();
  EXPECT_EQ(attempt.store_stats().cached_states, 0u);
}

// Strategy: an exception thrown inside a coroutine (the store's put, run by
// the runtime's action task) ends the attempt in error naming it, instead
// of escaping the attempt.
TEST(AttemptTest, AnExceptionEscapingACoroutineIsAnErrorNamingIt) {
  const Scenario scenario = OneInputScenario();
  World world(scenario);
  AttemptParts parts = ProductionParts();
  parts.make_store = [](LogClient& client, const StoreOptions& options) -> std::unique_ptr<ActionStateStore> {
    return std::make_unique<ThrowingStore>(client, options);
  };
  Attempt attempt(world, scenario.attempts[0], 1, parts);
  EXPECT_EQ(attempt.Run(std::chrono::minutes(1)), Attempt::End::kError);
  EXPECT_NE(attempt.error_message().find("an exception escaped a coroutine of attempt 1: put exploded"),
            std::string::npos)
      << attempt.error_message();
}

// Strategy: an attempt whose broker stays down past its simulated-time
// bound ends stuck, and says which bound it hit and its value (the trace
// keeps its old words: "simulated-time bound passed").
TEST(AttemptTest, StuckNamesTheBoundAndItsValue) {
  Scenario scenario = OneInputScenario();
  scenario.log.delivery_timeout_ms = 1000 * 60 * 60;  // a put retries for an hour
  AttemptStep down;
  down.kind = AttemptStep::Kind::kBrokerDown;
  down.duration_ms = 1000 * 60 * 30;
  scenario.attempts[0].steps.insert(scenario.attempts[0].steps.begin(), down);
  World world(scenario);
  Attempt attempt(world, scenario.attempts[0], 1, ProductionParts());
  ASSERT_EQ(attempt.Run(std::chrono::minutes(1)), Attempt::End::kStuck);
  EXPECT_EQ(attempt.stuck_reason(),
            "the simulated-time bound of 60000 ms per attempt (RunOptions::attempt_time_bound) passed");
}

}  // namespace
}  // namespace durasim
