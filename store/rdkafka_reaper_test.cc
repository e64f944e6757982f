// Tests of the background destroyer (rdkafka_reaper.h).
#include "store/rdkafka_reaper.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "store/rdkafka_thread_mask.h"

namespace durasim::rdkafka {
namespace {

// A producer with no broker to reach: librdkafka starts its threads all the
// same, and rd_kafka_thread_cnt counts them until it is destroyed.
rd_kafka_t* IdleProducer() {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[256];
  rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr);  // no "no bootstrap.servers" warning
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  EXPECT_NE(rk, nullptr) << errstr;
  return rk;
}

// Strategy: more handles than may wait at once (so the caller waits for
// room at least once) are handed over; once the drain returns, every one of
// them was destroyed: librdkafka's own count of its threads is back where it
// was before they were made.
TEST(ReaperTest, EveryHandleHandedOverIsDestroyedByTheDrain) {
  const int threads_before = rd_kafka_thread_cnt();
  std::vector<rd_kafka_t*> handles;
  for (int i = 0; i < kPendingDestroysMax + 8; ++i) handles.push_back(IdleProducer());
  ASSERT_GT(rd_kafka_thread_cnt(), threads_before);
  for (rd_kafka_t* rk : handles) DestroyInBackground(rk);
  AwaitBackgroundDestroys();
  EXPECT_EQ(rd_kafka_thread_cnt(), threads_before);
}

// The reaper thread's allowed CPUs as /proc lists them ("1", "0-1"); ""
// when no thread of the process has its name.
std::string ReaperCpus() {
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name != kReaperThreadName) continue;
    std::ifstream status(task.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.starts_with("Cpus_allowed_list:")) return line.substr(line.find_first_not_of(" \t", 18));
    }
  }
  return "";
}

// Strategy: handles handed over from threads pinned to one CPU and then to
// another: after each drain the reaper runs on the last giver's CPU (where
// the handle's threads were), whichever CPU it started on.
TEST(ReaperTest, AHandleIsTornDownOnItsGiversCpu) {
  const std::optional<cpu_set_t> own = CallingThreadMask();
  ASSERT_TRUE(own.has_value());
  const std::vector<int> cpus = CpusOf(*own);
  if (cpus.size() < 2) GTEST_SKIP() << "one CPU: every thread runs on it, nothing to tell apart";
  for (const int cpu : {cpus.front(), cpus.back(), cpus.front()}) {
    std::thread([cpu] {
      ASSERT_TRUE(SetCallingThreadMask(MaskOfCpu(cpu)).ok());
      DestroyInBackground(IdleProducer());
      AwaitBackgroundDestroys();
    }).join();
    EXPECT_EQ(ReaperCpus(), std::to_string(cpu));
  }
}

}  // namespace
}  // namespace durasim::rdkafka
