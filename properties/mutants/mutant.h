// Mutant: a known-buggy variant of the store or the runtime, selected by
// name, that the harness must catch. Mutants live here, outside the
// production code, as derived variants or wrappers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/invariant.h"
#include "model/parts.h"
#include "store/store_design.h"

namespace durasim {

struct Mutant {
  std::string name;
  std::string description;
  std::string origin;              // the real-world bug it comes from
  Invariant expected_invariant;    // the invariant expected to catch it
  StoreFactory make_store;         // empty: the production store
  RuntimeFactory make_runtime;     // empty: the production runtime
  // The store design whose hazard it is: on another design it changes
  // nothing, so the kill matrix runs it on this one. None: every design.
  std::optional<StoreDesign> design = std::nullopt;
  // Where a design changes which invariant sees the mutant (its hazard
  // shows differently there); elsewhere expected_invariant.
  std::map<StoreDesign, Invariant> expected_on = {};

  // The invariant expected to catch it on `design` (none: seeds draw theirs).
  Invariant ExpectedOn(std::optional<StoreDesign> design) const {
    if (design) {
      if (auto it = expected_on.find(*design); it != expected_on.end()) return it->second;
    }
    return expected_invariant;
  }
};

// Every registered mutant, in registration order.
const std::vector<Mutant>& AllMutants();
// nullptr when no mutant has that name.
const Mutant* FindMutant(const std::string& name);

// The production parts with `mutant`'s replacements (none: ProductionParts()).
AttemptParts PartsWith(const Mutant* mutant);

}  // namespace durasim
