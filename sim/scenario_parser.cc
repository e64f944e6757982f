// Scenario parser: turns scenario YAML (format reference: docs/scenarios.md)
// into a validated Scenario, or into one "<path>:<line>:<column>: <message>"
// error naming what was expected at the first offending node.
#include <algorithm>
#include <charconv>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <fstream>
#include <limits>
#include <map>
#include <functional>
#include <set>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "model/scenario.h"

namespace durasim {
namespace {

// Upper bounds: a number past them is a typo, and they keep simulated-time
// arithmetic (now + duration) far from overflow.
constexpr int64_t kPartitionsMax = 1024;
constexpr int64_t kDurationMsMax = 86'400'000;  // one simulated day
constexpr int64_t kPutRetriesMax = 100;
constexpr int64_t kCountMax = 1'000'000;        // read counts, fault `nth`
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// A failed check. Thrown only inside this file and turned into a Status in
// ParseScenario: parsing stops at the first error anyway, and unwinding keeps
// every check one line instead of threading a Status through each level.
struct ScenarioError {
  SourcePos pos;
  std::string message;
};

[[noreturn]] void Fail(SourcePos pos, std::string message) {
  throw ScenarioError{pos, std::move(message)};
}

// yaml-cpp marks are 0-based; a null mark (empty document) means the file start.
SourcePos PosOf(const YAML::Mark& mark) {
  if (mark.is_null()) return {1, 1};
  return {mark.line + 1, mark.column + 1};
}

std::string PosText(SourcePos pos) { return fmt::format("{}:{}", pos.line, pos.column); }

template <typename Range, typename Project>
std::string Join(const Range& range, Project project) {
  std::string out;
  for (const auto& item : range) {
    if (!out.empty()) out += ", ";
    out += project(item);
  }
  return out;
}

std::string Describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      if (node.Tag() == "?") return fmt::format("'{}'", node.Scalar());
      if (node.Tag() == "!") return fmt::format("the quoted string \"{}\"", node.Scalar());
      return fmt::format("'{}' tagged {}", node.Scalar(), node.Tag());
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Map: return "a mapping";
    default: return "an empty value";
  }
}

// A node plus what to call it in messages ("'seed'", "an attempt step").
// Built, never assigned: assigning a YAML::Node rewrites the node it refers to.
struct Value {
  YAML::Node node;
  SourcePos pos;
  std::string what;
};

// The value of `key: value`. An empty value is reported at its key, because
// yaml-cpp marks it at the next token, often on a later line.
Value ValueOf(const YAML::Node& key, const YAML::Node& value) {
  SourcePos pos = value.IsNull() ? PosOf(key.Mark()) : PosOf(value.Mark());
  return Value{value, pos, fmt::format("'{}'", key.Scalar())};
}

std::string ReadString(const Value& v) {
  if (!v.node.IsScalar()) {
    Fail(v.pos, fmt::format("expected a string for {}, got {}", v.what, Describe(v.node)));
  }
  return v.node.Scalar();
}

std::string ReadName(const Value& v) {
  std::string name = ReadString(v);
  if (name.empty()) Fail(v.pos, fmt::format("expected a non-empty name for {}", v.what));
  return name;
}

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

