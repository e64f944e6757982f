// Simulated time: a duration since the start of a run, exact to the
// microsecond, and the way traces and messages write it. Shared by the
// scheduler (which moves the clock) and the trace (which stamps events).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace durasim {

// Simulated time since the start of a run.
using SimDuration = std::chrono::microseconds;
using SimTime = std::chrono::microseconds;

// `ms` milliseconds as a simulated duration (scenario files and configs
// give durations in milliseconds).
inline SimDuration Ms(int64_t ms) { return std::chrono::duration_cast<SimDuration>(std::chrono::milliseconds(ms)); }

// "<ms>.<us3>ms" into `out`, right-aligned to 12 characters (trace lines).
// REQUIRES: time >= 0.
void AppendSimTime(SimTime time, std::string& out);
// "12.345ms" style rendering of a simulated time, exact to the microsecond.
std::string FormatSimTime(SimTime time);

}  // namespace durasim
