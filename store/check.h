// Always-on invariant checks, TigerBeetle style: on in every build type,
// NDEBUG or not. A failed check prints to stderr
//
//   model/kafka_log.cc:14: check failed: partition < partitions() (3 vs 2)
//     run: scenario scenarios/fast/crash.yaml, seed 1
//     reproduce: build/durasim run scenarios/fast/crash.yaml
//     simulated time: 12.345ms
//
// and aborts. One check, one fact. Checks are for internal invariants only:
// invalid input (a scenario file, a record read from the log, a flag) stays
// a Status error and never reaches a check.
//
//   DURASIM_CHECK(cond)               cond holds
//   DURASIM_CHECK_MSG(cond, message)  the same, with a message (evaluated
//                                     only when the check fails)
//   DURASIM_CHECK_EQ(a, b), _NE, _LT, _LE, _GT, _GE
//                                     a op b, each evaluated once; the
//                                     values are printed when they are
//                                     numbers or enums
//
// The run context: this floor cannot know the seed, the command that
// reproduces a run or the simulated time, so a higher floor registers
// describers with a CheckContext for as long as they hold (the runner for a
// run, the simulated clock for its life); a failed check prints every live
// one, oldest first.
//
// Thread-safety: the registry is thread_local: a thread sees only the
// contexts it registered itself (the sweep runs seeds on worker threads,
// one run per thread at a time). The registry never reaches a trace or a
// report, so the determinism contract holds.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <type_traits>

#define DURASIM_CHECK(condition) \
  (static_cast<bool>(condition) ? static_cast<void>(0)  \
                                : ::durasim::check_internal::Fail(__FILE__, __LINE__, #condition, {}))

#define DURASIM_CHECK_MSG(condition, message) \
  (static_cast<bool>(condition) ? static_cast<void>(0)  \
                                : ::durasim::check_internal::Fail(__FILE__, __LINE__, #condition, (message)))

// Each operand is evaluated once; the values are printed on failure.
#define DURASIM_CHECK_OP_(a, op, b)                                                          \
  do {                                                                                       \
    const auto& durasim_check_a_ = (a);                                                      \
    const auto& durasim_check_b_ = (b);                                                      \
    if (!(durasim_check_a_ op durasim_check_b_)) {                                           \
      ::durasim::check_internal::Fail(__FILE__, __LINE__, #a " " #op " " #b,                 \
                                      ::durasim::check_internal::Values(durasim_check_a_,    \
                                                                        durasim_check_b_)); \
    }                                                                                        \
  } while (false)

#define DURASIM_CHECK_EQ(a, b) DURASIM_CHECK_OP_(a, ==, b)
#define DURASIM_CHECK_NE(a, b) DURASIM_CHECK_OP_(a, !=, b)
#define DURASIM_CHECK_LT(a, b) DURASIM_CHECK_OP_(a, <, b)
#define DURASIM_CHECK_LE(a, b) DURASIM_CHECK_OP_(a, <=, b)
#define DURASIM_CHECK_GT(a, b) DURASIM_CHECK_OP_(a, >, b)
#define DURASIM_CHECK_GE(a, b) DURASIM_CHECK_OP_(a, >=, b)

namespace durasim {

// Registers `describe` for the life of this object: a failed check prints
// what it returns (one or more lines). Destroyed in any order.
class CheckContext {
 public:
  explicit CheckContext(std::function<std::string()> describe);
  ~CheckContext();
  CheckContext(const CheckContext&) = delete;
  CheckContext& operator=(const CheckContext&) = delete;

  std::string Describe() const { return describe_(); }

 private:
  std::function<std::string()> describe_;
};

// What a failed check would print after its first line now: every live
// context of this thread, each line indented.
std::string DescribeCheckContexts();

namespace check_internal {

// Prints the failure and the run context, then aborts.
[[noreturn]] void Fail(const char* file, int line, const char* expression, std::string_view detail);

// `file` (a __FILE__) relative to the source root, as in "model/kafka_log.cc",
// however the build spelt it.
const char* SourceRelative(const char* file);

template <typename T>
std::string ValueText(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<std::underlying_type_t<T>>(value));
  } else if constexpr (std::is_arithmetic_v<T>) {
    return std::to_string(value);
  } else {
    return "?";
  }
}

// "(a vs b)" for numbers and enums, "" otherwise.
template <typename A, typename B>
std::string Values(const A& a, const B& b) {
  if constexpr ((std::is_arithmetic_v<A> || std::is_enum_v<A>) && (std::is_arithmetic_v<B> || std::is_enum_v<B>)) {
    return "(" + ValueText(a) + " vs " + ValueText(b) + ")";
  } else {
    return "";
  }
}

}  // namespace check_internal
}  // namespace durasim
