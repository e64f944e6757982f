// The background destroyer (rdkafka_reaper.h).
#include "store/rdkafka_reaper.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace durasim::rdkafka {
namespace {

struct Pending {
  rd_kafka_t* rk;
  int flags;
};

class Reaper {
 public:
  // Whether the reaper took `rk`; false when the caller must destroy it.
  bool Take(rd_kafka_t* rk, int flags) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!started_) {
      try {
        std::thread([this] { Run(); }).detach();
      } catch (const std::system_error&) {
        return false;
      }
      started_ = true;
    }
    if (static_cast<int>(pending_.size()) >= kPendingDestroysMax) return false;
    pending_.push_back(Pending{rk, flags});
    wake_.notify_all();
    return true;
  }

  void AwaitIdle() {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return pending_.empty() && !destroying_; });
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      wake_.wait(lock, [this] { return !pending_.empty(); });
      const Pending next = pending_.front();
      pending_.pop_front();
      destroying_ = true;
      lock.unlock();
      rd_kafka_destroy_flags(next.rk, next.flags);
      lock.lock();
      destroying_ = false;
      if (pending_.empty()) idle_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;  // a handle was handed over
  std::condition_variable idle_;  // nothing is left to destroy
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
