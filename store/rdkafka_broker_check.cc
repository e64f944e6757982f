// CheckBroker over librdkafka's C API (rdkafka_broker_check.h).
#include "store/rdkafka_broker_check.h"

#include <memory>
#include <mutex>
#include <string>

#include "store/format.h"
#include "store/rdkafka_support.h"

namespace durasim {
namespace {

// The first error librdkafka reports (the connection error that says why),
// and the latest one; filled from librdkafka's threads.
struct Errors {
  std::mutex mu;
  std::string first;
  std::string last;

  static void OnError(rd_kafka_t*, int err, const char* reason, void* opaque) {
    auto* self = static_cast<Errors*>(opaque);
    std::lock_guard<std::mutex> lock(self->mu);
    const std::string line = fmt::format("{}: {}", rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err)), reason);
    if (self->first.empty()) self->first = line;
    self->last = line;
  }

  std::string Describe() {
    std::lock_guard<std::mutex> lock(mu);
    if (first.empty()) return "";
    if (first == last) return fmt::format(" ({})", first);
    return fmt::format(" ({}; then {})", first, last);
  }
};

struct HandleDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};

}  // namespace

Status CheckBroker(const std::string& bootstrap_servers, std::chrono::milliseconds deadline) {
  if (bootstrap_servers.empty()) return Status(StatusCode::kInvalidArgument, "no bootstrap servers");
  if (deadline.count() <= 0) return Status(StatusCode::kInvalidArgument, "the broker check's deadline must be positive");
  auto errors = std::make_unique<Errors>();
  rdkafka::Conf conf(rd_kafka_conf_new());
  Status set = rdkafka::SetAll(conf.get(), {
                                               {"bootstrap.servers", bootstrap_servers},
                                               {"reconnect.backoff.ms", "10"},
                                               {"reconnect.backoff.max.ms", "100"},
                                           });
  if (!set.ok()) return set;
  rd_kafka_conf_set_opaque(conf.get(), errors.get());
  rd_kafka_conf_set_error_cb(conf.get(), &Errors::OnError);
  char errstr[512];
  std::unique_ptr<rd_kafka_t, HandleDeleter> rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof(errstr)));
  if (rk == nullptr) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("cannot create a client for {}: {}", bootstrap_servers, errstr));
  }
  conf.release();  // rd_kafka_new owns it now
  // No topic named: the answer lists the brokers only.
  const rd_kafka_metadata_t* metadata = nullptr;
  const rd_kafka_resp_err_t err = rdkafka::CallInSlices(
      rdkafka::Clock::now() + deadline, [&](int slice) { return rd_kafka_metadata(rk.get(), 0, nullptr, &metadata, slice); });
  if (metadata != nullptr) rd_kafka_metadata_destroy(metadata);
  rd_kafka_poll(rk.get(), 0);  // error callbacks queued meanwhile
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return rdkafka::AsInterrupted(
        Status(StatusCode::kUnavailable, fmt::format("no broker at {} answered within {} ms: {}{}", bootstrap_servers,
                                                     deadline.count(), rdkafka::ErrorText(err), errors->Describe())));
  }
  return Status::Ok();
}

}  // namespace durasim
