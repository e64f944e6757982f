// The kept threads of the client's abandonable calls (rdkafka_query_threads.h).
#include "store/rdkafka_query_threads.h"

#include <fmt/format.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace durasim::rdkafka {
namespace {

class QueryThreads {
 public:
  Status Run(std::function<void()> call) {
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
    calls_.push_back(std::move(call));
    ready_.notify_one();
    return Status::Ok();
  }

 private:
  void Serve() {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      ready_.wait(lock, [this] { return !calls_.empty(); });
      std::function<void()> call = std::move(calls_.front());
      calls_.pop_front();
      --idle_;
      lock.unlock();
      call();
      call = nullptr;  // what it holds (a consumer) goes now, not at the next call
      lock.lock();
      ++idle_;
    }
  }

  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> calls_;
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
