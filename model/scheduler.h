// Scheduler: simulated time on top of a single-threaded Boost.Asio io_context.
//
// Ready handlers run in the io_context in FIFO order. When none is ready, the
// scheduler jumps the simulated clock to the earliest due timer and makes it
// ready. Timers due at the same simulated time fire in the order they were
// armed (a FIFO sequence number breaks the tie), so a run is a pure function
// of its inputs. On a perturbed schedule (model/perturbation.h) same-time
// timers fire in a seeded order instead, except that a script's own sleep
// (AsyncSleepInScriptOrder) keeps its FIFO place among them, and latencies
// with a range are drawn (LatencyMs). Timers are cancellable through the
// completion handler's cancellation slot (asio per-operation cancellation).
//
// A crash is modelled by destroying the Scheduler: every queued handler and
// every suspended coroutine is dropped without running.
//
// Every handler given to the scheduler runs on its io_context: coroutines are
// spawned on executor(), and nothing binds a strand or another context. So a
// completion is queued as a function that calls the handler directly, which
// is what dispatching it through its executor would do on this thread.
//
// Thread-safety: none; one thread drives one Scheduler.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "model/perturbation.h"
#include "model/sim_time.h"
#include "store/check.h"
#include "store/node_pool.h"

namespace durasim {

namespace asio = boost::asio;
using ErrorCode = boost::system::error_code;

// The simulated clock. Outlives the schedulers of individual attempts, so
// simulated time keeps running across crashes. While it lives, a failed
// DURASIM_CHECK on this thread prints its time (store/check.h); it does not
// move or copy, so that context always reads this clock.
struct SimClock {
  SimClock();
  SimClock(const SimClock&) = delete;
  SimClock& operator=(const SimClock&) = delete;

  SimTime now{0};

 private:
  CheckContext check_context_;
};

class Scheduler {
 public:
  // `perturbation`: none for the canonical schedule (FIFO ties, minimum latencies).
  explicit Scheduler(SimClock& clock, std::optional<Perturbation> perturbation = std::nullopt)
      : clock_(clock), perturbation_(std::move(perturbation)) {}
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  asio::io_context& io() { return io_; }
  asio::io_context::executor_type executor() { return io_.get_executor(); }
  SimTime now() const { return clock_.now; }

  // Completes with success after `delay` of simulated time, or with
  // asio::error::operation_aborted when cancelled first.
  template <typename Token>
  auto AsyncSleep(SimDuration delay, Token&& token) {
    return asio::async_initiate<Token, void(ErrorCode)>(
        [this, delay](auto handler) { Arm(clock_.now + delay, std::move(handler), false); }, token);
  }

  // The same for a sleep the scenario's script asked for (`run_ms`): on a
  // perturbed schedule it keeps its FIFO place among timers due at the same
  // instant (those armed before it fire first, those armed after it fire
  // after it), so the script's "work for N ms" means what it means without
  // perturbation; the timers between two such sleeps are permuted.
  template <typename Token>
  auto AsyncSleepInScriptOrder(SimDuration delay, Token&& token) {
    return asio::async_initiate<Token, void(ErrorCode)>(
        [this, delay](auto handler) { Arm(clock_.now + delay, std::move(handler), true); }, token);
  }

  // Calls `callback` after `delay` of simulated time, from the run loop, as
  // a handler of its own (it counts toward the handler budget), where a
  // sleeping handler would run: nothing else is ready when a timer fires.
  // Not cancellable; a crash drops it. Cheaper than AsyncSleep with a plain
  // function: no asio handler is built, allocated or queued for it.
  void After(SimDuration delay, std::function<void()> callback) {
    Waiter waiter;
    waiter.callback = std::move(callback);
    Insert(TimerKeyFor(clock_.now + delay, false), std::move(waiter));
  }

  // A latency of `min_ms`, or on a perturbed schedule one drawn in
  // [min_ms, max_ms] (none: fixed).
  SimDuration LatencyMs(int64_t min_ms, std::optional<int64_t> max_ms) {
    const int64_t ms = perturbation_ ? perturbation_->DrawMs(min_ms, max_ms) : min_ms;
    return std::chrono::duration_cast<SimDuration>(std::chrono::milliseconds(ms));
  }
  bool perturbed() const { return perturbation_.has_value(); }

  enum class RunEnd {
    kIdle,      // nothing ready and no timer armed
    kStopped,   // Stop() was called
    kDeadline,  // the next timer is due after the deadline
    kBudget,    // `handlers_max` handlers ran: a bound on work without time
  };
  // Runs until idle, stopped, until simulated time would pass `deadline`, or
  // until `handlers_max` handlers have run (a loop that never advances the
  // clock would otherwise never end). Throws RunAbandoned (model/abandon.h)
  // when a signal asks the process to stop.
  RunEnd Run(SimTime deadline, uint64_t handlers_max = kHandlersMax);

  static constexpr uint64_t kHandlersMax = 10'000'000;

  // A blocking call (a fetch waiting for records) holds the thread for
  // `duration` of simulated time: the clock moves on, and timers due
  // meanwhile fire late, as behind any blocked thread.
  void Block(SimDuration duration) { clock_.now += duration; }

  // Makes Run return after the handler that is running now.
  void Stop() { stop_requested_ = true; }
  bool stop_requested() const { return stop_requested_; }

  size_t armed_timers() const { return timers_.size(); }

