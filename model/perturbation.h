// Perturbation: what one perturbed schedule of a scenario varies
// (`durasim run --perturb N`, docs/scenarios.md "Perturbed schedules").
//
// FoundationDB runs one test spec under many seeds; durasim runs one
// hand-written script under seeds derived from its `seed:`. A perturbed run
// draws every latency the script leaves open (each linger, each
// acknowledgement and each supplier call takes a value in its declared
// range, `{min, max}`), and timers due at the same simulated instant fire in
// a seeded order instead of FIFO. What the script fixes does not move: its
// steps and their order, a fixed latency, and the place of its own `run_ms`
// wake-up among same-time timers (Scheduler::AsyncSleepInScriptOrder).
// Handlers made ready by one another keep their order (causality, the
// mailbox's FIFO): only timers are permuted.
//
// Deterministic: every draw is a pure function of the seed, the attempt and
// how many draws came before it.
//
// Thread-safety: none; one per Scheduler.
#pragma once

#include <cstdint>
#include <optional>

namespace durasim {

struct Scenario;

class Perturbation {
 public:
  // The draws of attempt `attempt` (1-based; the run without faults is
  // attempt 1 too) of a run perturbed with `perturb_seed`.
  Perturbation(uint64_t perturb_seed, int attempt);

  // A latency in [min, max], each value about equally likely; `min` when
  // `max` is none or not above it (a fixed latency draws nothing).
  int64_t DrawMs(int64_t min, std::optional<int64_t> max);
  // The rank of the timer armed with `sequence` among timers due at the same
  // instant: a seeded permutation of the sequence numbers.
  uint64_t TieRank(uint64_t sequence) const;

  uint64_t draws() const { return draws_; }

 private:
  uint64_t draw_stream_;
  uint64_t tie_stream_;
  uint64_t draws_ = 0;
};

// The perturb seed of schedule `index` (0-based) of `durasim run --perturb N`
// for a scenario whose `seed:` is `scenario_seed`.
uint64_t PerturbedSeed(uint64_t scenario_seed, uint64_t index);

// The perturbation of attempt `attempt` of `scenario`: none unless the
// scenario runs a perturbed schedule (Scenario::perturb_seed).
std::optional<Perturbation> PerturbationOf(const Scenario& scenario, int attempt);

// The longest acknowledgement latency a put of `scenario` can see with the
// broker up: the range's maximum on a perturbed schedule, else the fixed
// latency (the put-latency bound).
int64_t AckLatencyMsMax(const Scenario& scenario);

}  // namespace durasim
