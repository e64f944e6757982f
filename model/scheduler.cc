// Scheduler implementation: the run loop that interleaves ready handlers with
// jumps of simulated time.
#include "model/scheduler.h"

#include <boost/asio/error.hpp>

#include "model/abandon.h"
#include "model/sim_time.h"

namespace durasim {

SimClock::SimClock() : check_context_([this] { return "simulated time: " + FormatSimTime(now); }) {}

Scheduler::~Scheduler() {
  // Handlers first: their destruction posts coroutine unwinding into io_,
  // which io_'s own destructor then drops.
  timers_.clear();
  parked_.clear();
}

void Scheduler::Complete(asio::any_completion_handler<void(ErrorCode)> handler, ErrorCode error) {
  DURASIM_CHECK(handler);  // each handler completes once
  // Called directly when it runs: its executor is io_'s (see the header).
  asio::post(io_, [handler = std::move(handler), error]() mutable { std::move(handler)(error); });
}

void Scheduler::Cancel(TimerKey key) {
  auto it = timers_.find(key);
  if (it == timers_.end()) return;
  auto handler = std::move(it->second.handler);
  timer_nodes_.Erase(timers_, it);
  Complete(std::move(handler), asio::error::operation_aborted);
}

void Scheduler::CancelParked(uint64_t ticket) {
  // Runs inside the slot's own handler, so the slot is left alone here.
  auto it = parked_.find(ticket);
  if (it == parked_.end()) return;
  auto handler = std::move(it->second.handler);
  parked_nodes_.Erase(parked_, it);
  Complete(std::move(handler), asio::error::operation_aborted);
}

bool Scheduler::Unpark(uint64_t ticket, ErrorCode error) {
  auto it = parked_.find(ticket);
  if (it == parked_.end()) return false;
  Waiter waiter = std::move(it->second);
  parked_nodes_.Erase(parked_, it);
  if (waiter.slot.is_connected()) waiter.slot.clear();
  Complete(std::move(waiter.handler), error);
  return true;
}

Scheduler::RunEnd Scheduler::Run(SimTime deadline, uint64_t handlers_max) {
  DURASIM_CHECK_GE(handlers_max, 1u);
  uint64_t handlers = 0;
  while (!stop_requested_) {
    // A signal asked the process to stop: no further handler of this run.
    if (handlers % kAbandonPollHandlers == kAbandonPollHandlers - 1 && AbandonRequested()) throw RunAbandoned{};
    if (io_.stopped()) io_.restart();
    if (io_.poll_one() > 0) {
      if (++handlers >= handlers_max) return RunEnd::kBudget;
      continue;
    }
    if (timers_.empty()) return RunEnd::kIdle;
    auto first = timers_.begin();
    if (first->first.due > deadline) {
      if (deadline > clock_.now) clock_.now = deadline;
      return RunEnd::kDeadline;
    }
    if (first->first.due > clock_.now) clock_.now = first->first.due;
    Waiter timer = std::move(first->second);
    timer_nodes_.Erase(timers_, first);
    if (timer.callback) {
      // Where poll_one would run the timer's handler, counted as one.
      timer.callback();
      if (++handlers >= handlers_max) return RunEnd::kBudget;
      continue;
    }
    if (timer.slot.is_connected()) timer.slot.clear();
    Complete(std::move(timer.handler), ErrorCode());
  }
  return RunEnd::kStopped;
}

void SimSignal::Notify() {
  std::vector<uint64_t> parked;
  parked.swap(parked_);
  for (uint64_t ticket : parked) scheduler_.Unpark(ticket, ErrorCode());
}

}  // namespace durasim
