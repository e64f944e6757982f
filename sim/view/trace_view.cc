// TraceView implementation: a text transform of the hashed lines.
#include "sim/view/trace_view.h"

#include <map>
#include <regex>
#include <set>

#include "model/invariant.h"
#include "model/key_groups.h"
#include "sim/run/record_summary.h"
#include "sim/view/trace_line.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// The quoted string (fmt's "{:?}", still escaped) after `key=` at `from`,
// or nothing; `end` is set past its closing quote.
std::optional<std::string> QuotedAt(const std::string& text, size_t from, size_t& end) {
  if (from >= text.size() || text[from] != '"') return std::nullopt;
  for (size_t i = from + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == '"') {
      end = i + 1;
      return text.substr(from + 1, i - from - 1);
    }
  }
  return std::nullopt;
}

void AppendUtf8(uint32_t code, std::string& out) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// The bytes fmt's "{:?}" escaped into `escaped`.
std::string Unescape(const std::string& escaped) {
  std::string out;
  for (size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] != '\\' || i + 1 >= escaped.size()) {
      out += escaped[i];
      continue;
    }
    const char c = escaped[++i];
    const auto hex = [&](size_t digits) {
      uint32_t value = 0;
      for (size_t j = 0; j < digits && i + 1 < escaped.size(); ++j) {
        const char h = escaped[++i];
        value = value * 16 + static_cast<uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      return value;
    };
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'x': out += static_cast<char>(hex(2)); break;
      case 'u': AppendUtf8(hex(4), out); break;
      case 'U': AppendUtf8(hex(8), out); break;
      default: out += c; break;  // \" and \\ .
    }
  }
  return out;
}

const std::regex& StateKeyPattern() {
  static const std::regex pattern(R"(seq=(\d+) event=([0-9a-f]{16}) action=([0-9a-f]{16}))");
  return pattern;
}
const std::regex& RecordKeyPattern() {
  static const std::regex pattern(R"(^(.*)_(\d+)_([0-9a-f]{16})_([0-9a-f]{16})$)");
  return pattern;
}
const std::regex& CleanupKeyPattern() {
  static const std::regex pattern(R"(^(.*)_cleanup$)");
  return pattern;
}
const std::regex& DigestPattern() {
  static const std::regex pattern(R"(\b(args|saved_args|value)=([0-9a-f]{8})[0-9a-f]{8}\b)");
  return pattern;
}

// The token after `name=` in `text`, up to a space.
std::optional<std::string> TokenAfter(const std::string& text, const std::string& name, size_t from = 0) {
  const size_t at = text.find(" " + name + "=", from);
  if (at == std::string::npos) return std::nullopt;
  const size_t begin = at + name.size() + 2;
  return text.substr(begin, text.find(' ', begin) - begin);
}

