// Mutant: a known-buggy variant of the store or the runtime, selected by
// name, that the harness must catch. Mutants live here, outside the
// production code, as derived variants or wrappers.
#pragma once

#include <algorithm>
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
  // The store designs whose hazard it is (empty: every design). On another
  // design it is not applied (PartsWith runs the production parts), so the
  // kill matrix runs it on one of these. A mutant of KafkaActionStateStore
  // is a hazard of the Kafka designs; fluss's of FlussActionStateStore.
  std::vector<StoreDesign> designs = {};
  // Where a design changes which invariant sees the mutant (its hazard
  // shows differently there); elsewhere expected_invariant.
  std::map<StoreDesign, Invariant> expected_on = {};

  bool AppliesTo(StoreDesign design) const {
    return designs.empty() || std::find(designs.begin(), designs.end(), design) != designs.end();
  }
  // Whether it is a hazard of only some designs.
  bool DesignSpecific() const { return !designs.empty(); }

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

// The production parts with `mutant`'s replacements, for a run of store
// design `design` (none, or a mutant that does not apply to `design`:
// ProductionParts()).
AttemptParts PartsWith(const Mutant* mutant, StoreDesign design);

// Why `mutant` does not run on `design` ("mutant \"x\" is a hazard of store
// design a, b, not of c"), or none when it applies to it.
std::optional<std::string> WhyNotOn(const Mutant& mutant, StoreDesign design);

// The designs a seed of a sweep with mutant `name` may draw: those it
// applies to (none, or a mutant of every design: empty, every design).
std::vector<StoreDesign> DrawableDesigns(const std::optional<std::string>& name);

// The Kafka designs, those KafkaActionStateStore builds.
const std::vector<StoreDesign>& KafkaDesigns();

}  // namespace durasim
