// put_latency_bench: put latency of KafkaActionStateStore over
// RdKafkaLogClient in the store's order (produce, flush, then await the
// delivery report) against await-before-flush (produce, then await: the
// producer's 5 ms linger runs out first), and rebuild throughput of
// KafkaActionStateStore::Rebuild from offset 0. On librdkafka's mock cluster
// (in process) and, with --bootstrap-servers or DURASIM_KAFKA_BOOTSTRAP, on a
// real broker (fresh topics per run).
//
// A benchmark, not a test: it prints a table and whether each target was met
// (p50 <= 1 ms on the mock, <= 2 ms on a real broker; the store's order at
// least 5x faster than await-before-flush at p50) and never fails on a missed
// target. It exits non-zero only when a put, a write or a rebuild fails.
// The figures go to docs/benchmarks.md.
//
// The wall clock lives here only; sim/ and model/ never read it.
//
//   put_latency_bench [--puts N] [--warmup N] [--rebuild-records N]
//                     [--rebuild-runs N] [--partitions N] [--fetch-wait-ms N]
//                     [--in-blocks] [--no-mock] [--bootstrap-servers HOST:PORT]
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/format.h"
#include "store/forwarding_log_client.h"
#include "store/kafka_action_state_store.h"
#include "store/kafka_mock_cluster.h"
#include "store/rdkafka_log_client.h"
#include "store/run_sync.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The await-before-flush order: the store over this client produces and
// then awaits without flushing, so each put waits out the producer's linger.
// Used only here.
class NoFlushLogClient : public ForwardingLogClient {
 public:
  using ForwardingLogClient::ForwardingLogClient;
  void Flush() override {}
};

// A state of the size an agent step writes: one durable call result, one
// memory update, one emitted event.
ActionState BenchState(int64_t tag) {
  ActionState state;
  state.call_results.push_back(CallResult{"llm.complete", 0x9e3779b97f4a7c15ULL, CallStatus::kSucceeded, tag, ""});
  state.memory_updates.push_back(MemoryUpdate{"conversation.turns", tag});
  state.emitted_events.push_back(EmittedEvent{"reply", tag});
  return state;
}

StateKey BenchKey(const std::string& prefix, int64_t i) {
  return StateKey{fmt::format("{}-{}", prefix, i), 1, 0x1234abcdULL, 0x5678ef01ULL};
}

struct Summary {
  size_t n = 0;
  double p50 = 0, p99 = 0, mean = 0, min = 0, max = 0;
};

// Nearest-rank percentiles.
Summary Summarize(std::vector<double> values) {
  Summary s;
  s.n = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  auto rank = [&](double q) {
    const size_t index = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
    return values[std::clamp<size_t>(index, 1, values.size()) - 1];
  };
  s.p50 = rank(0.50);
  s.p99 = rank(0.99);
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  s.min = values.front();
  s.max = values.back();
  return s;
}

struct Options {
  int puts = 500;
  int warmup = 500;
  int rebuild_records = 20000;
  int rebuild_runs = 3;
  int partitions = 4;
  bool in_blocks = false;
  int fetch_wait_ms = 20;  // RdKafkaConfig's default
};

// One place to run against: the mock cluster or a real broker.
struct Target {
  std::string name;
  std::string bootstrap_servers;
  double p50_target_ms = 1.0;
  std::unique_ptr<KafkaMockCluster> cluster;  // the mock only
  std::string topic_prefix;
};

struct LatencyResult {
  Summary store_order;
  Summary await_first;
};

struct RebuildResult {
  std::string shape;
  int records = 0;
  double write_ms = 0;
  double warmup_rate = 0;     // records per second of the unmeasured first rebuild
  std::vector<double> rates;  // records per second, one per measured run
};

