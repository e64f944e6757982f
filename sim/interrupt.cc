// Interrupt implementation: one lock-free atomic, set by the handler.
#include "sim/interrupt.h"

#include <atomic>
#include <csignal>

#include "model/abandon.h"
#include "store/rdkafka_config.h"
#include "store/check.h"

namespace durasim {
namespace {

std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch a lock-free atomic");

extern "C" void OnSignal(int signal) {
  int none = 0;
  received.compare_exchange_strong(none, signal);
  // SA_RESETHAND reset only this signal: the other one must kill at once
  // too (sigaction is async-signal-safe).
  struct sigaction fallback = {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal == SIGINT ? SIGTERM : SIGINT, &fallback, nullptr);
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction action = {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // A run in progress stops too, within a millisecond or so, not judged;
  // a call to a broker in progress within a quarter second.
  SetAbandonSource(&Interrupted);
  SetRdKafkaInterruptSource(&Interrupted);
}

bool Interrupted() { return received.load() != 0; }
int InterruptSignal() { return received.load(); }
int InterruptExitCode() {
  const int signal = received.load();
  DURASIM_CHECK_NE(signal, 0);  // REQUIRES: Interrupted(); 128 alone is no signal's exit code
  return 128 + signal;
}

const char* InterruptName() {
  switch (received.load()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

void RequestInterrupt(int signal) { OnSignal(signal); }

}  // namespace durasim
