// Differential comparison of one scenario run on two backends (the model
// and librdkafka's mock cluster or a real broker): the same verdict, the
// same outputs, the same supplier calls per call identity and the same
// records per partition (key and value, in offset order; offsets themselves
// are normalised away), and last the same trace, event by event: the real
// backends run the model's producer timing (SimulatedLogClient), so their
// story is the model's to the simulated microsecond.
#pragma once

#include <optional>
#include <string>

#include "sim/run/run_report.h"

namespace durasim {

// The first observation in which `other` differs from `model`, or none.
std::optional<std::string> FirstDifference(const RunReport& model, const RunReport& other);

// When `other` differs from `model`, adds a violation of
// Invariant::kDifferential naming the first difference, makes a passing (or
// stuck) verdict a violation, and returns true.
bool MarkDifference(const RunReport& model, RunReport& other);

}  // namespace durasim
