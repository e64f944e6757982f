// FlussGateway implementation.
#include "store/fluss_gateway.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <charconv>

#include "store/format.h"

namespace durasim {
namespace {

constexpr std::string_view kHexDigits = "0123456789abcdef";

Result<int64_t> Integer(const std::string& token, const std::string& what) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc() || end != token.data() + token.size()) {
    return Status(StatusCode::kInternal, fmt::format("the Fluss gateway answered {} '{}', not an integer", what, token));
  }
  return value;
}

StatusCode CodeOf(std::string_view code) {
  if (code == "unavailable") return StatusCode::kUnavailable;
  if (code == "not_found") return StatusCode::kNotFound;
  if (code == "invalid") return StatusCode::kInvalidArgument;
  if (code == "range") return StatusCode::kInvalidRecovery;  // as a Kafka read past the log's end
  return StatusCode::kInternal;
}

std::vector<std::string> Split(std::string_view line) {
  std::vector<std::string> tokens;
  size_t start = 0;
  while (start <= line.size()) {
    const size_t space = line.find(' ', start);
    const size_t end = space == std::string_view::npos ? line.size() : space;
    tokens.emplace_back(line.substr(start, end - start));
    start = end + 1;
  }
  return tokens;
}

}  // namespace

std::string GatewayHex(std::string_view bytes) {
  if (bytes.empty()) return "-";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex.push_back(kHexDigits[c >> 4]);
    hex.push_back(kHexDigits[c & 0xf]);
  }
  return hex;
}

Result<std::string> GatewayBytes(std::string_view hex) {
  if (hex == "-") return std::string();
  auto nibble = [](char c) -> int {
    const size_t at = kHexDigits.find(c);
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
  };
  if (hex.empty() || hex.size() % 2 != 0) {
    return Status(StatusCode::kInternal, fmt::format("the Fluss gateway answered '{}', not hex bytes", hex));
  }
  std::string bytes;
  bytes.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = nibble(hex[i]);
    const int low = nibble(hex[i + 1]);
    if (high < 0 || low < 0) {
      return Status(StatusCode::kInternal, fmt::format("the Fluss gateway answered '{}', not hex bytes", hex));
    }
    bytes.push_back(static_cast<char>(high << 4 | low));
  }
  return bytes;
}

FlussGateway::FlussGateway(std::string address, std::chrono::milliseconds deadline)
    : address_(std::move(address)), deadline_(deadline), socket_(io_) {}

Result<std::unique_ptr<FlussGateway>> FlussGateway::Connect(const std::string& address,
                                                            std::chrono::milliseconds deadline) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("the Fluss gateway's address '{}' is not HOST:PORT", address));
  }
  std::unique_ptr<FlussGateway> gateway(new FlussGateway(address, deadline));
  boost::system::error_code error;
  boost::asio::ip::tcp::resolver resolver(gateway->io_);
  const auto endpoints = resolver.resolve(address.substr(0, colon), address.substr(colon + 1), error);
  if (!error) {
    error = boost::asio::error::timed_out;  // unless the connect completes within the deadline
    boost::asio::async_connect(gateway->socket_, endpoints,
                               [&error](const boost::system::error_code& done, const auto&) { error = done; });
    gateway->io_.restart();
    gateway->io_.run_for(deadline);
  }
  if (error) {
    return Status(StatusCode::kUnavailable,
                  fmt::format("the Fluss gateway at {} did not answer: {}", address, error.message()));
  }
  gateway->socket_.set_option(boost::asio::ip::tcp::no_delay(true));
  if (Result<std::vector<std::string>> pong = gateway->Call("ping"); !pong.ok()) return pong.status();
  return gateway;
}

Result<std::vector<std::string>> FlussGateway::Call(const std::string& request) {
  if (!broken_.ok()) return broken_;
  // Asynchronous, so that the deadline bounds the whole call: a blocking
  // socket's own timeouts do not bound Asio's blocking reads.
  const std::string line = request + "\n";
  boost::system::error_code error = boost::asio::error::timed_out;  // unless answered within the deadline
  size_t line_end = 0;
  boost::asio::async_write(socket_, boost::asio::buffer(line), [&](const boost::system::error_code& written, size_t) {
    if (written) {
      error = written;
      return;
    }
    boost::asio::async_read_until(socket_, boost::asio::dynamic_buffer(buffer_), '\n',
                                  [&](const boost::system::error_code& read, size_t end) {
                                    error = read;
                                    line_end = end;
                                  });
  });
  io_.restart();
  io_.run_for(deadline_);
  if (error) {
    socket_.close();  // cancels what is outstanding; the stream is out of step for good
    io_.restart();
    io_.poll();       // lets the cancelled handlers finish while `error` and `line_end` live
    const std::string verb = request.substr(0, request.find(' '));
    broken_ = Status(StatusCode::kUnavailable, fmt::format("the Fluss gateway at {} failed a '{}' request: {}",
                                                           address_, verb, error.message()));
    return broken_;
  }
  std::vector<std::string> tokens = Split(std::string_view(buffer_).substr(0, line_end - 1));
  buffer_.erase(0, line_end);
  if (tokens[0] == "ok") {
    tokens.erase(tokens.begin());
    return tokens;
  }
  if (tokens[0] == "err" && tokens.size() >= 2) {
    std::string message;
    for (size_t i = 2; i < tokens.size(); ++i) message += (i > 2 ? " " : "") + tokens[i];
    return Status(CodeOf(tokens[1]), fmt::format("the Fluss gateway at {}: {}", address_, message));
  }
  broken_ = Status(StatusCode::kInternal,
                   fmt::format("the Fluss gateway at {} answered '{}', not ok or err", address_, tokens[0]));
  return broken_;
}

