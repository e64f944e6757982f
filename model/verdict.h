// Verdict: how a run ended (pass, violation, stuck, error, infra), and the
// one mapping between verdicts and what a scenario expects of a run.
//
// A scenario's `expect: verdict:` (ExpectedVerdict) is `pass`, `error`, or
// the name of an invariant that must be violated; `liveness` stands for the
// verdict stuck. The sweep files each failure under an ExpectedVerdict too
// (its failure file expects it; the shrinker keeps what still shows it), so
// the file it writes reproduces with `durasim run`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/enum_table.h"
#include "model/invariant.h"

namespace durasim {

enum class Verdict {
  kPass,       // every invariant holds
  kViolation,  // a checker fired
  kStuck,      // an attempt made no progress within its bound (liveness)
  kError,      // the scenario asked for the impossible, or an internal error
  // The run's infrastructure failed (a broker gone, a timeout, a refused
  // connection: docs/backends.md), which the harness did not inject: the
  // store is not judged. No scenario can expect it, no sweep files it.
  kInfra,
};

std::optional<EnumInfo> EnumInfoOf(Verdict verdict);

class ExpectedVerdict {
 public:
  enum class Kind { kPass, kError, kViolated };

  // pass
  ExpectedVerdict() = default;
  static ExpectedVerdict Pass() { return ExpectedVerdict(); }
  static ExpectedVerdict Error() { return ExpectedVerdict(Kind::kError, Invariant::kOnce); }
  static ExpectedVerdict Violated(Invariant invariant) { return ExpectedVerdict(Kind::kViolated, invariant); }

  Kind kind() const { return kind_; }
  // REQUIRES: kind() == Kind::kViolated.
  Invariant invariant() const {
    DURASIM_CHECK(kind_ == Kind::kViolated);
    return invariant_;
  }
  bool IsViolated(Invariant invariant) const { return kind_ == Kind::kViolated && invariant_ == invariant; }

  // "pass", "error" or the invariant's name.
  const char* name() const;

  friend bool operator==(const ExpectedVerdict& a, const ExpectedVerdict& b) {
    return a.kind_ == b.kind_ && (a.kind_ != Kind::kViolated || a.invariant_ == b.invariant_);
  }

 private:
  ExpectedVerdict(Kind kind, Invariant invariant) : kind_(kind), invariant_(invariant) {}

  Kind kind_ = Kind::kPass;
  Invariant invariant_ = Invariant::kOnce;
};

// The expectation a scenario file names: pass, error, or an invariant a
// scenario may expect (ExpectableInScenario); none for anything else.
std::optional<ExpectedVerdict> ParseExpectedVerdict(std::string_view name);
// Every name ParseExpectedVerdict accepts, for error messages: "pass, error, once, ...".
std::string ExpectedVerdictNames();

// Whether a run that ended with `verdict`, having violated `violated`,
// shows `expected`: pass and error are those verdicts, liveness is stuck,
// any other invariant is a violation of it. Infra shows nothing.
bool Shows(Verdict verdict, const std::vector<Invariant>& violated, ExpectedVerdict expected);

// What such a run is filed under: pass, error, liveness when stuck, else
// the first invariant it violated. An infra run is never filed (callers
// check the verdict first); it maps to error only so the switch is total.
ExpectedVerdict FiledUnder(Verdict verdict, const std::vector<Invariant>& violated);

}  // namespace durasim
