// Strict YAML reading for scenario files (what it accepts: strict_yaml.h).
#include "sim/scenario/strict_yaml.h"

#include "model/scenario_limits.h"
#include "store/check.h"
#include "store/format.h"
#include "store/utf8.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <charconv>
#include <sstream>
#include <system_error>
#include <utility>

namespace durasim::strict_yaml {
namespace {

// A plain (unquoted) scalar in decimal, or nothing. yaml-cpp's own conversion
// also reads octal and hex, so a leading zero would silently change the number;
// a quoted "7" is a string in YAML and stays one here.
template <typename Int>
std::optional<Int> ParseDecimal(const YAML::Node& node) {
  if (!node.IsScalar() || node.Tag() != "?") return std::nullopt;
  const std::string& text = node.Scalar();
  Int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Records where each document starts and where the first alias is, and
// ignores the rest of the content.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> marks;
  std::optional<YAML::Mark> first_alias;
  void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    if (!first_alias) first_alias = mark;
  }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

void Fail(SourcePos pos, std::string message) { throw ParseError{pos, std::move(message)}; }

SourcePos PosOf(const YAML::Mark& mark) {
  if (mark.is_null()) return {1, 1};
  return {mark.line + 1, mark.column + 1};
}

std::string PosText(SourcePos pos) { return fmt::format("{}:{}", pos.line, pos.column); }

std::string Describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      if (node.Tag() == "?") return Quoted(node.Scalar());
      if (node.Tag() == "!") return "the quoted string " + Quoted(node.Scalar(), '"');
      return fmt::format("{} tagged {}", Quoted(node.Scalar()), Quoted(node.Tag(), '\0'));
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Map: return "a mapping";
    default: return "an empty value";
  }
}

std::string Quoted(std::string_view text, char quote) {
  std::string out;
  if (quote != '\0') out += quote;
  int64_t characters = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool starts_character = (byte & 0xC0) != 0x80;  // not a UTF-8 continuation byte
    if (starts_character) ++characters;
    if (characters > limits::kValueShownMax) continue;  // counting on, for the total
    if (byte < 0x20 || byte == 0x7F) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += static_cast<char>(byte);
    }
  }
  if (characters > limits::kValueShownMax) out += "…";
  if (quote != '\0') out += quote;
  if (characters > limits::kValueShownMax) out += fmt::format(" ({} characters)", characters);
  return out;
}

void CheckPrintable(const std::string& yaml_text) {
  int line = 1;
  int column = 1;
  for (const char c : yaml_text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7F) {
      Fail(SourcePos{line, column},
           fmt::format("control character 0x{:02x} in the file; YAML allows only printable characters, tab and line "
                       "breaks (write other bytes of a key as !!binary <base64>)",
                       byte));
    }
    if (byte == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;  // in bytes, as yaml-cpp's marks count them
    }
  }
}

std::string NestingTooDeepMessage() {
  return fmt::format("nesting deeper than {} levels (limit kNestingDepthMax; a scenario needs about 11)",
                     limits::kNestingDepthMax);
}

void CheckNestingDepth(const YAML::Node& root) {
  // Iterative, so that the walk itself needs no stack for deep input.
  std::vector<std::pair<YAML::Node, int64_t>> pending{{root, 1}};
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (!node.IsSequence() && !node.IsMap()) continue;
    if (depth > limits::kNestingDepthMax) Fail(PosOf(node.Mark()), NestingTooDeepMessage());
    if (node.IsSequence()) {
      for (const YAML::Node& item : node) pending.emplace_back(item, depth + 1);
    } else {
      for (auto it = node.begin(); it != node.end(); ++it) {
        pending.emplace_back(it->first, depth + 1);
        pending.emplace_back(it->second, depth + 1);
      }
    }
  }
}

Value ValueOf(const YAML::Node& key, const YAML::Node& value) {
  SourcePos pos = value.IsNull() ? PosOf(key.Mark()) : PosOf(value.Mark());
  return Value{value, pos, Quoted(key.Scalar())};
}

namespace {

void CheckLength(const Value& v, const std::string& text, int64_t bytes_max, std::string_view limit) {
  if (static_cast<int64_t>(text.size()) > bytes_max) {
    Fail(v.pos, fmt::format("{} is {} bytes long, over the limit of {} ({}): got {}", v.what, text.size(), bytes_max,
                            limit, Quoted(text)));
  }
}

}  // namespace

