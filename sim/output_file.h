// Output files: every file a command writes (failure files, JSON and JUnit
// reports, shrunk scenarios) is written atomically: into a temporary file in
// the same folder, flushed and fsynced, then renamed over the target, and
// the folder fsynced so that the rename survives a crash. A reader never
// sees half a file, a full disk never leaves an empty or
// truncated one under the target's name, and every step is checked.
#pragma once

#include <string>

#include "store/status.h"

namespace durasim {

// Writes `contents` to `path` atomically. Errors: kInvalidArgument (the
// folder or the temporary file cannot be created) or kInternal (a write,
// fsync or rename failed), each naming `path` and the system's reason; the
// temporary file is removed and `path` keeps what it held before. Only a
// failed fsync of the folder comes after the rename: `path` then holds the
// new contents, not known to be durable, and the error says so.
[[nodiscard]] Status WriteFile(const std::string& path, const std::string& contents);

// The same, creating `path`'s folder (and its parents) first.
[[nodiscard]] Status WriteFileCreatingFolder(const std::string& path, const std::string& contents);

}  // namespace durasim