RdKafkaConfig ConfigFor(const Target& target, const std::string& topic, int partitions, const Options& options) {
  RdKafkaConfig config;
  config.bootstrap_servers = target.bootstrap_servers;
  config.topic = topic;
  config.expected_partitions = partitions;
  // A real broker gets its topics from the admin API; the mock's are made
  // directly on the cluster.
  config.create_topic = target.cluster == nullptr;
  // Long enough for one flush of the whole batched rebuild log.
  config.deadline = std::chrono::milliseconds(60'000);
  config.fetch_wait_max = std::chrono::milliseconds(options.fetch_wait_ms);
  return config;
}

Result<std::unique_ptr<RdKafkaLogClient>> ConnectTo(const Target& target, const std::string& topic,
                                                    const Options& options, bool create) {
  const int partitions = options.partitions;
  if (create && target.cluster != nullptr) {
    Status made = target.cluster->CreateTopic(topic, partitions);
    if (!made.ok()) return made;
  }
  return RdKafkaLogClient::Connect(ConfigFor(target, topic, partitions, options));
}

// Alternates the two orders put by put (which goes first alternates too), so
// that a load change on the shared machine hits both alike; or, with
// --in-blocks, all puts of the store's order, then all of the other.
Result<LatencyResult> MeasureLatency(const Target& target, const Options& options) {
  Result<std::unique_ptr<RdKafkaLogClient>> client =
      ConnectTo(target, target.topic_prefix + "-put", options, true);
  if (!client.ok()) return client.status();
  NoFlushLogClient no_flush(**client);
  KafkaActionStateStore store_order(**client);
  KafkaActionStateStore await_first(no_flush);

  std::vector<double> store_ms;
  std::vector<double> await_ms;
  Status failure = Status::Ok();
  boost::asio::io_context io;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        // Alternating: one pass, both orders at each step. In blocks: one
        // pass per order, the store's first.
        const int passes = options.in_blocks ? 2 : 1;
        for (int pass = 0; pass < passes; ++pass) {
          for (int i = 0; i < options.warmup + options.puts; ++i) {
            for (int k = 0; k < (options.in_blocks ? 1 : 2); ++k) {
              const bool flush = options.in_blocks ? pass == 0 : (i + k) % 2 == 0;
              KafkaActionStateStore& store = flush ? store_order : await_first;
              const StateKey key = BenchKey(flush ? "put-flush" : "put-await", i);
              const ActionState state = BenchState(i);
              const Clock::time_point start = Clock::now();
              Status put = co_await store.Put(key, state);
              const double ms = MsSince(start);
              if (!put.ok()) {
                failure = Status(put.code(), fmt::format("{} put {} ({}): {}", target.name, i,
                                                         flush ? "store order" : "await-before-flush", put.message()));
                co_return;
              }
              if (i >= options.warmup) (flush ? store_ms : await_ms).push_back(ms);
            }
          }
        }
      },
      boost::asio::detached);
  io.run();
  if (!failure.ok()) return failure;
  return LatencyResult{Summarize(store_ms), Summarize(await_ms)};
}

// Writes `records` states to a fresh topic, either in batches (produce all,
// one flush, then every acknowledgement) or one store put each (one record
// per produce batch, as the store's own puts leave the log), then rebuilds a
// fresh store over a fresh client (a restore after a crash) from offset 0 of
// every partition: one unmeasured rebuild (it warms the broker's read path:
// a real broker's JIT), then `runs` measured ones.
Result<RebuildResult> MeasureRebuild(const Target& target, const Options& options, bool batched) {
  RebuildResult result;
  result.shape = batched ? "batched writes" : "one put per record";
  result.records = options.rebuild_records;
  const std::string topic = target.topic_prefix + (batched ? "-rebuild-batched" : "-rebuild-per-put");
  {
    Result<std::unique_ptr<RdKafkaLogClient>> writer = ConnectTo(target, topic, options, true);
    if (!writer.ok()) return writer.status();
    LogClient& client = **writer;
    const std::string prefix = batched ? "rebuild-batched" : "rebuild-per-put";
    const Clock::time_point start = Clock::now();
    if (batched) {
      std::vector<ProduceTicket> tickets;
      tickets.reserve(static_cast<size_t>(options.rebuild_records));
      for (int i = 0; i < options.rebuild_records; ++i) {
        const StateKey key = BenchKey(prefix, i);
        tickets.push_back(client.Produce(PartitionForKey(key.key, client.partition_count()), EncodeRecordKey(key),
                                         EncodeStateValue(key, BenchState(i))));
      }
      client.Flush();
      for (ProduceTicket ticket : tickets) {
        Result<RecordPosition> ack = RunSync(client.AwaitAck(ticket));
        if (!ack.ok()) {
          return Status(ack.status().code(), fmt::format("{} batched write to {}: {}", target.name, topic,
                                                         ack.status().message()));
        }
      }
    } else {
      KafkaActionStateStore store(client);
      for (int i = 0; i < options.rebuild_records; ++i) {
        Status put = RunSync(store.Put(BenchKey(prefix, i), BenchState(i)));
        if (!put.ok()) {
          return Status(put.code(), fmt::format("{} put {} to {}: {}", target.name, i, topic, put.message()));
        }
      }
    }
    result.write_ms = MsSince(start);
  }
  for (int run = -1; run < options.rebuild_runs; ++run) {
    Result<std::unique_ptr<RdKafkaLogClient>> reader = ConnectTo(target, topic, options, false);
    if (!reader.ok()) return reader.status();
    KafkaActionStateStore store(**reader);
    Result<TopicIdentity> identity = (*reader)->Topic();
    if (!identity.ok()) return identity.status();
    RecoveryMarker from_start = MarkerOf(*identity, {});
    for (int32_t p = 0; p < options.partitions; ++p) from_start.offsets[p] = 0;
    const Clock::time_point start = Clock::now();
    Status rebuilt = store.Rebuild(from_start);
    const double ms = MsSince(start);
    if (!rebuilt.ok()) {
      return Status(rebuilt.code(), fmt::format("{} rebuild of {}: {}", target.name, topic, rebuilt.message()));
    }
    const StoreStats stats = store.Stats();
    if (stats.records_scanned != static_cast<size_t>(options.rebuild_records) ||
        stats.cached_states != static_cast<size_t>(options.rebuild_records)) {
      return Status(StatusCode::kInternal,
                    fmt::format("{} rebuild of {}: scanned {} records and cached {} states, expected {}", target.name,
                                topic, stats.records_scanned, stats.cached_states, options.rebuild_records));
    }
    const double rate = options.rebuild_records / (ms / 1000.0);
    if (run < 0) {
      result.warmup_rate = rate;
    } else {
      result.rates.push_back(rate);
    }
  }
  return result;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "unknown";
  return fmt::format("{} {} {}", one, five, fifteen);
}

