// Output file implementation: POSIX open/write/fsync/rename, each checked.
#include "sim/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

std::string Reason(int error) { return std::strerror(error); }

// Writes every byte of `contents` to `fd`, retrying short writes.
bool WriteAll(int fd, const std::string& contents, int& error) {
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = errno;
      return false;
    }
    done += static_cast<size_t>(n);
    DURASIM_CHECK_LE(done, contents.size());  // write(2) writes at most what it is given
  }
  return true;
}

// Makes a rename in `folder` durable: the folder's entry is only on disk
// once the folder itself is fsynced (a crash after rename(2) alone may leave
// the old file, or none). Returns 0 or the errno of the step that failed.
int SyncFolder(const std::filesystem::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  int error = 0;
  if (::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  return error;
}

}  // namespace

Status WriteFile(const std::string& path, const std::string& contents) {
  const std::filesystem::path target(path);
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string pattern = (folder / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    return Status(StatusCode::kInvalidArgument, fmt::format("cannot write {}: {}", path, Reason(errno)));
  }
  const std::string temporary(name.data());
  DURASIM_CHECK_NE(temporary, path);  // the rename below replaces the target, never itself
  int error = 0;
  bool ok = WriteAll(fd, contents, error);
  if (ok && ::fsync(fd) != 0) {
    ok = false;
    error = errno;
  }
  // mkstemp creates the file 0600; an output file is as readable as any.
  if (ok && ::fchmod(fd, 0644) != 0) {
    ok = false;
    error = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && ::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    error = errno;
  }
  if (!ok) {
    DURASIM_CHECK_NE(error, 0);  // every failed step keeps its errno: the message names a reason
    ::unlink(temporary.c_str());
    return Status(StatusCode::kInternal, fmt::format("writing {} failed: {}", path, Reason(error)));
  }
  // The file is in place under its name; only its durability can still fail.
  if (const int synced = SyncFolder(folder); synced != 0) {
    return Status(StatusCode::kInternal,
                  fmt::format("writing {} failed: fsync of its folder {}: {}", path, folder.string(), Reason(synced)));
  }
  return Status::Ok();
}

Status WriteFileCreatingFolder(const std::string& path, const std::string& contents) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) {
      return Status(StatusCode::kInvalidArgument,
                    fmt::format("cannot write {}: cannot create {}: {}", path, folder.string(), error.message()));
    }
  }
  return WriteFile(path, contents);
}

}  // namespace durasim
