// Prng: the simulator's own pseudo-random generator (xoshiro256**) and
// distributions. Every random choice of a run comes from one Prng seeded by
// the run's seed; the standard-library distributions are not used because
// their output differs between library implementations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace durasim {

class Prng {
 public:
  explicit Prng(uint64_t seed);

  uint64_t NextU64();
  // Uniform in [0, bound). REQUIRES: bound > 0. Unbiased (rejection).
  uint64_t Below(uint64_t bound);
  // Uniform in [low, high]. REQUIRES: low <= high.
  int64_t Range(int64_t low, int64_t high);
  // True with probability numerator / denominator. REQUIRES: denominator > 0.
  bool Chance(uint64_t numerator, uint64_t denominator);
  // An index drawn with the given non-negative weights. REQUIRES: sum > 0.
  size_t Weighted(const std::vector<uint64_t>& weights);

 private:
  uint64_t state_[4];
};

}  // namespace durasim
