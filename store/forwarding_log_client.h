// ForwardingLogClient: a LogClient that forwards every call to another one.
// Wrappers (fault injection, acknowledgement observation, benchmarks)
// derive from it and override only what they change, as LevelDB's
// EnvWrapper does for its environment.
#pragma once

#include "store/log_client.h"

namespace durasim {

class ForwardingLogClient : public LogClient {
 public:
  // REQUIRES: `inner` outlives the wrapper.
  explicit ForwardingLogClient(LogClient& inner) : inner_(inner) {}

  int32_t partition_count() const override { return inner_.partition_count(); }
  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override {
    return inner_.Produce(partition, std::move(key), std::move(value));
  }
  void Flush() override { inner_.Flush(); }
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override {
    return inner_.AwaitAck(ticket);
  }
  Result<std::vector<PartitionOffsets>> Offsets() override { return inner_.Offsets(); }
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override {
    return inner_.Read(partition, from, to);
  }
  Result<TopicIdentity> Topic() override { return inner_.Topic(); }
  Result<FetchResult> Fetch(int32_t partition, int64_t from, int64_t to) override {
    return inner_.Fetch(partition, from, to);
  }
  void WillRead(const std::vector<ReadRange>& ranges) override { inner_.WillRead(ranges); }

 protected:
  LogClient& inner() { return inner_; }

 private:
  LogClient& inner_;
};

}  // namespace durasim
