// The kept threads of the client's abandonable calls (rdkafka_query_threads.h).
#include "store/rdkafka_query_threads.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "store/format.h"
#include "store/rdkafka_thread_mask.h"

namespace durasim::rdkafka {
namespace {

class QueryThreads {
 public:
  Status Run(std::function<void()> call) {
    Call queued{std::move(call), CallingThreadMask()};
    std::lock_guard<std::mutex> lock(mu_);
    // Every queued call needs a thread of its own: an idle one, or a new one.
    if (idle_ <= static_cast<int>(calls_.size())) {
      try {
        std::thread([this] { Serve(); }).detach();
      } catch (const std::system_error& error) {
        return Status(StatusCode::kInternal, fmt::format("no thread for a query: {}", error.what()));
      }
      ++idle_;  // counted as idle until it takes a call
    }
    calls_.push_back(std::move(queued));
    ready_.notify_one();
    return Status::Ok();
  }

 private:
  struct Call {
    std::function<void()> run;
    std::optional<cpu_set_t> cpus;  // the caller's
  };

  void Serve() {
    std::optional<cpu_set_t> cpus = CallingThreadMask();  // this thread's, as started
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      ready_.wait(lock, [this] { return !calls_.empty(); });
      Call call = std::move(calls_.front());
      calls_.pop_front();
      --idle_;
      lock.unlock();
      AdoptMask(call.cpus, cpus);  // onto the caller's CPUs
      call.run();
      call.run = nullptr;  // what it holds (a consumer) goes now, not at the next call
      lock.lock();
      ++idle_;
    }
  }

  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Call> calls_;
  int idle_ = 0;  // threads waiting for a call, or started and not yet waiting
};

// Never destroyed: its threads wait on it until the process ends.
QueryThreads& TheQueryThreads() {
  static QueryThreads* threads = new QueryThreads;
  return *threads;
}

}  // namespace

Status RunOnQueryThread(std::function<void()> call) { return TheQueryThreads().Run(std::move(call)); }

}  // namespace durasim::rdkafka