Result<int64_t> FlussGateway::CreateTable(const std::string& table, int32_t buckets) {
  Result<std::vector<std::string>> answer = Call(fmt::format("create {} {}", table, buckets));
  if (!answer.ok()) return answer.status();
  if (answer->size() != 1) return Status(StatusCode::kInternal, "the Fluss gateway's create answer is not a table id");
  return Integer((*answer)[0], "the table id");
}

Status FlussGateway::DropTable(const std::string& table) { return Call("drop " + table).status(); }

Result<FlussGateway::TableInfo> FlussGateway::Info(const std::string& table) {
  Result<std::vector<std::string>> answer = Call("info " + table);
  if (!answer.ok()) return answer.status();
  if (answer->size() != 2) return Status(StatusCode::kInternal, "the Fluss gateway's info answer is not two numbers");
  Result<int64_t> id = Integer((*answer)[0], "the table id");
  Result<int64_t> buckets = Integer((*answer)[1], "the bucket count");
  if (!id.ok()) return id.status();
  if (!buckets.ok()) return buckets.status();
  return TableInfo{*id, static_cast<int32_t>(*buckets)};
}

Result<int64_t> FlussGateway::Append(const std::string& table, int32_t bucket, std::string_view key,
                                     std::string_view value) {
  Result<std::vector<std::string>> answer =
      Call(fmt::format("append {} {} {} {}", table, bucket, GatewayHex(key), GatewayHex(value)));
  if (!answer.ok()) return answer.status();
  if (answer->size() != 1) return Status(StatusCode::kInternal, "the Fluss gateway's append answer is not an offset");
  return Integer((*answer)[0], "the offset");
}

Result<std::vector<PartitionOffsets>> FlussGateway::Offsets(const std::string& table) {
  Result<std::vector<std::string>> answer = Call("offsets " + table);
  if (!answer.ok()) return answer.status();
  if (answer->size() % 2 != 0) return Status(StatusCode::kInternal, "the Fluss gateway's offsets answer is not pairs");
  std::vector<PartitionOffsets> offsets;
  for (size_t i = 0; i < answer->size(); i += 2) {
    Result<int64_t> start = Integer((*answer)[i], "a start offset");
    Result<int64_t> end = Integer((*answer)[i + 1], "an end offset");
    if (!start.ok()) return start.status();
    if (!end.ok()) return end.status();
    offsets.push_back(PartitionOffsets{*start, *end});
  }
  return offsets;
}

Result<std::vector<LogRecord>> FlussGateway::Read(const std::string& table, int32_t bucket, int64_t from, int64_t to) {
  Result<std::vector<std::string>> answer = Call(fmt::format("read {} {} {} {}", table, bucket, from, to));
  if (!answer.ok()) return answer.status();
  Result<int64_t> count = answer->empty() ? Result<int64_t>(Status(StatusCode::kInternal, "empty read answer"))
                                          : Integer((*answer)[0], "a record count");
  if (!count.ok()) return count.status();
  if (answer->size() != 1 + 3 * static_cast<size_t>(*count)) {
    return Status(StatusCode::kInternal, "the Fluss gateway's read answer does not hold its records");
  }
  std::vector<LogRecord> records;
  for (size_t i = 1; i < answer->size(); i += 3) {
    Result<int64_t> offset = Integer((*answer)[i], "an offset");
    Result<std::string> key = GatewayBytes((*answer)[i + 1]);
    Result<std::string> value = GatewayBytes((*answer)[i + 2]);
    if (!offset.ok()) return offset.status();
    if (!key.ok()) return key.status();
    if (!value.ok()) return value.status();
    records.push_back(LogRecord{bucket, *offset, std::move(key).value(), std::move(value).value()});
  }
  return records;
}

}  // namespace durasim
