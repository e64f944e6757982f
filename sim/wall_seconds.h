// Wall-clock time in seconds, for the figures commands print (runs a
// second, how long a shrink took).
//
// Thread-safety: a pure function.
#pragma once

#include <chrono>

namespace durasim {

inline double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace durasim