int64_t ReadInt(const Value& v, int64_t min, int64_t max) {
  std::optional<int64_t> value = ParseDecimal<int64_t>(v.node);
  if (!value || *value < min || *value > max) {
    std::string expected = max != kInt64Max   ? fmt::format("an integer in [{}, {}]", min, max)
                           : min != kInt64Min ? fmt::format("an integer >= {}", min)
                                              : std::string("an integer");
    Fail(v.pos, fmt::format("expected {} for {}, got {}", expected, v.what, Describe(v.node)));
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

// Only true/false: yaml-cpp would also read yes/no/on/off, which YAML 1.2 calls strings.
bool ReadBool(const Value& v) {
  if (v.node.IsScalar() && v.node.Tag() == "?") {
    if (v.node.Scalar() == "true") return true;
    if (v.node.Scalar() == "false") return false;
  }
  Fail(v.pos, fmt::format("expected true or false for {}, got {}", v.what, Describe(v.node)));
}

std::vector<Value> ReadSequence(const Value& v, std::string_view item_what, bool non_empty) {
  if (!v.node.IsSequence()) {
    Fail(v.pos, fmt::format("expected a sequence for {}, got {}", v.what, Describe(v.node)));
  }
  if (non_empty && v.node.size() == 0) Fail(v.pos, fmt::format("expected at least one entry in {}", v.what));
  std::vector<Value> items;
  for (const YAML::Node& item : v.node) {
    items.push_back(Value{item, PosOf(item.Mark()), std::string(item_what)});
  }
  return items;
}

// A mapping whose keys are checked: each a string from `allowed`, none twice
// (yaml-cpp keeps a duplicate key silently and lookups see only the first).
class Mapping {
 public:
  Mapping(const Value& v, std::initializer_list<std::string_view> allowed) : what_(v.what), pos_(v.pos) {
    if (!v.node.IsMap()) {
      Fail(v.pos, fmt::format("expected a mapping for {}, got {}", v.what, Describe(v.node)));
    }
    for (auto it = v.node.begin(); it != v.node.end(); ++it) {
      SourcePos key_pos = PosOf(it->first.Mark());
      if (!it->first.IsScalar()) {
        Fail(key_pos, fmt::format("expected a string key in {}, got {}", what_, Describe(it->first)));
      }
      const std::string& key = it->first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        Fail(key_pos, fmt::format("unknown key '{}' in {}; expected one of: {}", key, what_,
                                  Join(allowed, [](std::string_view k) { return std::string(k); })));
      }
      if (const auto* first = FindEntry(key)) {
        Fail(key_pos, fmt::format("duplicate key '{}' in {}; first at {}", key, what_, PosText(first->key_pos)));
      }
      entries_.push_back(Entry{key, key_pos, ValueOf(it->first, it->second)});
    }
  }

  const Value* Find(std::string_view key) const {
    const Entry* entry = FindEntry(key);
    return entry == nullptr ? nullptr : &entry->value;
  }

  // Missing keys are reported where the mapping starts: there is no node for them.
  const Value& Require(std::string_view key) const {
    const Value* value = Find(key);
    if (value == nullptr) Fail(pos_, fmt::format("missing required key '{}' in {}", key, what_));
    return *value;
  }

 private:
  struct Entry {
    std::string key;
    SourcePos key_pos;
    Value value;
  };
  const Entry* FindEntry(std::string_view key) const {
    for (const Entry& entry : entries_) {
      if (entry.key == key) return &entry;
    }
    return nullptr;
  }

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
  if (step.arg) Fail(step.pos, fmt::format("step '{}' takes no value; write `- {}`", step.kind, step.kind));
}

const Value& RequireArg(const StepForm& step) {
  if (!step.arg) Fail(step.pos, fmt::format("step '{}' needs a value: `{}: <value>`", step.kind, step.kind));
  return *step.arg;
}

// What the attempt steps so far did to one checkpoint id.
struct Checkpoint {
  enum class State { kTaken, kCompleted, kAborted };
  SourcePos taken_at;
  State state = State::kTaken;
  SourcePos finished_at;
};

class ScenarioParser {
 public:
  Scenario Parse(const YAML::Node& root) {
    Mapping top(Value{root, PosOf(root.Mark()), "the scenario"},
                {"name", "description", "seed", "mutant", "log", "suppliers", "actions", "inputs", "attempts",
                 "expect"});
    scenario_.name = ReadName(top.Require("name"));
    if (const Value* v = top.Find("description")) scenario_.description = ReadString(*v);
    if (const Value* v = top.Find("seed")) scenario_.seed = ReadUint64(*v);
    if (const Value* v = top.Find("mutant")) scenario_.mutant = ReadName(*v);
    if (const Value* v = top.Find("log")) ParseLog(*v);
    // Fixed order, not document order: calls need the suppliers, corrupt steps the partitions.
    for (const Value& item : ReadSequence(top.Require("suppliers"), "a supplier", true)) ParseSupplier(item);
    for (const Value& item : ReadSequence(top.Require("actions"), "an action", true)) ParseAction(item);
    CheckListenersHaveEmitters();
    CheckNoEmitCycles();
    for (const Value& item : ReadSequence(top.Require("inputs"), "an input", false)) ParseInput(item);
    attempts_node_.reset(top.Require("attempts").node);  // rebinds; `=` would rewrite the node
    for (const Value& item : ReadSequence(top.Require("attempts"), "an attempt", true)) ParseAttempt(item);
    if (const Value* v = top.Find("expect")) ParseExpect(*v);
    return std::move(scenario_);
  }

 private:
  void ParseLog(const Value& v) {
    Mapping log(v,
                {"partitions", "linger_ms", "ack_latency_ms", "delivery_timeout_ms", "put_retries_max", "tombstones"});
    LogConfig& config = scenario_.log;
    if (const Value* f = log.Find("partitions")) {
      config.partitions = static_cast<int32_t>(ReadInt(*f, 1, kPartitionsMax));
    }
    if (const Value* f = log.Find("linger_ms")) config.linger_ms = ReadInt(*f, 0, kDurationMsMax);
    if (const Value* f = log.Find("ack_latency_ms")) config.ack_latency_ms = ReadInt(*f, 0, kDurationMsMax);
    if (const Value* f = log.Find("delivery_timeout_ms")) {
      config.delivery_timeout_ms = ReadInt(*f, 1, kDurationMsMax);
    }
    if (const Value* f = log.Find("put_retries_max")) config.put_retries_max = ReadInt(*f, 0, kPutRetriesMax);
    if (const Value* f = log.Find("tombstones")) config.tombstones = ReadBool(*f);
  }

  void ParseSupplier(const Value& v) {
    Mapping map(v, {"name", "scale", "drifting", "latency_ms"});
    SupplierSpec supplier;
    supplier.pos = v.pos;
    supplier.name = ReadUniqueName(map.Require("name"), "supplier", supplier_pos_);
    if (const Value* f = map.Find("scale")) supplier.scale = ReadInt(*f, kInt64Min, kInt64Max);
    if (const Value* f = map.Find("drifting")) supplier.drifting = ReadBool(*f);
    if (const Value* f = map.Find("latency_ms")) supplier.latency_ms = ReadInt(*f, 0, kDurationMsMax);
    scenario_.suppliers.push_back(std::move(supplier));
  }

  std::string ReadUniqueName(const Value& v, std::string_view kind, std::map<std::string, SourcePos>& seen) {
    std::string name = ReadName(v);
    auto [it, inserted] = seen.emplace(name, v.pos);
    if (!inserted) {
      Fail(v.pos, fmt::format("duplicate {} name '{}'; first declared at {}", kind, name, PosText(it->second)));
    }
    return name;
  }

  void ParseAction(const Value& v) {
    Mapping map(v, {"name", "on", "steps"});
    ActionSpec action;
    action.pos = v.pos;
    action.name = ReadUniqueName(map.Require("name"), "action", action_pos_);
    for (const Value& entry : ReadEventTypes(map.Require("on"))) {
      std::string type = ReadName(entry);
      if (std::find(action.on.begin(), action.on.end(), type) != action.on.end()) {
        Fail(entry.pos, fmt::format("duplicate event type '{}' in 'on' of action '{}'", type, action.name));
      }
      action.on.push_back(type);
      listeners_.push_back(Listener{action.name, type, entry.pos});
    }
    for (const Value& item : ReadSequence(map.Require("steps"), "an action step", true)) {
      action.steps.push_back(ParseActionStep(item));
    }
    scenario_.actions.push_back(std::move(action));
  }

  // `on: input` is shorthand for `on: [input]`.
  static std::vector<Value> ReadEventTypes(const Value& on) {
    if (on.node.IsScalar()) return {on};
    if (!on.node.IsSequence()) {
      Fail(on.pos, fmt::format("expected an event type or a sequence of event types for 'on', got {}",
                               Describe(on.node)));
    }
    return ReadSequence(on, "an 'on' entry", true);
  }

  ActionStep ParseActionStep(const Value& v) {
    StepForm form = ReadStepForm(v);
    ActionStep step;
    step.pos = v.pos;
    if (form.kind == "call") {
      step.kind = ActionStep::Kind::kCall;
      ParseCall(RequireArg(form), step);
    } else if (form.kind == "memory") {
      step.kind = ActionStep::Kind::kMemory;
      step.name = ReadName(RequireArg(form));
    } else if (form.kind == "emit") {
      step.kind = ActionStep::Kind::kEmit;
      const Value& arg = RequireArg(form);
      step.name = ReadName(arg);
      if (step.name == kInputEventType) {
        Fail(arg.pos, "an action cannot emit 'input': input events come only from the source");
      }
    } else if (form.kind == "output") {
      step.kind = ActionStep::Kind::kOutput;
      RequireBare(form);
    } else {
      Fail(form.pos,
           fmt::format("unknown action step '{}'; expected one of: call, memory, emit, output", form.kind));
    }
    return step;
  }

  // `call: llm` or `call: {supplier: llm, mode: async}`.
  void ParseCall(const Value& arg, ActionStep& step) {
    SourcePos name_pos = arg.pos;
    if (arg.node.IsMap()) {
      Mapping call(arg, {"supplier", "mode"});
      const Value& supplier = call.Require("supplier");
      step.name = ReadName(supplier);
      name_pos = supplier.pos;
      if (const Value* mode = call.Find("mode")) {
        std::string text = ReadString(*mode);
        if (text == "async") {
          step.mode = CallMode::kAsync;
        } else if (text != "sync") {
          Fail(mode->pos, fmt::format("expected sync or async for 'mode', got {}", Describe(mode->node)));
        }
      }
    } else {
      step.name = ReadName(arg);
    }
    if (!supplier_pos_.contains(step.name)) {
      Fail(name_pos,
           fmt::format("undefined supplier '{}' in call; declared suppliers: {}", step.name,
                       Join(scenario_.suppliers, [](const SupplierSpec& s) { return s.name; })));
    }
  }

  // Every event type an action listens on, other than input, must be emitted by
  // some action; otherwise the action can never run and the scenario tests nothing.
  void CheckListenersHaveEmitters() {
    std::set<std::string> emitted;
    for (const ActionSpec& action : scenario_.actions) {
      for (const ActionStep& step : action.steps) {
        if (step.kind == ActionStep::Kind::kEmit) emitted.insert(step.name);
      }
    }
    for (const Listener& listener : listeners_) {
      if (listener.type == kInputEventType || emitted.contains(listener.type)) continue;
      Fail(listener.pos, fmt::format("action '{}' listens on '{}', which no action emits; emitted types: {}",
                                     listener.action, listener.type,
                                     emitted.empty() ? std::string("none (only 'input' exists)")
                                                     : Join(emitted, [](const std::string& s) { return s; })));
    }
  }

  // An action whose events trigger it again, directly or through others,
  // would make every run endless.
  void CheckNoEmitCycles() {
    const std::vector<ActionSpec>& actions = scenario_.actions;
    enum class Mark { kNew, kOnPath, kDone };
    std::vector<Mark> marks(actions.size(), Mark::kNew);
    std::vector<std::string> path;
    std::function<void(size_t)> visit = [&](size_t index) {
      marks[index] = Mark::kOnPath;
      path.push_back(actions[index].name);
      for (const ActionStep& step : actions[index].steps) {
        if (step.kind != ActionStep::Kind::kEmit) continue;
        for (size_t next = 0; next < actions.size(); ++next) {
          if (std::find(actions[next].on.begin(), actions[next].on.end(), step.name) == actions[next].on.end()) continue;
          if (marks[next] == Mark::kOnPath) {
            path.push_back(actions[next].name);
            Fail(step.pos, fmt::format("action '{}' emits '{}', which triggers a cycle of actions ({}): every run "
                                       "would be endless",
                                       actions[index].name, step.name,
                                       Join(path, [](const std::string& name) { return name; })));
          }
          if (marks[next] == Mark::kNew) visit(next);
        }
      }
      path.pop_back();
      marks[index] = Mark::kDone;
    };
    for (size_t i = 0; i < actions.size(); ++i) {
      if (marks[i] == Mark::kNew) visit(i);
    }
  }

  void ParseInput(const Value& v) {
    Mapping map(v, {"key", "value"});
    InputSpec input;
    input.pos = v.pos;
    input.key = ReadString(map.Require("key"));
    input.value = ReadInt(map.Require("value"), kInt64Min, kInt64Max);
    scenario_.inputs.push_back(std::move(input));
  }

  void ParseAttempt(const Value& v) {
    Mapping map(v, {"restore", "steps"});
    AttemptSpec attempt;
    attempt.pos = v.pos;
    // The restore happens before the attempt's steps, whatever the key order.
    if (const Value* restore = map.Find("restore")) attempt.restore = CheckRestore(*restore);
    for (const Value& item : ReadSequence(map.Require("steps"), "an attempt step", false)) {
      attempt.steps.push_back(ParseAttemptStep(item));
    }
    scenario_.attempts.push_back(std::move(attempt));
  }

  std::string CheckRestore(const Value& v) {
    std::string id = ReadName(v);
    size_t attempt = scenario_.attempts.size();
    if (attempt == 0) {
      Fail(v.pos, fmt::format("the first attempt cannot restore '{}': no earlier attempt took a checkpoint", id));
    }
    if (id == kRestoreLatest || id == kRestorePrevious) {
      // Resolved when the attempt starts, among the checkpoints that really
      // completed; one must be completed by an earlier attempt's script.
      for (const auto& [name, checkpoint] : checkpoints_) {
        if (checkpoint.state == Checkpoint::State::kCompleted) return id;
      }
      Fail(v.pos, fmt::format("cannot restore '{}': no earlier attempt completes a checkpoint", id));
    }
    auto it = checkpoints_.find(id);
    if (it == checkpoints_.end()) {
      Fail(v.pos, fmt::format("cannot restore checkpoint '{}': no earlier attempt takes it", id));
    }
    const Checkpoint& checkpoint = it->second;
    if (checkpoint.state == Checkpoint::State::kAborted) {
      Fail(v.pos,
           fmt::format("cannot restore checkpoint '{}': it was aborted at {}", id, PosText(checkpoint.finished_at)));
    }
    if (checkpoint.state == Checkpoint::State::kTaken) {
      if (std::optional<size_t> later = FindCompletionAttempt(id)) {
        Fail(v.pos, fmt::format("cannot restore checkpoint '{}' in attempt {}: it is completed only in "
                                "attempt {}; restore needs a checkpoint completed in an earlier attempt",
                                id, attempt + 1, *later + 1));
      }
      Fail(v.pos, fmt::format("cannot restore checkpoint '{}': it was taken at {} but never completed", id,
                              PosText(checkpoint.taken_at)));
    }
    return id;
  }

  // The first attempt whose steps contain `complete: <id>`, from the raw YAML:
  // only needed to explain a failed restore, and later attempts are not parsed yet.
  std::optional<size_t> FindCompletionAttempt(const std::string& id) const {
    size_t i = 0;
    for (auto attempt_it = attempts_node_.begin(); attempt_it != attempts_node_.end(); ++attempt_it, ++i) {
      const YAML::Node attempt = *attempt_it;
      if (!attempt.IsMap()) continue;
      for (const auto& kv : attempt) {
        if (!kv.first.IsScalar() || kv.first.Scalar() != "steps" || !kv.second.IsSequence()) continue;
        for (const YAML::Node& step : kv.second) {
          if (!step.IsMap() || step.size() != 1) continue;
          const auto& only = *step.begin();
          if (only.first.IsScalar() && only.first.Scalar() == "complete" && only.second.IsScalar() &&
              only.second.Scalar() == id) {
            return i;
          }
        }
      }
    }
    return std::nullopt;
  }

  AttemptStep ParseAttemptStep(const Value& v) {
    StepForm form = ReadStepForm(v);
    AttemptStep step;
    step.pos = v.pos;
    if (form.kind == "read") {
      step.kind = AttemptStep::Kind::kRead;
      step.count = ReadCount(RequireArg(form));
    } else if (form.kind == "checkpoint") {
      step.kind = AttemptStep::Kind::kCheckpoint;
      const Value& arg = RequireArg(form);
      step.checkpoint = ReadName(arg);
      if (step.checkpoint == kRestoreLatest || step.checkpoint == kRestorePrevious) {
        Fail(arg.pos, fmt::format("checkpoint id '{}' is reserved: `restore: {}` names a checkpoint by its order",
                                  step.checkpoint, step.checkpoint));
      }
      Checkpoint taken{arg.pos, Checkpoint::State::kTaken, SourcePos{}};
      auto [it, inserted] = checkpoints_.emplace(step.checkpoint, taken);
      if (!inserted) {
        Fail(arg.pos, fmt::format("checkpoint id '{}' reused; first taken at {}", step.checkpoint,
                                  PosText(it->second.taken_at)));
      }
    } else if (form.kind == "complete" || form.kind == "abort") {
      bool complete = form.kind == "complete";
      step.kind = complete ? AttemptStep::Kind::kComplete : AttemptStep::Kind::kAbort;
      const Value& arg = RequireArg(form);
      step.checkpoint = ReadName(arg);
      Finish(step.checkpoint, arg.pos, complete ? Checkpoint::State::kCompleted : Checkpoint::State::kAborted);
    } else if (form.kind == "run" || form.kind == "crash") {
      step.kind = form.kind == "run" ? AttemptStep::Kind::kRun : AttemptStep::Kind::kCrash;
      RequireBare(form);
    } else if (form.kind == "run_ms") {
      step.kind = AttemptStep::Kind::kRunFor;
      step.duration_ms = ReadInt(RequireArg(form), 1, kDurationMsMax);
    } else if (form.kind == "arm") {
      step.kind = AttemptStep::Kind::kArm;
      Mapping arm(RequireArg(form), {"fault", "nth"});
      step.fault = ReadFault(arm.Require("fault"));
      if (const Value* nth = arm.Find("nth")) step.nth = ReadInt(*nth, 1, kCountMax);
    } else if (form.kind == "broker_down") {
      step.kind = AttemptStep::Kind::kBrokerDown;
      Mapping down(RequireArg(form), {"for_ms"});
      step.duration_ms = ReadInt(down.Require("for_ms"), 1, kDurationMsMax);
    } else if (form.kind == "corrupt") {
      step.kind = AttemptStep::Kind::kCorrupt;
      Mapping corrupt(RequireArg(form), {"partition", "offset"});
      if (const Value* p = corrupt.Find("partition")) {
        step.partition = static_cast<int32_t>(ReadInt(*p, 0, scenario_.log.partitions - 1));
      }
      step.offset = ReadInt(corrupt.Require("offset"), 0, kInt64Max);
    } else {
      Fail(form.pos, fmt::format("unknown attempt step '{}'; expected one of: read, checkpoint, complete, abort, "
                                 "run, run_ms, crash, arm, broker_down, corrupt",
                                 form.kind));
    }
    return step;
  }

  int64_t ReadCount(const Value& v) {
    if (v.node.IsScalar() && v.node.Scalar() == "all") return -1;
    Value count{v.node, v.pos, "'read' (or 'all')"};
    return ReadInt(count, 1, kCountMax);
  }

  // A checkpoint is completed or aborted once, after it was taken (in this or an earlier attempt).
  void Finish(const std::string& id, SourcePos pos, Checkpoint::State to) {
    std::string_view verb = to == Checkpoint::State::kCompleted ? "complete" : "abort";
    auto it = checkpoints_.find(id);
    if (it == checkpoints_.end()) {
      Fail(pos, fmt::format("cannot {} unknown checkpoint '{}': no earlier step takes it", verb, id));
    }
    Checkpoint& checkpoint = it->second;
    if (checkpoint.state != Checkpoint::State::kTaken) {
      Fail(pos, fmt::format("cannot {} checkpoint '{}': it was already {} at {}", verb, id,
                            checkpoint.state == Checkpoint::State::kCompleted ? "completed" : "aborted",
                            PosText(checkpoint.finished_at)));
    }
    checkpoint.state = to;
    checkpoint.finished_at = pos;
  }

  FaultKind ReadFault(const Value& v) {
    std::string name = ReadString(v);
    if (std::optional<FaultKind> kind = ParseName<FaultKind>(name)) return *kind;
    Fail(v.pos, fmt::format("unknown fault kind '{}'; expected one of: {}", name, NameList<FaultKind>()));
  }

  void ParseExpect(const Value& v) {
    Mapping map(v, {"verdict", "outputs", "supplier_calls"});
    Expectation& expect = scenario_.expect;
    expect.pos = v.pos;
    if (const Value* f = map.Find("verdict")) {
      const std::string name = ReadString(*f);
      std::optional<ExpectedVerdict> verdict = ParseExpectedVerdict(name);
      if (!verdict) {
        Fail(f->pos, fmt::format("unknown verdict '{}'; expected one of: {}", name, ExpectedVerdictNames()));
      }
      expect.verdict = *verdict;
    }
    if (const Value* f = map.Find("outputs")) {
      expect.outputs.emplace();
      for (const Value& item : ReadSequence(*f, "an 'outputs' entry", false)) {
        expect.outputs->push_back(ReadInt(item, kInt64Min, kInt64Max));
      }
    }
    if (const Value* f = map.Find("supplier_calls")) expect.supplier_calls = ReadInt(*f, 0, kInt64Max);
  }

  struct Listener {
    std::string action;
    std::string type;
    SourcePos pos;
  };

  Scenario scenario_;
  std::map<std::string, SourcePos> supplier_pos_;  // name -> where declared
  std::map<std::string, SourcePos> action_pos_;
  std::vector<Listener> listeners_;  // every `on` entry, in document order
  std::map<std::string, Checkpoint> checkpoints_;
  YAML::Node attempts_node_;
};

// Records where each document starts and ignores the content.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> marks;
  void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

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

Status ErrorAt(const std::string& path, SourcePos pos, const std::string& message) {
  return Status(StatusCode::kInvalidArgument, fmt::format("{}:{}:{}: {}", path, pos.line, pos.column, message));
}

}  // namespace