// What the trace tells about its hashes: action names, event types.
class Names {
 public:
  explicit Names(const std::vector<std::string>& lines) {
    static const std::regex state_key(R"(key=("(?:[^"\\]|\\.)*") seq=(\d+) event=([0-9a-f]{16}) action=([0-9a-f]{16}))");
    for (const std::string& text : lines) {
      std::smatch m;
      if (!std::regex_search(text, m, state_key)) continue;
      const std::string event = m[3], action = m[4];
      const size_t after = static_cast<size_t>(m.position(0) + m.length(0));
      if (std::optional<std::string> name = TokenAfter(text, "action_name", after)) actions_.emplace(action, *name);
      if (text.find(" action.start ") == std::string::npos) continue;
      if (std::optional<std::string> type = TokenAfter(text, "event", after)) {
        if (events_.emplace(event, Event_{*type, m[1].str() + " " + m[2].str()}).second) {
          siblings_[{m[1].str() + " " + m[2].str(), *type}].insert(event);
        }
      }
    }
  }
  std::string Action(const std::string& hash) const {
    auto it = actions_.find(hash);
    return it == actions_.end() ? hash : it->second;
  }
  std::string Event(const std::string& hash) const {
    auto it = events_.find(hash);
    if (it == events_.end()) return hash;
    // Identical sibling events of one input share a type: a short hash
    // tells them apart.
    if (siblings_.at({it->second.input, it->second.type}).size() > 1) return it->second.type + "~" + hash.substr(0, 4);
    return it->second.type;
  }

 private:
  struct Event_ {
    std::string type;
    std::string input;  // "<quoted key> <seq>"
  };
  std::map<std::string, std::string> actions_;  // hash -> name
  std::map<std::string, Event_> events_;        // hash -> type and input
  std::map<std::pair<std::string, std::string>, std::set<std::string>> siblings_;  // (input, type) -> hashes
};

// `detail` with state keys, record keys and digests made readable.
std::string Readable(const TraceLineParts& line, const Names& names) {
  std::string detail = line.detail;
  // A record key: key="<input>_<seq>_<event>_<action>" or "<input>_cleanup".
  if (line.kind.rfind("log.", 0) == 0) {
    const size_t at = detail.find("key=");
    size_t end = 0;
    if (at != std::string::npos) {
      if (std::optional<std::string> quoted = QuotedAt(detail, at + 4, end)) {
        std::smatch m;
        std::string replacement;
        if (std::regex_match(*quoted, m, RecordKeyPattern())) {
          replacement = fmt::format("key=\"{}\" seq={} event={} action={}", m[1].str(), m[2].str(),
                                    names.Event(m[3]), names.Action(m[4]));
        } else if (std::regex_match(*quoted, m, CleanupKeyPattern())) {
          replacement = fmt::format("key=\"{}\" cleanup", m[1].str());
        }
        if (!replacement.empty()) detail = detail.substr(0, at) + replacement + detail.substr(end);
      }
    }
  }
  std::smatch m;
  if (std::regex_search(detail, m, StateKeyPattern())) {
    const std::string action = names.Action(m[3]);
    std::string rest = m.suffix();
    // The action's name is now in the state key: its own field goes.
    const std::string redundant = " action_name=" + action;
    for (size_t at = rest.find(redundant); at != std::string::npos; at = rest.find(redundant, at)) {
      const size_t end = at + redundant.size();
      if (end == rest.size() || rest[end] == ' ') {
        rest.erase(at, redundant.size());
      } else {
        at = end;
      }
    }
    detail = fmt::format("{}seq={} event={} action={}{}", m.prefix().str(), m[1].str(), names.Event(m[2]), action, rest);
  }
  return std::regex_replace(detail, DigestPattern(), "$1=$2");
}

// The input key a line is about (still escaped), when it names one.
std::optional<std::string> KeyOf(const TraceLineParts& line) {
  const size_t at = line.detail.rfind("key=", 0) == 0 ? 0 : line.detail.find(" key=");
  if (at == std::string::npos) return std::nullopt;
  const size_t from = at == 0 ? 4 : at + 5;
  size_t end = 0;
  std::optional<std::string> quoted = QuotedAt(line.detail, from, end);
  if (!quoted || line.kind.rfind("log.", 0) != 0) return quoted;
  std::smatch m;
  if (std::regex_match(*quoted, m, RecordKeyPattern()) || std::regex_match(*quoted, m, CleanupKeyPattern())) {
    return m[1].str();
  }
  return quoted;
}

// The subtask a line names (a "subtask=N" field), when it names one.
std::optional<int32_t> SubtaskTagOf(const TraceLineParts& line) {
  const size_t at = line.detail.rfind("subtask=", 0) == 0 ? 0 : line.detail.find(" subtask=");
  if (at == std::string::npos) return std::nullopt;
  const size_t begin = line.detail.find('=', at) + 1;
  int32_t subtask = 0;
  size_t i = begin;
  for (; i < line.detail.size() && line.detail[i] >= '0' && line.detail[i] <= '9'; ++i) {
    subtask = subtask * 10 + (line.detail[i] - '0');
  }
  if (i == begin) return std::nullopt;
  return subtask;
}

bool Keeps(const TraceFilter& filter, const TraceLineParts& line, const Scenario& scenario) {
  if (filter.attempt && line.attempt != *filter.attempt) return false;
  const std::optional<std::string> key = KeyOf(line);
  if (filter.key && key) {
    const std::string wanted = fmt::format("{:?}", *filter.key);
    if (*key != wanted.substr(1, wanted.size() - 2)) return false;
  }
  if (filter.subtask) {
    if (std::optional<int32_t> tag = SubtaskTagOf(line)) return *tag == *filter.subtask;
    if (key && line.attempt > 0) {
      const int32_t owner =
          SubtaskOfKey(Unescape(*key), scenario.max_parallelism, scenario.ParallelismOf(line.attempt));
      return owner == *filter.subtask;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> ReadableTrace(const RunReport& report, const Scenario& scenario, const TraceFilter& filter) {
  const Names names(report.trace.lines());
  std::map<size_t, std::vector<std::string>> cited;  // trace index -> the invariants citing it
  for (const Violation& v : report.violations) {
    for (size_t index : v.evidence) cited[index].push_back(NameOf(v.invariant));
  }
  // Record lines are lines of this trace (RunReport::record_lines).
  DURASIM_CHECK(report.record_lines.empty() || report.record_lines.rbegin()->first < report.trace.size());
  const size_t width = fmt::format("{}", report.trace.empty() ? 0 : report.trace.size() - 1).size();
  std::vector<std::string> out;
  for (size_t i = 0; i < report.trace.size(); ++i) {
    const TraceLineParts line = ParseTraceLine(report.trace.line(i));
    if (filter.any() && !Keeps(filter, line, scenario)) continue;
    std::string text = fmt::format("#{:<{}} {}{}", i, width, line.head, Readable(line, names));
    if (auto record = report.record_lines.find(i); record != report.record_lines.end()) {
      text += "  => " + SummarizeRecord(record->second.key, record->second.value).text;
    }
    if (auto it = cited.find(i); it != cited.end()) text += fmt::format("  <== {}", fmt::join(it->second, ", "));
    out.push_back(std::move(text));
  }
  return out;
}

}  // namespace durasim
