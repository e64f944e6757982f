// Mailbox: the agent operator's single mailbox thread, as a FIFO lock held by
// one coroutine at a time. Letters (action tasks) queue in order; the driver
// (source input, checkpoint barriers, notifications, crashes) queues ahead of
// them, as Flink handles barriers between mails. An async durable call
// releases the mailbox while the call is in flight and queues again after.
#pragma once

#include <boost/asio/awaitable.hpp>

#include "model/fifo.h"
#include "model/scheduler.h"

namespace durasim {

class Mailbox {
 public:
  explicit Mailbox(Scheduler& scheduler) : scheduler_(scheduler) {}

  // Waits until this coroutine holds the mailbox. A caller that may find it
  // free tries TryAcquire first: a co_await of Acquire costs a coroutine
  // frame even when it does not suspend (docs/benchmarks.md, issue 31,
  // session 41), and taking a free mailbox either way is the same step.
  boost::asio::awaitable<void> Acquire(bool priority);
  // Takes the mailbox now if it is free and nobody waits; false otherwise.
  bool TryAcquire() {
    if (held_ || waiting() != 0) return false;
    held_ = true;
    return true;
  }
  // Hands the mailbox to the next waiter (priority first), or frees it.
  void Release();

  bool held() const { return held_; }
  size_t waiting() const { return waiters_.size() + priority_waiters_.size(); }

 private:
  Scheduler& scheduler_;
  bool held_ = false;
  Fifo<uint64_t> waiters_;           // parked tickets
  Fifo<uint64_t> priority_waiters_;  // parked tickets
};

}  // namespace durasim
