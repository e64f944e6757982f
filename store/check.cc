// Failed checks and the thread's run-context registry.
#include "store/check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace durasim {
namespace {

// This thread's live contexts, oldest first.
std::vector<const CheckContext*>& Contexts() {
  thread_local std::vector<const CheckContext*> contexts;
  return contexts;
}

// A context that fails a check itself must not recurse.
thread_local bool failing = false;

// `file` relative to the source root, as in "model/kafka_log.cc". __FILE__
// is spelt as the build gave it: often absolute (this file's own spelling
// tells where the root is), and a header through its floor's include root
// (build/floors/<floor>/<floor>/...).
const char* SourceRelative(const char* file) {
  static constexpr std::string_view kThisFile = "store/check.cc";
  static constexpr std::string_view kFloors = "/floors/";
  const std::string_view self(__FILE__);
  if (self.size() >= kThisFile.size() && self.substr(self.size() - kThisFile.size()) == kThisFile) {
    const std::string_view root = self.substr(0, self.size() - kThisFile.size());
    if (std::strncmp(file, root.data(), root.size()) == 0) file += root.size();
  }
  const std::string_view path(file);
  const size_t floors = path.rfind(kFloors);
  if (floors == std::string_view::npos) return file;
  const size_t floor_end = path.find('/', floors + kFloors.size());
  return floor_end == std::string_view::npos ? file : file + floor_end + 1;
}

void AppendIndented(std::string& out, const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += "  ";
    out.append(text, start, end - start);
    out += '\n';
    start = end + 1;
  }
}

}  // namespace

CheckContext::CheckContext(std::function<std::string()> describe) : describe_(std::move(describe)) {
  Contexts().push_back(this);
}

CheckContext::~CheckContext() {
  std::vector<const CheckContext*>& contexts = Contexts();
  // Usually the last one; contexts may end in any order.
  auto it = std::find(contexts.rbegin(), contexts.rend(), this);
  if (it != contexts.rend()) contexts.erase(std::next(it).base());
}

std::string DescribeCheckContexts() {
  std::string out;
  for (const CheckContext* context : Contexts()) AppendIndented(out, context->Describe());
  return out;
}

namespace check_internal {

void Fail(const char* file, int line, const char* expression, std::string_view detail) {
  std::string message = std::string(SourceRelative(file)) + ":" + std::to_string(line) + ": check failed: " + expression;
  if (!detail.empty()) message.append(" ").append(detail);
  message += '\n';
  // The failure first: a describer may fail a check of its own.
  std::fputs(message.c_str(), stderr);
  std::fflush(stderr);
  if (!failing) {
    failing = true;
    std::fputs(DescribeCheckContexts().c_str(), stderr);
    std::fflush(stderr);
  }
  std::abort();
}

}  // namespace check_internal
}  // namespace durasim