Result<Scenario> ParseScenario(const std::string& yaml_text, const std::string& path) {
  // yaml-cpp reports everything by exception; none may leave this function.
  try {
    CheckSingleDocument(yaml_text);
    Scenario scenario = ScenarioParser().Parse(YAML::Load(yaml_text));
    scenario.path = path;
    return scenario;
  } catch (const ScenarioError& error) {
    return ErrorAt(path, error.pos, error.message);
  } catch (const YAML::Exception& error) {
    return ErrorAt(path, PosOf(error.mark), "invalid YAML: " + error.msg);
  } catch (const std::exception& error) {
    return ErrorAt(path, SourcePos{1, 1}, std::string("cannot parse scenario: ") + error.what());
  }
}

Result<Scenario> LoadScenarioFile(const std::string& path) {
  std::error_code error;
  std::filesystem::file_status status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) {
    return Status(StatusCode::kNotFound, fmt::format("{}: cannot open scenario file: no such file", path));
  }
  if (error || status.type() != std::filesystem::file_type::regular) {
    return Status(StatusCode::kNotFound, fmt::format("{}: cannot open scenario file: {}", path,
                                                     error ? error.message() : "not a regular file"));
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file || !text) return Status(StatusCode::kNotFound, fmt::format("{}: cannot read scenario file", path));
  return ParseScenario(text.str(), path);
}

}  // namespace durasim
