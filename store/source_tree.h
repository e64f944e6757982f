// Where the project's source tree is, for the tests and tools that read its
// files (scenarios/, docs/, the fuzzer's corpus). The build gives each such
// program the path from its own folder to the source tree,
// DURASIM_SOURCE_FROM_BINARY ("../../.." for a test in build/sim/run). It is
// relative so that every clone compiles these files to the same bytes and
// ccache serves a clean clone (CI's) what another clone compiled; an
// absolute path made each of them a cache miss. It is resolved against the
// running program's own location, so any working directory will do.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

#ifndef DURASIM_SOURCE_FROM_BINARY
#error "built without DURASIM_SOURCE_FROM_BINARY (cmake/durasim_helpers.cmake gives it to tests and programs)"
#endif

namespace durasim {

// The source tree's path; "." (the working directory) when the running
// program's location cannot be read.
inline std::string SourceTree() {
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return ".";
  return (program.parent_path() / DURASIM_SOURCE_FROM_BINARY).lexically_normal().string();
}

}  // namespace durasim