  // Holds a handler until Unpark; it never fires by itself and does not keep
  // Run from returning kIdle. Returns its ticket.
  // A parked handler honours its cancellation slot: cancelling it completes
  // it with asio::error::operation_aborted.
  template <typename Handler>
  uint64_t Park(Handler handler) {
    const uint64_t ticket = next_sequence_++;
    Waiter waiter = Wrap(std::move(handler));
    if (waiter.slot.is_connected()) {
      waiter.slot.assign([this, ticket](asio::cancellation_type) { CancelParked(ticket); });
    }
    // Tickets only grow: the newest goes last (NodePool checks it is new).
    parked_nodes_.Insert(parked_, parked_.end(), ticket, std::move(waiter));
    return ticket;
  }
  // Makes a parked handler ready with `error`; unknown tickets (a handler
  // cancelled meanwhile) are ignored. Returns whether the ticket was parked.
  bool Unpark(uint64_t ticket, ErrorCode error);

 private:
  // Timers fire by due time; ties by (script epoch, script, rank, sequence).
  // Canonical schedule: epoch and script 0, rank the sequence number: FIFO.
  // Perturbed: the epoch counts the script sleeps armed before, so no timer
  // crosses a script sleep; within an epoch the rank is a seeded permutation
  // and the script sleep comes last.
  struct TimerKey {
    SimTime due;
    uint64_t epoch;
    bool script;
    uint64_t rank;
    uint64_t sequence;
    bool operator<(const TimerKey& other) const {
      return std::tie(due, epoch, script, rank, sequence) <
             std::tie(other.due, other.epoch, other.script, other.rank, other.sequence);
    }
  };
  // A handler (or, for a timer of After, a callback) and its slot.
  struct Waiter {
    Waiter() = default;
    Waiter(asio::any_completion_handler<void(ErrorCode)> handler, asio::cancellation_slot slot)
        : handler(std::move(handler)), slot(slot) {}
    Waiter(Waiter&&) = default;
    // Not by the handler's move assignment: Boost 1.81's wraps the other
    // handler in a new one, which wraps it again, until the stack overflows
    // (it constructs from the lvalue `other`). Its move constructor is
    // sound: `other` is left empty and the old handler is destroyed here.
    Waiter& operator=(Waiter&& other) noexcept {
      decltype(handler)(std::move(other.handler)).swap(handler);
      slot = other.slot;
      callback = std::move(other.callback);
      return *this;
    }

    asio::any_completion_handler<void(ErrorCode)> handler;
    asio::cancellation_slot slot;
    std::function<void()> callback;
  };

  // The key of the next timer due at `due`.
  TimerKey TimerKeyFor(SimTime due, bool script) {
    // Simulated time only moves forward: a timer is never due in the past.
    DURASIM_CHECK(due >= clock_.now);
    const uint64_t sequence = next_sequence_++;
    TimerKey key{due, 0, false, sequence, sequence};
    if (perturbation_) {
      key.epoch = script_sleeps_;
      key.script = script;
      key.rank = perturbation_->TieRank(sequence);
      if (script) ++script_sleeps_;
    }
    return key;
  }
  void Insert(const TimerKey& key, Waiter waiter) {
    // The sequence number makes every key unique (NodePool checks it).
    timer_nodes_.Insert(timers_, key, std::move(waiter));
  }

  template <typename Handler>
  void Arm(SimTime due, Handler handler, bool script) {
    const TimerKey key = TimerKeyFor(due, script);
    Waiter waiter = Wrap(std::move(handler));
    if (waiter.slot.is_connected()) {
      waiter.slot.assign([this, key](asio::cancellation_type) { Cancel(key); });
    }
    Insert(key, std::move(waiter));
  }

  // Type-erases a handler. any_completion_handler installs its own
  // cancellation state on the handler's slot, so our cancellation hook goes
  // on the erased handler's slot, never on the original one.
  template <typename Handler>
  static Waiter Wrap(Handler handler) {
    // Asio allocates without aligned_alloc here (CMakeLists.txt): operator
    // new aligns to 16 and asio ignores any larger alignment.
    static_assert(alignof(Handler) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    asio::any_completion_handler<void(ErrorCode)> erased(std::move(handler));
    asio::cancellation_slot slot = asio::get_associated_cancellation_slot(erased);
    return Waiter(std::move(erased), slot);
  }

  void Cancel(TimerKey key);
  void CancelParked(uint64_t ticket);
  void Complete(asio::any_completion_handler<void(ErrorCode)> handler, ErrorCode error);

  SimClock& clock_;
  // Declared before timers_: destroying a suspended coroutine's handler posts
  // its unwinding to the io_context, which must still be alive then.
  // One thread runs a simulation and nothing posts to it from another (the
  // librdkafka backends wait on their own clients), so the io_context takes
  // no locks: BOOST_ASIO_CONCURRENCY_HINT_UNSAFE.
  asio::io_context io_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE};
  std::map<TimerKey, Waiter> timers_;
  std::map<uint64_t, Waiter> parked_;
  // Timers and parked handlers come and go all run long.
  NodePool<std::map<TimerKey, Waiter>> timer_nodes_;
  NodePool<std::map<uint64_t, Waiter>> parked_nodes_;
  uint64_t next_sequence_ = 0;
  std::optional<Perturbation> perturbation_;
  uint64_t script_sleeps_ = 0;  // perturbed: script sleeps armed so far
  bool stop_requested_ = false;
};

// A condition that coroutines wait on; Notify() wakes every waiter, in the
// order they started waiting. Waiters are parked in the Scheduler, so a crash
// drops them with everything else.
class SimSignal {
 public:
  explicit SimSignal(Scheduler& scheduler) : scheduler_(scheduler) {}

  template <typename Token>
  auto AsyncWait(Token&& token) {
    return asio::async_initiate<Token, void(ErrorCode)>(
        [this](auto handler) { parked_.push_back(scheduler_.Park(std::move(handler))); }, token);
  }
  void Notify();
  size_t waiters() const { return parked_.size(); }

 private:
  Scheduler& scheduler_;
  std::vector<uint64_t> parked_;
};

}  // namespace durasim