std::string Met(bool met) { return met ? "met" : "MISSED"; }

void AddOptions(CLI::App& app, Options& options, std::string& bootstrap, bool& no_mock) {
  app.add_option("--puts", options.puts, "measured puts per order")->check(CLI::PositiveNumber);
  app.add_option("--warmup", options.warmup, "unmeasured puts per order first")->check(CLI::NonNegativeNumber);
  app.add_option("--rebuild-records", options.rebuild_records, "records written before the rebuild")
      ->check(CLI::PositiveNumber);
  app.add_option("--rebuild-runs", options.rebuild_runs, "measured rebuilds of each log, after one warm-up")
      ->check(CLI::PositiveNumber);
  app.add_option("--partitions", options.partitions, "partitions per topic")->check(CLI::PositiveNumber);
  app.add_option("--bootstrap-servers", bootstrap,
                 "a real broker as well (default: $DURASIM_KAFKA_BOOTSTRAP when set)");
  app.add_option("--fetch-wait-ms", options.fetch_wait_ms, "the reader's fetch.wait.max.ms (RdKafkaConfig)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--no-mock", no_mock, "skip the mock cluster");
  app.add_flag("--in-blocks", options.in_blocks,
               "put latency: all puts of the store's order, then all await-before-flush puts (default: alternate)");
}

