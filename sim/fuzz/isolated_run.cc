// Fork, watch, kill.
#include "sim/fuzz/isolated_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>

#include "store/check.h"

namespace durasim {
namespace {

constexpr std::string_view kEnd = std::string_view("\0END", 4);

// The child's resident set in MiB, from /proc (0 when it is gone).
int64_t ResidentMb(pid_t pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  int64_t size = 0;
  int64_t resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<int64_t>(sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

std::string Head(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string head(bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(bytes));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

std::string Tail(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  if (all.size() > bytes) all = "[...]" + all.substr(all.size() - bytes);
  return all;
}

void WriteAll(int fd, const std::string& data) {
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = write(fd, data.data() + written, data.size() - written);
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

// In the forked child: stderr on `stderr_path`, stdout on /dev/null, then
// `child` with the pipe's write end.
[[noreturn]] void RunChild(const std::function<void(int)>& child, const int fds[2], const std::string& stderr_path) {
  close(fds[0]);
  const int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (err >= 0) {
    dup2(err, STDERR_FILENO);
    close(err);
  }
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    close(null);
  }
  child(fds[1]);
  _exit(0);
}

// Reads the child's pipe `fd` into `received` to its end, watching the
// bounds; kills the child past one (out.kind says which) and returns
// whether it did.
bool ReadWithinBounds(int fd, pid_t pid, std::chrono::steady_clock::time_point start, const IsolationLimits& limits,
                      std::string& received, IsolatedResult& out) {
  char buffer[4096];
  while (true) {
    pollfd poll_fd{fd, POLLIN, 0};
    const int ready = poll(&poll_fd, 1, 20);
    if (ready > 0) {
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n <= 0) return false;  // the child is gone (or closed the pipe)
      received.append(buffer, static_cast<size_t>(n));
      continue;
    }
    const int64_t elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    const int64_t resident = ResidentMb(pid);
    out.peak_rss_mb = std::max(out.peak_rss_mb, resident);
    if (limits.stop_requested != nullptr && limits.stop_requested()) {
      out.kind = IsolatedResult::Kind::kStopped;
      kill(pid, SIGKILL);
      return true;
    }
    if (elapsed > limits.timeout_ms) {
      out.kind = IsolatedResult::Kind::kTimeout;
      kill(pid, SIGKILL);
      return true;
    }
    if (resident > limits.memory_mb) {
      out.kind = IsolatedResult::Kind::kMemory;
      kill(pid, SIGKILL);
      return true;
    }
  }
}

// The result of a child that exited with `status` on its own, having
// written `received`: done with its answer, or a crash.
void JudgeExit(int status, std::string received, IsolatedResult& out) {
  out.kind = IsolatedResult::Kind::kCrash;
  if (WIFEXITED(status) && out.exit_code == 0 && received.size() >= kEnd.size() &&
      std::string_view(received).substr(received.size() - kEnd.size()) == kEnd) {
    received.resize(received.size() - kEnd.size());
    const size_t separator = received.find('\0');
    out.kind = IsolatedResult::Kind::kDone;
    out.result.outcome = received.substr(0, separator);
    if (separator != std::string::npos) out.result.problem = received.substr(separator + 1);
  } else if (WIFEXITED(status) && received.empty()) {
    // A program run (RunProgram) writes nothing: its exit is its result.
    out.kind = IsolatedResult::Kind::kDone;
  }
}

// Forks; the child runs `child` (which never returns) with stderr on
// `stderr_path` and the pipe's write end as its argument. The parent reads
// the pipe to its end (the child's exit closes it), watching the bounds.
IsolatedResult Watch(const std::function<void(int)>& child, const IsolationLimits& limits,
                     const std::string& stderr_path) {
  IsolatedResult out;
  int fds[2];
  if (pipe(fds) != 0) {
    out.kind = IsolatedResult::Kind::kCrash;
    out.stderr_text = "fuzz: pipe() failed";
    return out;
  }
  std::cout.flush();
  std::cerr.flush();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    out.kind = IsolatedResult::Kind::kCrash;
    out.stderr_text = "fuzz: fork() failed";
    return out;
  }
  if (pid == 0) RunChild(child, fds, stderr_path);
  close(fds[1]);
  std::string received;
  const bool killed = ReadWithinBounds(fds[0], pid, start, limits, received, out);
  // Only a bound kills the child, and it names itself.
  DURASIM_CHECK(!killed || out.kind == IsolatedResult::Kind::kTimeout || out.kind == IsolatedResult::Kind::kMemory ||
                out.kind == IsolatedResult::Kind::kStopped);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.wall_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  DURASIM_CHECK_GE(out.wall_ms, 0);  // the steady clock does not go back
  out.stderr_text = Tail(stderr_path, 8192);
  out.stderr_head = Head(stderr_path, 8192);
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  if (!killed) JudgeExit(status, std::move(received), out);
  return out;
}

}  // namespace

const char* IsolatedKindName(IsolatedResult::Kind kind) {
  switch (kind) {
    case IsolatedResult::Kind::kDone: return "done";
    case IsolatedResult::Kind::kCrash: return "crash";
    case IsolatedResult::Kind::kTimeout: return "timeout";
    case IsolatedResult::Kind::kMemory: return "memory";
    case IsolatedResult::Kind::kStopped: return "stopped";
  }
  return "unknown";
}

IsolatedResult RunIsolated(const std::function<TargetResult()>& body, const IsolationLimits& limits,
                           const std::string& stderr_path) {
  IsolatedResult out = Watch(
      [&](int result_fd) {
        const TargetResult result = body();
        WriteAll(result_fd, result.outcome + std::string(1, '\0') + result.problem + std::string(kEnd));
        close(result_fd);
        // No exit handlers: the parent judges leaks nowhere, and a
        // half-written stdout buffer is not flushed twice.
        _exit(0);
      },
      limits, stderr_path);
  // A body that exited with 0 but never wrote its result (exit() from
  // inside the code under test) is a crash, not a result.
  if (out.kind == IsolatedResult::Kind::kDone && out.result.outcome.empty()) {
    out.kind = IsolatedResult::Kind::kCrash;
  }
  return out;
}

IsolatedResult RunProgram(const std::vector<std::string>& argv, const IsolationLimits& limits,
                          const std::string& stderr_path) {
  return Watch(
      [&](int /*result_fd*/) {
        // The pipe's write end stays open across exec (no O_CLOEXEC): the
        // parent sees its end when the program exits.
        std::vector<char*> args;
        for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
      },
      limits, stderr_path);
}

}  // namespace durasim
