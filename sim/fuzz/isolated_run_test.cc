// IsolatedRun tests: a crash, an exit without an answer, a hang and a
// memory blowup in the child are each seen from outside, with the child's
// stderr; an answer comes back intact.
#include "sim/fuzz/isolated_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

namespace durasim {
namespace {

// One file per test and process: ctest runs the cases of this binary side
// by side, and two children writing one file mixed their stderr.
std::string StderrPath() {
  return ::testing::TempDir() + "/isolated_run_stderr_" +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + std::to_string(getpid()) + ".txt";
}

TEST(IsolatedRun, AnAnswerComesBack) {
  const IsolatedResult run =
      RunIsolated([] { return TargetResult{"parse-error", std::string("why\nnot")}; }, {}, StderrPath());
  EXPECT_EQ(run.kind, IsolatedResult::Kind::kDone);
  EXPECT_EQ(run.result.outcome, "parse-error");
  EXPECT_EQ(run.result.problem, "why\nnot");
}

TEST(IsolatedRun, AnAbortIsACrashWithItsStderr) {
  const IsolatedResult run = RunIsolated(
      []() -> TargetResult {
        std::cerr << "check failed: planted" << std::endl;
        std::abort();
      },
      {}, StderrPath());
  EXPECT_EQ(run.kind, IsolatedResult::Kind::kCrash);
  EXPECT_EQ(run.signal, SIGABRT);
  EXPECT_NE(run.stderr_text.find("check failed: planted"), std::string::npos) << run.stderr_text;
}

TEST(IsolatedRun, AnExitWithoutAnAnswerIsACrash) {
  for (int code : {0, 1, 5}) {
    const IsolatedResult run = RunIsolated([code]() -> TargetResult { std::_Exit(code); }, {}, StderrPath());
    EXPECT_EQ(run.kind, IsolatedResult::Kind::kCrash) << code;
    EXPECT_EQ(run.exit_code, code);
  }
}

TEST(IsolatedRun, AHangIsKilledAtTheTimeout) {
  IsolationLimits limits;
  limits.timeout_ms = 200;
  const IsolatedResult run = RunIsolated(
      []() -> TargetResult {
        volatile bool forever = true;
        while (forever) {
        }
        return {};
      },
      limits, StderrPath());
  EXPECT_EQ(run.kind, IsolatedResult::Kind::kTimeout);
  EXPECT_GE(run.wall_ms, 200);
  EXPECT_LT(run.wall_ms, 5000);
}

TEST(IsolatedRun, AMemoryBlowupIsKilledAtTheBound) {
  IsolationLimits limits;
  limits.memory_mb = 64;
  limits.timeout_ms = 20000;
  const IsolatedResult run = RunIsolated(
      []() -> TargetResult {
        std::vector<char*> blocks;
        while (true) {
          char* block = static_cast<char*>(std::malloc(1 << 20));
          std::memset(block, 1, 1 << 20);
          blocks.push_back(block);
        }
        return {};
      },
      limits, StderrPath());
  EXPECT_EQ(run.kind, IsolatedResult::Kind::kMemory);
  EXPECT_GT(run.peak_rss_mb, 64);
}

TEST(IsolatedRun, StderrKeepsItsHeadAndTail) {
  const IsolatedResult run = RunIsolated(
      []() -> TargetResult {
        std::cerr << "first line\n" << std::string(100'000, 'x') << "\nlast line" << std::flush;
        return {"done", ""};
      },
      {}, StderrPath());
  EXPECT_TRUE(run.stderr_head.starts_with("first line\n"));
  EXPECT_LE(run.stderr_head.size(), 8192u);
  EXPECT_TRUE(run.stderr_text.ends_with("last line"));
}

TEST(IsolatedRun, AProgramsExitCodeComesBack) {
  const IsolatedResult run = RunProgram({"/bin/sh", "-c", "echo oops >&2; exit 3"}, {}, StderrPath());
  EXPECT_EQ(run.kind, IsolatedResult::Kind::kDone);
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.stderr_text.find("oops"), std::string::npos);
}

}  // namespace
}  // namespace durasim
