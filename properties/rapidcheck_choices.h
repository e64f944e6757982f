// RapidcheckChoices: generator decisions drawn from rapidcheck inside a
// property, so rapidcheck records every decision and shrinks the whole
// scenario by shrinking them (towards 0: fewer actions, inputs, attempts,
// faults). REQUIRES: used only inside a rapidcheck property.
#pragma once

#include <rapidcheck.h>

#include "properties/choices.h"
#include "store/check.h"

namespace durasim {

class RapidcheckChoices : public Choices {
 public:
  uint64_t Below(uint64_t bound) override {
    DURASIM_CHECK_GT(bound, 0u);
    const uint64_t value = *rc::gen::inRange<uint64_t>(0, bound);
    DURASIM_CHECK_LT(value, bound);  // inRange's end is exclusive
    return value;
  }
};

}  // namespace durasim
