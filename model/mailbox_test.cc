// Tests of the Mailbox that serialises the runtime's coroutines: FIFO
// handover, priority acquirers ahead of ordinary waiters.
#include "model/mailbox.h"


#include <gtest/gtest.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "model/scheduler.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

struct MailboxLog {
  std::vector<std::string> events;
  int holders = 0;
  int holders_max = 0;
};

asio::awaitable<void> HoldMailbox(Mailbox& mailbox, Scheduler& scheduler, bool priority, std::string name,
                                  SimDuration hold, MailboxLog& log) {
  co_await mailbox.Acquire(priority);
  ++log.holders;
  log.holders_max = std::max(log.holders_max, log.holders);
  log.events.push_back(name + "@" + std::to_string(scheduler.now().count() / 1000));
  co_await scheduler.AsyncSleep(hold, asio::use_awaitable);
  --log.holders;
  mailbox.Release();
}

TEST(MailboxTest, FifoHandoverBetweenCoroutines) {
  // Strategy: three coroutines each hold the mailbox for 10 ms. They get it
  // one at a time (never two holders), in the order they asked, each as the
  // previous releases; the mailbox stays held across handovers and is free
  // at the end.
  SimClock clock;
  Scheduler scheduler(clock);
  Mailbox mailbox(scheduler);
  MailboxLog log;
  for (const char* name : {"a", "b", "c"}) {
    asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, false, name, milliseconds(10), log),
                   asio::detached);
  }
  EXPECT_EQ(scheduler.Run(SimTime(0)), Scheduler::RunEnd::kDeadline);
  EXPECT_TRUE(mailbox.held());
  EXPECT_EQ(mailbox.waiting(), 2u);

  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(log.events, (std::vector<std::string>{"a@0", "b@10", "c@20"}));
  EXPECT_EQ(log.holders_max, 1);
  EXPECT_FALSE(mailbox.held());
  EXPECT_EQ(mailbox.waiting(), 0u);
}

TEST(MailboxTest, PriorityAcquirersGoAheadOfOrdinaryWaiters) {
  // Strategy: "a" holds the mailbox; "b" and "c" queue as ordinary waiters
  // at t=0; at 5 ms "p1" then "p2" queue with priority. On each release the
  // priority waiters go first, among themselves in FIFO order, then the
  // ordinary ones in theirs.
  SimClock clock;
  Scheduler scheduler(clock);
  Mailbox mailbox(scheduler);
  MailboxLog log;
  for (const char* name : {"a", "b", "c"}) {
    asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, false, name, milliseconds(10), log),
                   asio::detached);
  }
  scheduler.AsyncSleep(milliseconds(5), [&](ErrorCode) {
    for (const char* name : {"p1", "p2"}) {
      asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, true, name, milliseconds(10), log),
                     asio::detached);
    }
  });
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(log.events, (std::vector<std::string>{"a@0", "p1@10", "p2@20", "b@30", "c@40"}));
  EXPECT_EQ(log.holders_max, 1);
  EXPECT_FALSE(mailbox.held());
}

TEST(MailboxTest, PriorityAcquireOfAFreeMailboxIsImmediate) {
  // Strategy: a priority acquirer of a free mailbox takes it at once, and an
  // ordinary acquirer of a free mailbox after a release does too.
  SimClock clock;
  Scheduler scheduler(clock);
  Mailbox mailbox(scheduler);
  MailboxLog log;
  asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, true, "p", milliseconds(1), log),
                 asio::detached);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  asio::co_spawn(scheduler.executor(), HoldMailbox(mailbox, scheduler, false, "o", milliseconds(1), log),
                 asio::detached);
  EXPECT_EQ(scheduler.Run(seconds(1)), Scheduler::RunEnd::kIdle);
  EXPECT_EQ(log.events, (std::vector<std::string>{"p@0", "o@1"}));
  EXPECT_FALSE(mailbox.held());
}

}  // namespace
}  // namespace durasim
