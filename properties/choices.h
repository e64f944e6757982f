// Choices: where a generator's random decisions come from. Explore draws
// them from the seeded Prng; the rapidcheck properties draw them from
// rapidcheck, which records and shrinks every decision. One generator serves
// both.
#pragma once

#include <cstdint>
#include <vector>

#include "properties/prng.h"
#include "store/check.h"

namespace durasim {

class Choices {
 public:
  virtual ~Choices() = default;
  // Uniform in [0, bound). REQUIRES: bound > 0.
  virtual uint64_t Below(uint64_t bound) = 0;

  // Uniform in [low, high]. REQUIRES: low <= high.
  int64_t Range(int64_t low, int64_t high) {
    DURASIM_CHECK_LE(low, high);
    const int64_t value = low + static_cast<int64_t>(Below(static_cast<uint64_t>(high - low) + 1));
    DURASIM_CHECK(low <= value && value <= high);
    return value;
  }
  // True with probability percent / 100. Shrinks towards false.
  // REQUIRES: percent <= 100.
  bool Percent(uint64_t percent) {
    DURASIM_CHECK_LE(percent, 100u);  // past 100, 100 - percent wraps and it is never true
    return Below(100) >= 100 - percent;
  }
  // An index drawn with the given weights. Shrinks towards index 0.
  size_t Weighted(const std::vector<uint64_t>& weights) {
    uint64_t total = 0;
    for (uint64_t w : weights) {
      DURASIM_CHECK_LE(w, UINT64_MAX - total);  // the sum does not wrap
      total += w;
    }
    uint64_t pick = Below(total);  // Below checks total > 0
    for (size_t i = 0; i < weights.size(); ++i) {
      if (pick < weights[i]) return i;
      pick -= weights[i];
    }
    return weights.size() - 1;
  }
};

class PrngChoices : public Choices {
 public:
  explicit PrngChoices(uint64_t seed) : prng_(seed) {}
  uint64_t Below(uint64_t bound) override { return prng_.Below(bound); }

 private:
  Prng prng_;
};

}  // namespace durasim