// The mock cluster unless `no_mock`, and the real broker at `bootstrap` when
// given. Returns the exit code when there is nothing to measure.
std::optional<int> MakeTargets(bool no_mock, const std::string& bootstrap, std::vector<Target>& targets) {
  // Fresh topic names per run, so a real broker never sees old data.
  const std::string run_id = fmt::format("{}-{}", static_cast<long>(getpid()),
                                         std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
  if (!no_mock) {
    Result<std::unique_ptr<KafkaMockCluster>> cluster = KafkaMockCluster::Start(1);
    if (!cluster.ok()) {
      std::cerr << "mock cluster: " << cluster.status().ToString() << "\n";
      return 1;
    }
    Target mock;
    mock.name = "mock";
    mock.bootstrap_servers = (*cluster)->bootstrap_servers();
    mock.p50_target_ms = 1.0;
    mock.cluster = std::move(*cluster);
    mock.topic_prefix = "bench-" + run_id;
    targets.push_back(std::move(mock));
  }
  if (!bootstrap.empty()) {
    Target real;
    real.name = "kafka";
    real.bootstrap_servers = bootstrap;
    real.p50_target_ms = 2.0;
    real.topic_prefix = "durasim-bench-" + run_id;
    targets.push_back(std::move(real));
  }
  if (targets.empty()) {
    std::cerr << "nothing to measure: --no-mock and no --bootstrap-servers\n";
    return 2;
  }
  return std::nullopt;
}

void PrintHeader(const Options& options) {
  std::cout << fmt::format(
      "put_latency_bench: librdkafka {}, {} hardware threads, load average {}\n"
      "  {} measured puts per order after {} warm-up puts each ({}), {} partitions;\n"
      "  acks=all, idempotent, linger.ms=5 (librdkafka default); state value {} bytes; reader fetch.wait.max.ms {}\n",
      rd_kafka_version_str(), std::thread::hardware_concurrency(), LoadAverage(), options.puts, options.warmup,
      options.in_blocks ? "in blocks: the store's order first" : "the two orders alternate put by put",
      options.partitions, EncodeStateValue(BenchKey("put-flush", 0), BenchState(0)).size(), options.fetch_wait_ms);
}

void PrintLatency(const LatencyResult& latency) {
  std::cout << fmt::format("{:<34} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "put order", "puts", "p50 ms",
                           "p99 ms", "mean ms", "min ms", "max ms");
  for (const auto& [label, s] : {std::pair{"store: produce, flush, await", latency.store_order},
                                 std::pair{"await-before-flush: produce, await", latency.await_first}}) {
    std::cout << fmt::format("{:<34} {:>6} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f}\n", label, s.n, s.p50,
                             s.p99, s.mean, s.min, s.max);
  }
}

void PrintRebuilds(const std::vector<RebuildResult>& rebuilds) {
  std::cout << fmt::format("{:<34} {:>8} {:>10} {:>12} {:>12} {:>12}  {}\n", "rebuild from offset 0, log of",
                           "records", "write s", "median rec/s", "min rec/s", "max rec/s",
                           "(warm-up) runs, rec/s");
  for (const RebuildResult& r : rebuilds) {
    std::vector<double> sorted = r.rates;
    std::sort(sorted.begin(), sorted.end());
    const size_t mid = sorted.size() / 2;
    const double median = sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    std::string runs;
    for (double rate : r.rates) runs += fmt::format("{}{:.0f}", runs.empty() ? "" : " ", rate);
    std::cout << fmt::format("{:<34} {:>8} {:>10.2f} {:>12.0f} {:>12.0f} {:>12.0f}  ({:.0f}) {}\n", r.shape,
                             r.records, r.write_ms / 1000.0, median, sorted.front(),
                             sorted.back(), r.warmup_rate, runs);
  }
}

// Measures and prints one target; counts failed measurements in `errors`.
// Returns the verdict line when the put latency was measured.
std::optional<std::string> MeasureTarget(Target& target, const Options& options, int& errors) {
  std::cout << fmt::format("\n== {} ({}) ==\n", target.name, target.bootstrap_servers);
  Result<LatencyResult> latency = MeasureLatency(target, options);
  if (!latency.ok()) {
    std::cout << "put latency: ERROR " << latency.status().ToString() << "\n";
    ++errors;
  } else {
    PrintLatency(*latency);
  }

  std::vector<RebuildResult> rebuilds;
  for (bool batched : {true, false}) {
    Result<RebuildResult> rebuild = MeasureRebuild(target, options, batched);
    if (!rebuild.ok()) {
      std::cout << "rebuild: ERROR " << rebuild.status().ToString() << "\n";
      ++errors;
      continue;
    }
    rebuilds.push_back(*rebuild);
  }
  if (!rebuilds.empty()) PrintRebuilds(rebuilds);

  if (!latency.ok()) return std::nullopt;
  const double p50 = latency->store_order.p50;
  const double speedup = latency->await_first.p50 / latency->store_order.p50;
  const std::string verdict = fmt::format(
      "verdict {}: store-order put p50 {:.3f} ms <= {:.0f} ms: {}; store order {:.1f}x faster than "
      "await-before-flush at p50 (>= 5x): {}",
      target.name, p50, target.p50_target_ms, Met(p50 <= target.p50_target_ms), speedup, Met(speedup >= 5.0));
  std::cout << verdict << "\n";
  return verdict;
}

}  // namespace
}  // namespace durasim

int main(int argc, char** argv) {
  using namespace durasim;
  CLI::App app{"durasim put latency and rebuild throughput benchmark (librdkafka)"};
  Options options;
  std::string bootstrap;
  bool no_mock = false;
  AddOptions(app, options, bootstrap, no_mock);
  CLI11_PARSE(app, argc, argv);
  if (bootstrap.empty()) {
    if (const char* env = std::getenv("DURASIM_KAFKA_BOOTSTRAP"); env != nullptr) bootstrap = env;
  }
  std::vector<Target> targets;
  if (std::optional<int> exit_code = MakeTargets(no_mock, bootstrap, targets)) return *exit_code;
  PrintHeader(options);

  int errors = 0;
  std::vector<std::string> verdicts;
  for (Target& target : targets) {
    if (std::optional<std::string> verdict = MeasureTarget(target, options, errors)) verdicts.push_back(*verdict);
  }
  if (verdicts.size() > 1) {
    std::cout << "\n";
    for (const std::string& verdict : verdicts) std::cout << verdict << "\n";
  }
  // Missed targets are recorded figures, not failures; errors are failures.
  return errors == 0 ? 0 : 1;
}