std::string ReadString(const Value& v, int64_t bytes_max) {
  DURASIM_CHECK_GT(bytes_max, 0);  // the grammar's limits hold a string
  if (!v.node.IsScalar()) {
    Fail(v.pos, fmt::format("expected a string for {}, got {}", v.what, Describe(v.node)));
  }
  const std::string& text = v.node.Scalar();
  CheckLength(v, text, bytes_max, bytes_max == limits::kStringBytesMax ? "kStringBytesMax" : "kDescriptionBytesMax");
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\t' && byte != '\n') || byte == 0x7F) {
      Fail(v.pos, fmt::format("control character 0x{:02x} at offset {} of {}; a string holds printable characters, tab "
                              "and line feed (write a key of arbitrary bytes as !!binary <base64>)",
                              byte, i, v.what));
    }
  }
  return text;
}

std::string ReadBytes(const Value& v) {
  if (v.node.IsScalar() && (v.node.Tag() == "tag:yaml.org,2002:binary" || v.node.Tag() == "!!binary")) {
    const std::string text = v.node.Scalar();
    // yaml-cpp 0.7's DecodeBase64 indexes its table with a byte >= 0x80 out
    // of bounds (found by durasim_fuzz: SEGV): base64 is ASCII, so such a
    // byte is refused here.
    if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
      Fail(v.pos, fmt::format("expected base64 after !!binary for {}, got {:?}", v.what, text.substr(0, 80)));
    }
    const std::vector<unsigned char> bytes = YAML::DecodeBase64(text);
    if (bytes.empty() && !text.empty()) {
      Fail(v.pos, fmt::format("expected base64 after !!binary for {}, got {}", v.what, Quoted(text, '"')));
    }
    std::string decoded(bytes.begin(), bytes.end());
    CheckLength(v, decoded, limits::kStringBytesMax, "kStringBytesMax");
    return decoded;
  }
  std::string text = ReadString(v);
  if (const std::optional<size_t> bad = FirstInvalidUtf8(text)) {
    Fail(v.pos, fmt::format("{} is not valid UTF-8 (byte 0x{:02x} at offset {}); write a key of arbitrary bytes as "
                            "!!binary <base64>",
                            v.what, static_cast<uint8_t>(text[*bad]), *bad));
  }
  return text;
}

std::string ReadName(const Value& v) {
  std::string name = ReadString(v);
  if (name.empty()) Fail(v.pos, fmt::format("expected a non-empty name for {}", v.what));
  return name;
}

int64_t ReadInt(const Value& v, int64_t min, int64_t max, std::string_view limit) {
  std::optional<int64_t> value = ParseDecimal<int64_t>(v.node);
  if (!value || *value < min || *value > max) {
    std::string expected = max != kInt64Max   ? fmt::format("an integer in [{}, {}]", min, max)
                           : min != kInt64Min ? fmt::format("an integer >= {}", min)
                                              : std::string("an integer");
    const bool over_limit = value.has_value() && *value > max && !limit.empty();
    Fail(v.pos, fmt::format("expected {} for {}, got {}{}", expected, v.what, Describe(v.node),
                            over_limit ? fmt::format(" (over the limit {}, docs/scenarios.md \"Limits\")", limit)
                                       : std::string()));
  }
  return *value;
}

uint64_t ReadUint64(const Value& v) {
  std::optional<uint64_t> value = ParseDecimal<uint64_t>(v.node);
  if (!value) {
    Fail(v.pos, fmt::format("expected an unsigned 64-bit integer for {}, got {}", v.what, Describe(v.node)));
  }
  return *value;
}

bool ReadBool(const Value& v) {
  if (v.node.IsScalar() && v.node.Tag() == "?") {
    if (v.node.Scalar() == "true") return true;
    if (v.node.Scalar() == "false") return false;
  }
  Fail(v.pos, fmt::format("expected true or false for {}, got {}", v.what, Describe(v.node)));
}

std::vector<Value> ReadSequence(const Value& v, std::string_view item_what, bool non_empty, int64_t items_max,
                                std::string_view limit) {
  if (!v.node.IsSequence()) {
    Fail(v.pos, fmt::format("expected a sequence for {}, got {}", v.what, Describe(v.node)));
  }
  if (non_empty && v.node.size() == 0) Fail(v.pos, fmt::format("expected at least one entry in {}", v.what));
  DURASIM_CHECK_GT(items_max, 0);
  std::vector<Value> items;
  for (const YAML::Node& item : v.node) {
    if (static_cast<int64_t>(items.size()) == items_max) {
      Fail(PosOf(item.Mark()), fmt::format("more than {} entries in {} (limit {}, docs/scenarios.md \"Limits\"): this "
                                           "is entry {} of {}",
                                           items_max, v.what, limit, items_max + 1, v.node.size()));
    }
    items.push_back(Value{item, PosOf(item.Mark()), std::string(item_what)});
  }
  return items;
}

Mapping::Mapping(const Value& v, std::initializer_list<std::string_view> allowed) : what_(v.what), pos_(v.pos) {
  if (!v.node.IsMap()) {
    Fail(v.pos, fmt::format("expected a mapping for {}, got {}", v.what, Describe(v.node)));
  }
  for (auto it = v.node.begin(); it != v.node.end(); ++it) Add(it->first, it->second, allowed);
}

