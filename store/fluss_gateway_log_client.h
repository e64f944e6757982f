// FlussGatewayLogClient: the LogClient port over a table of a real Apache
// Fluss cluster, through durasim's Fluss gateway (store/fluss_gateway.h).
// A partition is a bucket of the table; a record is (key, value) as the
// store writes it; the topic's incarnation is the table id.
//
// Produce queues a record; Flush appends the queued records in order, each
// acknowledged before the next is sent (FlussActionStateStore.put appends
// synchronously too), and after one fails sends none of the rest (each
// answered not persisted); AwaitAck answers from what Flush learned, flushing
// first when its record is still queued. Destroying the client is a crash:
// queued records are never sent.
//
// Thread-safety: none; one thread (one coroutine strand) uses a client.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "store/fluss_gateway.h"
#include "store/log_client.h"

namespace durasim {

struct FlussGatewayConfig {
  std::string gateway;  // the gateway's HOST:PORT
  std::string table;    // in the gateway's database
  // The buckets a client sees, the first ones (0: all): a table whose
  // buckets are added during the run is created with them all, and a
  // client sees the ones added so far (Fluss cannot add buckets to a table).
  int32_t buckets_visible = 0;
  std::chrono::milliseconds deadline{60'000};
};

class FlussGatewayLogClient : public LogClient {
 public:
  // Connects and checks that the table exists (kNotFound if not).
  static Result<std::unique_ptr<FlussGatewayLogClient>> Connect(const FlussGatewayConfig& config);

  int32_t partition_count() const override { return buckets_; }
  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  void Flush() override;
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;
  Result<std::vector<PartitionOffsets>> Offsets() override;
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override;
  Result<TopicIdentity> Topic() override;

 private:
  FlussGatewayLogClient(const FlussGatewayConfig& config, std::unique_ptr<FlussGateway> gateway, int32_t buckets)
      : config_(config), gateway_(std::move(gateway)), buckets_(buckets) {}

  struct Queued {
    ProduceTicket ticket;
    int32_t partition;
    std::string key;
    std::string value;
  };

  FlussGatewayConfig config_;
  std::unique_ptr<FlussGateway> gateway_;
  int32_t buckets_ = 0;  // those seen
  ProduceTicket next_ticket_ = 1;
  std::vector<Queued> queued_;
  std::map<ProduceTicket, Result<RecordPosition>> answered_;
};

}  // namespace durasim
