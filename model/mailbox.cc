// Mailbox implementation.
#include "model/mailbox.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "store/check.h"

namespace durasim {

boost::asio::awaitable<void> Mailbox::Acquire(bool priority) {
  // A free mailbox has no queue: Release hands it to a waiter if there is one.
  DURASIM_CHECK(held_ || waiting() == 0);
  if (!held_) {
    held_ = true;
    co_return;
  }
  Fifo<uint64_t>& queue = priority ? priority_waiters_ : waiters_;
  // Ownership passes to us in Release(); held_ stays true across the handover.
  auto token = asio::as_tuple(asio::use_awaitable);
  co_await asio::async_initiate<decltype(token), void(ErrorCode)>(
      [this, &queue](auto handler) {
        // Waiting for the mailbox is not cancellable: only the put wait is.
        queue.push_back(scheduler_.Park(asio::bind_cancellation_slot(asio::cancellation_slot(), std::move(handler))));
      },
      token);
}

void Mailbox::Release() {
  DURASIM_CHECK(held_);  // only its one holder releases it
  Fifo<uint64_t>& queue = !priority_waiters_.empty() ? priority_waiters_ : waiters_;
  if (queue.empty()) {
    held_ = false;
    return;
  }
  const uint64_t ticket = queue.front();
  queue.pop_front();
  // Waiting for the mailbox is not cancellable, so the waiter is still parked.
  const bool handed_over = scheduler_.Unpark(ticket, ErrorCode());
  DURASIM_CHECK(handed_over);
}

}  // namespace durasim
