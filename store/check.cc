// Failed checks and the thread's run-context registry.
#include "store/check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
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

// `file` relative to the source root, as in "model/kafka_log.cc". __FILE__
// is spelt as the build gave it: absolute, relative to the build folder
// ("../model/kafka_log.cc" through ccache), or through a floor's include
// root ("build/floors/model/model/kafka_log.cc": a header, or a source in a
// unity build's batch). Whatever comes before it, the path inside the tree
// starts at its last folder named after a floor: no folder inside a floor
// bears a floor's name.
const char* SourceRelative(const char* file) {
  const std::string_view path(file);
  size_t start = std::string_view::npos;
  for (const std::string_view floor : {"store/", "model/", "properties/", "sim/"}) {
    for (size_t at = path.find(floor); at != std::string_view::npos; at = path.find(floor, at + 1)) {
      if ((at == 0 || path[at - 1] == '/') && (start == std::string_view::npos || at > start)) start = at;
    }
  }
  return start == std::string_view::npos ? file : file + start;
}

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
