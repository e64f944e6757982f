// The background destroyer (rdkafka_reaper.h).
#include "store/rdkafka_reaper.h"

#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "store/rdkafka_thread_mask.h"

namespace durasim::rdkafka {
namespace {

// How long a teardown may take before the reaper is taken for stuck.
constexpr std::chrono::seconds kStuckAfter{10};

struct Pending {
  rd_kafka_t* rk;
  int flags;
  std::optional<cpu_set_t> cpus;  // the caller's: the handle's threads run there
};

class Reaper {
 public:
  // Whether the reaper took `rk`; false when the caller must destroy it.
  bool Take(rd_kafka_t* rk, int flags) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!started_) {
      try {
        std::thread([this] { Run(); }).detach();
      } catch (const std::system_error&) {
        return false;
      }
      started_ = true;
    }
    // Behind by kPendingDestroysMax: wait for room, so that the order holds
    // (a cluster's owner after its clients); a reaper stuck that long in one
    // teardown leaves the caller to destroy its handle itself.
    if (!room_.wait_for(lock, kStuckAfter,
                        [this] { return static_cast<int>(pending_.size()) < kPendingDestroysMax; })) {
      return false;
    }
    pending_.push_back(Pending{rk, flags, CallingThreadMask()});
    wake_.notify_all();
    return true;
  }

  // Bounded: a teardown stuck in librdkafka must not hold the process at
  // its exit for ever (the run's report is written by then).
  void AwaitIdle() {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait_for(lock, kStuckAfter, [this] { return pending_.empty() && !destroying_; });
  }

 private:
  void Run() {
    pthread_setname_np(pthread_self(), kReaperThreadName);  // for ps, and for its test
    std::optional<cpu_set_t> cpus = CallingThreadMask();  // this thread's, as started
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      wake_.wait(lock, [this] { return !pending_.empty(); });
      const Pending next = pending_.front();
      pending_.pop_front();
      room_.notify_all();
      destroying_ = true;
      lock.unlock();
      // Beside the handle's threads, which its teardown wakes and joins.
      AdoptMask(next.cpus, cpus);
      rd_kafka_destroy_flags(next.rk, next.flags);
      lock.lock();
      destroying_ = false;
      if (pending_.empty()) idle_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;  // a handle was handed over
  std::condition_variable idle_;  // nothing is left to destroy
  std::condition_variable room_;  // fewer than kPendingDestroysMax wait
  std::deque<Pending> pending_;
  bool destroying_ = false;
  bool started_ = false;
};

// Never destroyed: its thread runs until the process ends, and a handle
// handed over during exit must still find it.
Reaper& TheReaper() {
  static Reaper* reaper = new Reaper;
  return *reaper;
}

// At exit (a static object's destructor, after main), waits for the
// handles still pending.
struct DrainAtExit {
  ~DrainAtExit() { AwaitBackgroundDestroys(); }
};

}  // namespace

void DestroyInBackground(rd_kafka_t* rk, int flags) {
  static DrainAtExit drain_at_exit;
  if (!TheReaper().Take(rk, flags)) rd_kafka_destroy_flags(rk, flags);
}

void AwaitBackgroundDestroys() { TheReaper().AwaitIdle(); }

}  // namespace durasim::rdkafka
