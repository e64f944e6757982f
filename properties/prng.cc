// Prng implementation: xoshiro256** seeded through SplitMix64.
#include "properties/prng.h"

#include "store/check.h"
#include "store/hash.h"

namespace durasim {
namespace {

constexpr uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Prng::Prng(uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t& word : state_) {
    word = Mix64(x);
    x += 0x9e3779b97f4a7c15ULL;
  }
}

uint64_t Prng::NextU64() {
  const uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = RotateLeft(state_[3], 45);
  return result;
}

uint64_t Prng::Below(uint64_t bound) {
  DURASIM_CHECK_GT(bound, 0u);
  // Reject the top partial block so every residue is equally likely.
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
  uint64_t x = NextU64();
  while (x >= limit) x = NextU64();
  return x % bound;
}

int64_t Prng::Range(int64_t low, int64_t high) {
  DURASIM_CHECK_LE(low, high);
  const uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  if (span == UINT64_MAX) return static_cast<int64_t>(NextU64());
  const int64_t value = static_cast<int64_t>(static_cast<uint64_t>(low) + Below(span + 1));
  DURASIM_CHECK(low <= value && value <= high);  // the unsigned wrap lands back in range
  return value;
}

bool Prng::Chance(uint64_t numerator, uint64_t denominator) {
  DURASIM_CHECK_GT(denominator, 0u);
  return Below(denominator) < numerator;
}

size_t Prng::Weighted(const std::vector<uint64_t>& weights) {
  uint64_t total = 0;
  for (uint64_t w : weights) {
    DURASIM_CHECK_LE(w, UINT64_MAX - total);  // the sum does not wrap
    total += w;
  }
  DURASIM_CHECK_GT(total, 0u);
  uint64_t pick = Below(total);
  for (size_t i = 0; i < weights.size(); ++i) {
    if (pick < weights[i]) return i;
    pick -= weights[i];
  }
  return weights.size() - 1;  // unreachable
}

}  // namespace durasim
