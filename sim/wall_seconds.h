// Wall-clock time in seconds, for the figures commands print (runs a
// second, how long a shrink took) and their time budgets.
//
// Thread-safety: pure functions (and the steady clock's reading).
#pragma once

#include <chrono>

namespace durasim {

inline double WallSeconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Seconds from `start` to now.
inline double WallSecondsSince(std::chrono::steady_clock::time_point start) {
  return WallSeconds(std::chrono::steady_clock::now() - start);
}

}  // namespace durasim
