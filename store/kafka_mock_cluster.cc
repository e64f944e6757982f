// KafkaMockCluster implementation.
#include "store/kafka_mock_cluster.h"

#include <dirent.h>
#include <librdkafka/rdkafka_mock.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "store/check.h"
#include "store/format.h"
#include "store/rdkafka_reaper.h"
#include "store/rdkafka_support.h"

namespace durasim {

namespace {

// Kafka protocol ApiKey of Produce requests (librdkafka keeps its RD_KAFKAP_*
// names in a private header).
constexpr int16_t kApiKeyProduce = 0;
constexpr int16_t kApiKeyOffsetCommit = 8;

Status MockStatus(rd_kafka_resp_err_t err, const std::string& what) {
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return Status::Ok();
  return Status(StatusCode::kInternal, fmt::format("mock cluster: {}: {} ({})", what, rd_kafka_err2str(err),
                                                   rd_kafka_err2name(err)));
}

// The ports of "host:port,host:port...".
std::set<int> PortsOf(const std::string& servers) {
  std::set<int> ports;
  size_t begin = 0;
  while (begin < servers.size()) {
    size_t end = servers.find(',', begin);
    if (end == std::string::npos) end = servers.size();
    const std::string server = servers.substr(begin, end - begin);
    const size_t colon = server.rfind(':');
    if (colon != std::string::npos) ports.insert(std::atoi(server.c_str() + colon + 1));
    begin = end + 1;
  }
  return ports;
}

// Sets TCP_NODELAY on the mock brokers' listening sockets, which the
// connections they accept inherit. librdkafka's mock leaves Nagle's
// algorithm on, so an answer written while the previous one is not yet
// acknowledged waits for the client's delayed ACK, about 40 ms, whenever a
// client has two requests in flight on one connection. Returns how many
// listeners it found (the mock's threads own the sockets; this only sets an
// option on them).
int DisableNagleOnListeners(const std::string& bootstrap_servers) {
  const std::set<int> ports = PortsOf(bootstrap_servers);
  int found = 0;
  DIR* fds = opendir("/proc/self/fd");
  if (fds == nullptr) return 0;
  while (const dirent* entry = readdir(fds)) {
    const int fd = std::atoi(entry->d_name);
    if (fd <= 2 || fd == dirfd(fds)) continue;
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISSOCK(info.st_mode)) continue;
    int listening = 0;
    socklen_t length = sizeof(listening);
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) != 0 || listening == 0) continue;
    sockaddr_storage address{};
    socklen_t address_length = sizeof(address);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &address_length) != 0) continue;
    int port = -1;
    if (address.ss_family == AF_INET) port = ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
    if (address.ss_family == AF_INET6) port = ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
    if (ports.count(port) == 0) continue;
    const int on = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) == 0) ++found;
  }
  closedir(fds);
  return found;
}

// How long a control waits after the previous one ended (Spaced): the mock
// thread, which the previous answer may have preempted, runs meanwhile to
// the end of its loop.
constexpr std::chrono::microseconds kControlSpacing{1000};

}  // namespace

template <typename Control>
rd_kafka_resp_err_t KafkaMockCluster::Spaced(Control control) {
  const auto now = std::chrono::steady_clock::now();
  if (now < last_control_end_ + kControlSpacing) std::this_thread::sleep_until(last_control_end_ + kControlSpacing);
  const rd_kafka_resp_err_t err = control();
  last_control_end_ = std::chrono::steady_clock::now();
  return err;
}

