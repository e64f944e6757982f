// Mutant: a known-buggy variant of the store or the runtime, selected by
// name, that the harness must catch. Mutants live here, outside the
// production code, as derived variants or wrappers.
#pragma once

#include <string>
#include <vector>

#include "model/invariant.h"
#include "model/parts.h"

namespace durasim {

struct Mutant {
  std::string name;
  std::string description;
  std::string origin;              // the real-world bug it comes from
  Invariant expected_invariant;    // the invariant expected to catch it
  StoreFactory make_store;         // empty: the production store
  RuntimeFactory make_runtime;     // empty: the production runtime
};

// Every registered mutant, in registration order.
const std::vector<Mutant>& AllMutants();
// nullptr when no mutant has that name.
const Mutant* FindMutant(const std::string& name);

// The production parts with `mutant`'s replacements (none: ProductionParts()).
AttemptParts PartsWith(const Mutant* mutant);

}  // namespace durasim
