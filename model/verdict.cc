// The verdict table and the mapping between verdicts and expectations.
#include "model/verdict.h"

#include <algorithm>

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return EnumInfo{"pass", "every invariant holds"};
    case Verdict::kViolation: return EnumInfo{"violation", "an invariant checker fired"};
    case Verdict::kStuck: return EnumInfo{"stuck", "an attempt made no progress within its simulated-time bound"};
    case Verdict::kError: return EnumInfo{"error", "the scenario asked for something impossible, or an internal error"};
    case Verdict::kInfra:
      return EnumInfo{"infra", "the run's broker or connection failed in a way the harness did not inject: not judged"};
  }
  return std::nullopt;
}

const char* ExpectedVerdict::name() const {
  switch (kind_) {
    case Kind::kPass: return NameOf(Verdict::kPass);
    case Kind::kError: return NameOf(Verdict::kError);
    case Kind::kViolated: return NameOf(invariant_);
  }
  return NameOf(Verdict::kError);
}

namespace {

// In the order error messages list them.
std::vector<ExpectedVerdict> ScenarioExpectations() {
  std::vector<ExpectedVerdict> all = {ExpectedVerdict::Pass(), ExpectedVerdict::Error()};
  for (Invariant invariant : AllOf<Invariant>()) {
    if (ExpectableInScenario(invariant)) all.push_back(ExpectedVerdict::Violated(invariant));
  }
  return all;
}

}  // namespace

std::optional<ExpectedVerdict> ParseExpectedVerdict(std::string_view name) {
  for (const ExpectedVerdict& expected : ScenarioExpectations()) {
    if (name == expected.name()) return expected;
  }
  return std::nullopt;
}

std::string ExpectedVerdictNames() {
  std::string out;
  for (const ExpectedVerdict& expected : ScenarioExpectations()) {
    if (!out.empty()) out += ", ";
    out += expected.name();
  }
  return out;
}

bool Shows(Verdict verdict, const std::vector<Invariant>& violated, ExpectedVerdict expected) {
  switch (expected.kind()) {
    case ExpectedVerdict::Kind::kPass: return verdict == Verdict::kPass;
    case ExpectedVerdict::Kind::kError: return verdict == Verdict::kError;
    case ExpectedVerdict::Kind::kViolated:
      // Liveness shows as a stuck attempt, or as a violation naming an input
      // the last attempt left unfinished.
      if (expected.invariant() == Invariant::kLiveness && verdict == Verdict::kStuck) return true;
      return verdict == Verdict::kViolation &&
             std::find(violated.begin(), violated.end(), expected.invariant()) != violated.end();
  }
  return false;
}

ExpectedVerdict FiledUnder(Verdict verdict, const std::vector<Invariant>& violated) {
  switch (verdict) {
    case Verdict::kPass: return ExpectedVerdict::Pass();
    case Verdict::kStuck: return ExpectedVerdict::Violated(Invariant::kLiveness);
    case Verdict::kError: return ExpectedVerdict::Error();
    case Verdict::kInfra: return ExpectedVerdict::Error();  // never filed: see the header
    case Verdict::kViolation:
      // Liveness comes last: a run that left inputs unfinished and also
      // broke another invariant is filed under the other one.
      for (Invariant invariant : violated) {
        if (invariant != Invariant::kLiveness) return ExpectedVerdict::Violated(invariant);
      }
      if (!violated.empty()) return ExpectedVerdict::Violated(Invariant::kLiveness);
      return ExpectedVerdict::Error();
  }
  return ExpectedVerdict::Error();
}

}  // namespace durasim