Result<std::unique_ptr<KafkaMockCluster>> KafkaMockCluster::Start(int brokers) {
  if (brokers < 1) return Status(StatusCode::kInvalidArgument, "a mock cluster needs at least one broker");
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rdkafka::RouteLog(conf);
  char errstr[512];
  // The cluster is created by the owner handle's test.mock.num.brokers rather
  // than rd_kafka_mock_cluster_new: in 2.0.2 rd_kafka_mock_cluster_destroy
  // waits about 1 s for its internal broker thread, destroying the owner of
  // a test.mock cluster does not. The owner only carries the cluster; its
  // own (idle) connections to it are not logged below errors.
  const std::pair<const char*, std::string> properties[] = {
      {"test.mock.num.brokers", std::to_string(brokers)},
      {"log_level", "3"},
  };
  for (const auto& [name, value] : properties) {
    if (rd_kafka_conf_set(conf, name, value.c_str(), errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return Status(StatusCode::kInternal, fmt::format("mock cluster owner: {}", errstr));
    }
  }
  rd_kafka_t* owner = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (owner == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Status(StatusCode::kInternal, fmt::format("mock cluster owner: {}", errstr));
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_handle_mock_cluster(owner);
  if (cluster == nullptr) {
    rd_kafka_destroy(owner);
    return Status(StatusCode::kInternal, "the mock cluster owner has no mock cluster");
  }
  std::unique_ptr<KafkaMockCluster> started(new KafkaMockCluster(owner, cluster));
  DisableNagleOnListeners(started->bootstrap_servers());
  return started;
}

KafkaMockCluster::KafkaMockCluster(rd_kafka_t* owner, rd_kafka_mock_cluster_t* cluster)
    : owner_(owner), cluster_(cluster), bootstrap_servers_(rd_kafka_mock_cluster_bootstraps(cluster)) {
  DURASIM_CHECK(owner_ != nullptr && cluster_ != nullptr);  // Start checked both
}

// The cluster dies with its owner handle, after the handles of its clients
// handed to the background destroyer before (rdkafka_reaper.h): none of
// them is left to reconnect to a cluster that is gone.
KafkaMockCluster::~KafkaMockCluster() { rdkafka::DestroyInBackground(owner_); }

Status KafkaMockCluster::CreateTopic(const std::string& name, int32_t partitions) {
  return MockStatus(Spaced([&] { return rd_kafka_mock_topic_create(cluster_, name.c_str(), partitions, 1); }),
                    fmt::format("create topic '{}'", name));
}

void KafkaMockCluster::PushProduceErrors(size_t count, rd_kafka_resp_err_t err) {
  faulted_ = true;
  std::vector<rd_kafka_resp_err_t> errors(count, err);
  Spaced([&] {
    rd_kafka_mock_push_request_errors_array(cluster_, kApiKeyProduce, errors.size(), errors.data());
    return RD_KAFKA_RESP_ERR_NO_ERROR;
  });
}

Status KafkaMockCluster::PushAnswer(int32_t broker_id, int16_t api_key, rd_kafka_resp_err_t err,
                                    std::chrono::milliseconds delay, std::string_view what) {
  faulted_ = true;
  return MockStatus(Spaced([&] {
                      return rd_kafka_mock_broker_push_request_error_rtts(cluster_, broker_id, api_key, 1, err,
                                                                          static_cast<int>(delay.count()));
                    }),
                    fmt::format("broker {} {} answer {}", broker_id, what, rd_kafka_err2name(err)));
}

Status KafkaMockCluster::PushProduceAnswer(int32_t broker_id, rd_kafka_resp_err_t err,
                                           std::chrono::milliseconds delay) {
  return PushAnswer(broker_id, kApiKeyProduce, err, delay, "produce");
}

Status KafkaMockCluster::PushOffsetCommitAnswer(int32_t broker_id, rd_kafka_resp_err_t err,
                                                std::chrono::milliseconds delay) {
  return PushAnswer(broker_id, kApiKeyOffsetCommit, err, delay, "offset commit");
}

Status KafkaMockCluster::BrokerDown(int32_t broker_id) {
  faulted_ = true;
  return MockStatus(Spaced([&] { return rd_kafka_mock_broker_set_down(cluster_, broker_id); }),
                    fmt::format("broker {} down", broker_id));
}

Status KafkaMockCluster::BrokerUp(int32_t broker_id) {
  Status up = MockStatus(Spaced([&] { return rd_kafka_mock_broker_set_up(cluster_, broker_id); }),
                         fmt::format("broker {} up", broker_id));
  // The mock made a new listening socket when it took the broker down
  // (to keep its port): Nagle's algorithm is on again there.
  if (up.ok()) DisableNagleOnListeners(bootstrap_servers_);
  return up;
}

Status KafkaMockCluster::SetRtt(int32_t broker_id, std::chrono::milliseconds rtt) {
  faulted_ = true;
  return MockStatus(
      Spaced([&] { return rd_kafka_mock_broker_set_rtt(cluster_, broker_id, static_cast<int>(rtt.count())); }),
      fmt::format("broker {} rtt", broker_id));
}

}  // namespace durasim