void Mapping::Add(const YAML::Node& key, const YAML::Node& value, std::initializer_list<std::string_view> allowed) {
  SourcePos key_pos = PosOf(key.Mark());
  if (!key.IsScalar()) {
    Fail(key_pos, fmt::format("expected a string key in {}, got {}", what_, Describe(key)));
  }
  const std::string& name = key.Scalar();
  if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
    Fail(key_pos, fmt::format("unknown key {} in {}; expected one of: {}", Quoted(name), what_,
                              Join(allowed, [](std::string_view k) { return std::string(k); })));
  }
  if (const Entry* first = FindEntry(name)) {
    Fail(key_pos, fmt::format("duplicate key {} in {}; first at {}", Quoted(name), what_, PosText(first->key_pos)));
  }
  entries_.push_back(Entry{name, key_pos, ValueOf(key, value)});
}

const Value* Mapping::Find(std::string_view key) const {
  const Entry* entry = FindEntry(key);
  return entry == nullptr ? nullptr : &entry->value;
}

const Value& Mapping::Require(std::string_view key) const {
  const Value* value = Find(key);
  if (value == nullptr) Fail(pos_, fmt::format("missing required key '{}' in {}", key, what_));
  return *value;
}

const Mapping::Entry* Mapping::FindEntry(std::string_view key) const {
  for (const Entry& entry : entries_) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

StepForm ReadStepForm(const Value& v) {
  if (v.node.IsScalar()) return StepForm{v.node.Scalar(), v.pos, std::nullopt};
  if (!v.node.IsMap()) {
    Fail(v.pos, fmt::format("expected {} (a word like `run` or a one-key mapping like `read: 1`), got {}", v.what,
                            Describe(v.node)));
  }
  if (v.node.size() != 1) {
    Fail(v.pos, fmt::format("expected one key per step, got {} keys ({}); options of a step nest under its key",
                            v.node.size(), Join(v.node, [](const auto& kv) { return Describe(kv.first); })));
  }
  auto it = v.node.begin();
  if (!it->first.IsScalar()) Fail(v.pos, fmt::format("expected a step name, got {}", Describe(it->first)));
  return StepForm{it->first.Scalar(), PosOf(it->first.Mark()), ValueOf(it->first, it->second)};
}

void RequireBare(const StepForm& step) {
  if (step.arg) Fail(step.pos, fmt::format("step {} takes no value; write `- {}`", Quoted(step.kind), Quoted(step.kind, '\0')));
}

const Value& RequireArg(const StepForm& step) {
  if (!step.arg) Fail(step.pos, fmt::format("step {} needs a value: `{}: <value>`", Quoted(step.kind), Quoted(step.kind, '\0')));
  return *step.arg;
}

// A scenario is one YAML document. Documents are counted with a bound before
// any is built: on a stream starting with a stray ',' yaml-cpp 0.7 does not
// throw but reports empty documents at the same place forever, and
// YAML::LoadAll then allocates until the process dies (jbeder/yaml-cpp#1040,
// fixed upstream after 0.7 by #1319).
void CheckSingleDocument(const std::string& yaml_text) {
  std::istringstream stream(yaml_text);
  YAML::Parser parser(stream);
  DocumentStarts starts;
  while (starts.marks.size() < 2 && parser.HandleNextDocument(starts)) {
  }
  // The bound that keeps yaml-cpp#1040 from allocating forever: two documents at most.
  DURASIM_CHECK_LE(starts.marks.size(), size_t{2});
  // An alias stands for its anchor's whole subtree, and every reader of the
  // tree walks it again: ten levels of ten aliases make a 600-byte file
  // stand for 10^10 nodes (the "billion laughs"), a walk of 10^10 steps. Scenario
  // files have no use for them.
  if (starts.first_alias) {
    Fail(PosOf(*starts.first_alias),
         "YAML aliases (*name) are not allowed in scenario files: write the value out where it is used (an alias "
         "repeats its anchor's whole subtree, and nested aliases grow a short file beyond any bound)");
  }
  if (starts.marks.size() < 2) return;
  const YAML::Mark& second = starts.marks[1];
  if (second.pos <= starts.marks[0].pos) {  // no progress: the parser is stuck on this character
    std::string found = second.pos >= 0 && static_cast<size_t>(second.pos) < yaml_text.size()
                             ? fmt::format("'{}'", yaml_text[second.pos])
                             : std::string("text");
    Fail(PosOf(second), fmt::format("invalid YAML: unexpected {}", found));
  }
  Fail(PosOf(second), "expected one YAML document, found a second one");
}

}  // namespace durasim::strict_yaml
