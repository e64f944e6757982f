// InvariantChecker implementation.
#include "properties/invariant_checker.h"

#include <algorithm>

#include "store/check.h"
#include "store/format.h"

namespace durasim {

void InvariantChecker::Violate(Invariant invariant, const std::string& message,
                               std::vector<size_t> evidence) {
  DURASIM_CHECK(!message.empty());  // a violation says what broke
  // One report per invariant and message is enough; keep the first.
  for (const Violation& v : violations_) {
    if (v.invariant == invariant && v.message == message) return;
  }
  std::string text = message;
  std::erase_if(evidence, [this](size_t index) { return index >= trace_.size(); });
  for (size_t index : evidence) {
    text += fmt::format("\n    #{} {}", index, trace_.line(index));
  }
  violations_.push_back(Violation{invariant, std::move(text), std::move(evidence)});
}

std::vector<Invariant> InvariantsOf(const std::vector<Violation>& violations) {
  std::vector<Invariant> invariants;
  for (const Violation& v : violations) {
    if (std::find(invariants.begin(), invariants.end(), v.invariant) == invariants.end()) {
      invariants.push_back(v.invariant);
    }
  }
  return invariants;
}

}  // namespace durasim
