// Perturbation implementation: two streams of SplitMix64 over the seed, one
// for latency draws, one for the ranks of same-time timers.
#include "model/perturbation.h"

#include "model/scenario.h"
#include "store/check.h"
#include "store/hash.h"

namespace durasim {

Perturbation::Perturbation(uint64_t perturb_seed, int attempt) {
  const uint64_t base = HashCombine(HashCombine(HashString("perturb"), perturb_seed), static_cast<uint64_t>(attempt));
  draw_stream_ = HashCombine(base, 1);
  tie_stream_ = HashCombine(base, 2);
}

int64_t Perturbation::DrawMs(int64_t min, std::optional<int64_t> max) {
  DURASIM_CHECK_GE(min, 0);
  if (!max.has_value() || *max <= min) return min;
  const uint64_t span = static_cast<uint64_t>(*max - min) + 1;
  // The parser bounds latencies to a day, so the modulo's bias (span / 2^64)
  // is far below anything a run could show.
  const uint64_t drawn = HashCombine(draw_stream_, draws_++) % span;
  return min + static_cast<int64_t>(drawn);
}

uint64_t Perturbation::TieRank(uint64_t sequence) const { return HashCombine(tie_stream_, sequence); }

uint64_t PerturbedSeed(uint64_t scenario_seed, uint64_t index) {
  return HashCombine(HashCombine(HashString("perturbed schedule"), scenario_seed), index);
}

std::optional<Perturbation> PerturbationOf(const Scenario& scenario, int attempt) {
  if (!scenario.perturb_seed.has_value()) return std::nullopt;
  return Perturbation(*scenario.perturb_seed, attempt);
}

int64_t AckLatencyMsMax(const Scenario& scenario) {
  const LogConfig& log = scenario.log;
  if (!scenario.perturb_seed.has_value() || !log.ack_latency_ms_max.has_value()) return log.ack_latency_ms;
  return std::max(log.ack_latency_ms, *log.ack_latency_ms_max);
}

}  // namespace durasim
