// Strict YAML reading for scenario files: every node carries its
// file position (1-based line:column) and what to call it in messages;
// mappings accept only the keys they are given, each once; scalars are read
// as exactly one type (decimal integers, true/false, strings). A check that
// fails throws ParseError, which ParseScenario turns into a Status: no
// exception leaves the scenario parser.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.h"
#include "model/scenario_limits.h"

namespace durasim::strict_yaml {

inline constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// A failed check. Parsing stops at the first error anyway, and unwinding
// keeps every check one line instead of threading a Status through each level.
struct ParseError {
  SourcePos pos;
  std::string message;
};

[[noreturn]] void Fail(SourcePos pos, std::string message);

// yaml-cpp marks are 0-based; a null mark (empty document) means the file start.
SourcePos PosOf(const YAML::Mark& mark);
std::string PosText(SourcePos pos);

template <typename Range, typename Project>
std::string Join(const Range& range, Project project) {
  std::string out;
  for (const auto& item : range) {
    if (!out.empty()) out += ", ";
    out += project(item);
  }
  return out;
}

// What a node is, for "got ..." in messages: its scalar, "a sequence", ...
std::string Describe(const YAML::Node& node);

// `text` as a message quotes it: between `quote`s, control characters
// escaped (\xNN), at most limits::kValueShownMax characters followed by
// `…` and the total length (`'aaaa…' (2097152 characters)`), so that no
// message echoes a whole oversized value.
std::string Quoted(std::string_view text, char quote = '\'');

// Fails at the first byte YAML does not allow in a stream (C0 controls but
// tab, line feed and carriage return; DEL), with its line and column:
// yaml-cpp would read a raw NUL as something else rather than refuse it.
void CheckPrintable(const std::string& yaml_text);

// Fails at the first node nested deeper than limits::kNestingDepthMax.
void CheckNestingDepth(const YAML::Node& root);
// The message of that failure (also for yaml-cpp's own recursion guard,
// which stops far deeper nesting while parsing, before the stack can overflow).
std::string NestingTooDeepMessage();

// A node plus what to call it in messages ("'seed'", "an attempt step").
// Built, never assigned: assigning a YAML::Node rewrites the node it refers to.
struct Value {
  YAML::Node node;
  SourcePos pos;
  std::string what;
};

// The value of `key: value`. An empty value is reported at its key, because
// yaml-cpp marks it at the next token, often on a later line.
Value ValueOf(const YAML::Node& key, const YAML::Node& value);

// A string scalar of at most `bytes_max` bytes; control characters but tab
// and line feed are refused.
std::string ReadString(const Value& v, int64_t bytes_max = limits::kStringBytesMax);
std::string ReadName(const Value& v);
// A byte string: `!!binary <base64>` for any bytes, or a string that must
// be valid UTF-8 (a YAML escape such as "\xff" is a code point, not a byte).
std::string ReadBytes(const Value& v);  // a non-empty string
// A plain (unquoted) decimal integer in [min, max]; `limit` names the
// constant of model/scenario_limits.h that max is, if one is.
int64_t ReadInt(const Value& v, int64_t min, int64_t max, std::string_view limit = "");
uint64_t ReadUint64(const Value& v);
// Only true/false: yaml-cpp would also read yes/no/on/off, which YAML 1.2 calls strings.
bool ReadBool(const Value& v);
// The items of a sequence, each called `item_what`; at most `items_max`
// (a limit of model/scenario_limits.h, named `limit` in the message).
std::vector<Value> ReadSequence(const Value& v, std::string_view item_what, bool non_empty,
                                int64_t items_max = kInt64Max, std::string_view limit = "");

// A mapping whose keys are checked: each a string from `allowed`, none twice
// (yaml-cpp keeps a duplicate key silently and lookups see only the first).
class Mapping {
 public:
  Mapping(const Value& v, std::initializer_list<std::string_view> allowed);

  const Value* Find(std::string_view key) const;
  // Missing keys are reported where the mapping starts: there is no node for them.
  const Value& Require(std::string_view key) const;

 private:
  struct Entry {
    std::string key;
    SourcePos key_pos;
    Value value;
  };
  void Add(const YAML::Node& key, const YAML::Node& value, std::initializer_list<std::string_view> allowed);
  const Entry* FindEntry(std::string_view key) const;

  std::string what_;
  SourcePos pos_;
  std::vector<Entry> entries_;
};

// One list item of `steps`: a bare word (`run`) or a one-key mapping (`read: 1`).
struct StepForm {
  std::string kind;
  SourcePos pos;
  std::optional<Value> arg;
};

StepForm ReadStepForm(const Value& v);
void RequireBare(const StepForm& step);
const Value& RequireArg(const StepForm& step);

// Fails unless `yaml_text` holds at most one YAML document. Documents are
// counted with a bound before any is built (see the .cc for why).
void CheckSingleDocument(const std::string& yaml_text);

}  // namespace durasim::strict_yaml
