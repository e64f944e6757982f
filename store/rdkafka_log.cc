// librdkafka log routing: a log_cb on every configuration the client
// creates (rdkafka::SetAll, the mock cluster's owner).
#include "store/rdkafka_log.h"

#include <atomic>
#include <cstdio>

#include "store/rdkafka_support.h"

namespace durasim {
namespace {

std::atomic<bool> to_stderr{false};
std::atomic<int64_t> lines{0};

}  // namespace

void SetRdKafkaLogToStderr(bool on) { to_stderr = on; }
int64_t RdKafkaLogLines() { return lines.load(); }

namespace rdkafka {

void OnLogLine(const rd_kafka_t* /*rk*/, int level, const char* facility, const char* message) {
  ++lines;
  if (to_stderr) std::fprintf(stderr, "librdkafka: %d %s: %s\n", level, facility, message);
}

void RouteLog(rd_kafka_conf_t* conf) { rd_kafka_conf_set_log_cb(conf, OnLogLine); }

}  // namespace rdkafka
}  // namespace durasim
