// FlussGateway: one connection to durasim's Fluss gateway
// (ci/fluss/gateway/FlussGateway.java), the JVM program that serves a real
// Apache Fluss cluster to C++ over a line protocol on loopback TCP: Fluss
// has no C or C++ client. The protocol is the gateway's header comment; this
// class sends one request line and parses its answer, bytes as hex.
//
// Every call is bounded by a wall-clock deadline (the gateway bounds its
// own Fluss calls by 30 s): Asio's asynchronous operations run for at most
// that long on the connection's own io_context. A failure of the connection, or an
// answer that does not parse, fails this call and every later one: a
// connection whose stream may be out of step is never trusted again.
//
// Thread-safety: none; one thread uses a connection.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "store/log_client.h"
#include "store/status.h"

namespace durasim {

class FlussGateway {
 public:
  // Connects to the gateway at "HOST:PORT" and checks it answers `ping`.
  // Errors: kInvalidArgument (not HOST:PORT), kUnavailable (nothing answers).
  static Result<std::unique_ptr<FlussGateway>> Connect(const std::string& address,
                                                       std::chrono::milliseconds deadline);

  // A new log table of `buckets` buckets; returns its table id (the
  // incarnation: a table dropped and created again has another).
  Result<int64_t> CreateTable(const std::string& table, int32_t buckets);
  // Drops the table; one that does not exist is fine.
  Status DropTable(const std::string& table);
  struct TableInfo {
    int64_t table_id = 0;
    int32_t buckets = 0;
  };
  // kNotFound when there is no such table.
  Result<TableInfo> Info(const std::string& table);
  // Appends one record to `bucket` and waits for its acknowledgement.
  Result<int64_t> Append(const std::string& table, int32_t bucket, std::string_view key, std::string_view value);
  Result<std::vector<PartitionOffsets>> Offsets(const std::string& table);
  // The records of `bucket` with offsets in [from, to).
  Result<std::vector<LogRecord>> Read(const std::string& table, int32_t bucket, int64_t from, int64_t to);

  const std::string& address() const { return address_; }

 private:
  FlussGateway(std::string address, std::chrono::milliseconds deadline);
  // Sends `request`, returns the tokens after "ok".
  Result<std::vector<std::string>> Call(const std::string& request);

  std::string address_;
  std::chrono::milliseconds deadline_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  std::string buffer_;  // bytes read past the last answer line
  Status broken_;       // the first failure of the connection itself
};

// Bytes as lowercase hex, the empty string as "-" (the gateway's form), and back.
std::string GatewayHex(std::string_view bytes);
Result<std::string> GatewayBytes(std::string_view hex);

}  // namespace durasim
