// Simulated time's rendering.
#include "model/sim_time.h"

#include <cstdint>

#include "store/check.h"
#include "store/format.h"

namespace durasim {

void AppendSimTime(SimTime time, std::string& out) {
  const int64_t us = time.count();
  DURASIM_CHECK_GE(us, 0);  // time since the start of a run
  char buffer[32];
  const auto end = fmt::format_to(buffer, "{}.{:03}ms", us / 1000, us % 1000);
  const size_t width = static_cast<size_t>(end - buffer);
  if (width < 12) out.append(12 - width, ' ');
  out.append(buffer, width);
}

std::string FormatSimTime(SimTime time) {
  std::string out;
  AppendSimTime(time, out);
  out.erase(0, out.find_first_not_of(' '));
  return out;
}

}  // namespace durasim
