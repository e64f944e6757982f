// Scenario parser: the grammar of scenario YAML (format reference:
// docs/scenarios.md), from the plan and inputs to the attempts and the
// expectation, into a validated Scenario, or into one
// "<path>:<line>:<column>: <message>" error naming what was expected at the
// first offending node. Reading YAML strictly is strict_yaml.h's job, the
// references between parts scenario_checks.h's, the step keywords
// scenario_keywords.h's.
#include <algorithm>
#include <charconv>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/ranges.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "model/key_groups.h"
#include "model/scenario.h"
#include "model/scenario_cost.h"
#include "model/scenario_limits.h"
#include "model/store_designs.h"
#include "model/typed_key.h"
#include "sim/scenario/scenario_checks.h"
#include "sim/scenario/scenario_keywords.h"
#include "sim/scenario/strict_yaml.h"
#include "sim/scenario/scenario_parser.h"
#include "store/format.h"

namespace durasim {
namespace {

using namespace strict_yaml;  // NOLINT: the grammar is written in the reader's words
using scenario_checks::CheckpointLedger;
using scenario_checks::Listener;

// An input key (model/typed_key.h): `!long <decimal>` is a Long key;
// anything else is a String key (or bytes, !!binary), which may not start
// with the Long key's mark.
std::string ReadKey(const Value& v) {
  if (v.node.IsScalar() && v.node.Tag() == "!long") {
    const std::string& text = v.node.Scalar();
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      Fail(v.pos, fmt::format("expected a decimal integer in 64 bits after !long for {}, got {}", v.what,
                              Quoted(text, '"')));
    }
    return LongKey(value);
  }
  if (v.node.IsScalar() && !v.node.Tag().empty() && v.node.Tag() != "!" && v.node.Tag() != "?" &&
      v.node.Tag() != "tag:yaml.org,2002:binary" && v.node.Tag() != "!!binary" &&
      v.node.Tag() != "tag:yaml.org,2002:str" && v.node.Tag() != "!!str") {
    Fail(v.pos, fmt::format("unknown tag {} on {}; a key is a string, !!binary <base64> or !long <integer>",
                            v.node.Tag(), v.what));
  }
  std::string key = ReadBytes(v);
  if (StartsWithLongKeyMark(key)) {
    Fail(v.pos, fmt::format("{} starts with the bytes of a Long key's mark (0xff \"long:\"); write a Long key as "
                            "!long <integer>",
                            v.what));
  }
  return key;
}

// Upper bounds of values: model/scenario_limits.h (one table in docs/scenarios.md).
using limits::kCountMax;
using limits::kDurationMsMax;
using limits::kPartitionsMax;
using limits::kPutRetriesMax;
using limits::kRetriesMax;

// The step keyword of `form` from `table`, its value required or refused as
// the table says.
template <typename Kind>
Kind ReadStepKind(const StepForm& form, std::span<const StepKeyword<Kind>> table, std::string_view what) {
  const StepKeyword<Kind>* entry = FindStepKeyword(table, form.kind);
  if (entry == nullptr) {
    Fail(form.pos, fmt::format("unknown {} {}; expected one of: {}", what, Quoted(form.kind),
                               Join(table, [](const StepKeyword<Kind>& k) { return std::string(k.keyword); })));
  }
  if (entry->takes_value) {
    RequireArg(form);
  } else {
    RequireBare(form);
  }
  return entry->kind;
}

class ScenarioParser {
 public:
  Scenario Parse(const YAML::Node& root) {
    Mapping top(Value{root, PosOf(root.Mark()), "the scenario"},
                {"name", "description", "seed", "perturb_seed", "mutant", "store", "store_options", "durable",
                 "parallelism", "max_parallelism", "log", "suppliers", "actions", "inputs", "attempts", "expect"});
    scenario_.name = ReadName(top.Require("name"));
    if (const Value* v = top.Find("description")) {
      scenario_.description = ReadString(*v, limits::kDescriptionBytesMax);
    }
    if (const Value* v = top.Find("seed")) scenario_.seed = ReadUint64(*v);
    if (const Value* v = top.Find("perturb_seed")) scenario_.perturb_seed = ReadUint64(*v);
    if (const Value* v = top.Find("mutant")) scenario_.mutant = ReadName(*v);
    if (const Value* v = top.Find("store")) {
      scenario_.store = ReadStoreDesign(*v);
      scenario_.store_named = true;
    }
    if (const Value* v = top.Find("durable")) ParseDurable(*v);
    if (const Value* v = top.Find("store_options")) ParseStoreOptions(*v);
    if (const Value* v = top.Find("max_parallelism")) {
      scenario_.max_parallelism = static_cast<int32_t>(ReadInt(*v, 1, limits::kMaxParallelismMax, "kMaxParallelismMax"));
    }
    if (const Value* v = top.Find("parallelism")) scenario_.parallelism = ReadParallelism(*v);
    if (const Value* v = top.Find("log")) ParseLog(*v);
    // Fixed order, not document order: calls need the suppliers, corrupt steps the partitions.
    PlanSpec plan = ParsePlan(top.Require("suppliers"), top.Require("actions"));
    scenario_.suppliers = std::move(plan.suppliers);
    scenario_.actions = std::move(plan.actions);
    for (const Value& item : ReadSequence(top.Require("inputs"), "an input", false, limits::kInputsMax, "kInputsMax")) {
      ParseInput(item);
    }
    attempts_node_.reset(top.Require("attempts").node);  // rebinds; `=` would rewrite the node
    allow_unfired_ = PeekAllowUnfired(top);
    deploys_plans_ = DeploysPlans(attempts_node_);
    partitions_now_ = scenario_.log.partitions;
    for (const Value& item :
         ReadSequence(top.Require("attempts"), "an attempt", true, limits::kAttemptsMax, "kAttemptsMax")) {
      ParseAttempt(item);
    }
    scenario_checks::CheckRecallsReadWrittenSlots(scenario_);
    if (const Value* v = top.Find("store")) {
      if (const std::optional<std::string> why = NotRunnableOn(scenario_, scenario_.store)) {
        Fail(v->pos, fmt::format("store design {} cannot run this scenario: {}", NameOf(scenario_.store), *why));
      }
    }
    if (const Value* v = top.Find("expect")) ParseExpect(*v);
    CheckCost(top);
    return std::move(scenario_);
  }

 private:
  // The limits on what the file's shape makes a run do (model/scenario_cost.h).
  void CheckCost(const Mapping& top) const {
    const ScenarioCost cost = CostOf(scenario_);
    if (cost.action_runs_per_input > limits::kActionRunsPerInputMax) {
      Fail(top.Require("actions").pos,
           fmt::format("one input triggers {} action runs (emits fan out), over the limit of {} "
                       "(kActionRunsPerInputMax, docs/scenarios.md \"Limits\")",
                       cost.action_runs_per_input, limits::kActionRunsPerInputMax));
    }
    if (cost.work_units > limits::kWorkUnitsMax) {
      Fail(top.Require("inputs").pos,
           fmt::format("the run's estimated work is {} units ({} inputs, {} action runs each, {} attempts), over "
                       "the limit of {} (kWorkUnitsMax, docs/scenarios.md \"Limits\"): fewer inputs, calls or "
                       "attempts",
                       cost.work_units, scenario_.inputs.size(), cost.action_runs_per_input, scenario_.attempts.size(),
                       limits::kWorkUnitsMax));
    }
  }

  // --- The plan: log, suppliers, actions -----------------------------------

  void ParseLog(const Value& v) {
    Mapping log(v,
                {"partitions", "linger_ms", "ack_latency_ms", "delivery_timeout_ms", "put_retries_max", "tombstones",
                 "retention_ms", "delete_retention_ms"});
    LogConfig& config = scenario_.log;
    if (const Value* f = log.Find("partitions")) {
      config.partitions = static_cast<int32_t>(ReadInt(*f, 1, kPartitionsMax, "kPartitionsMax"));
    }
    if (const Value* f = log.Find("linger_ms")) ReadLatencyMs(*f, config.linger_ms, config.linger_ms_max);
    if (const Value* f = log.Find("ack_latency_ms")) {
      ReadLatencyMs(*f, config.ack_latency_ms, config.ack_latency_ms_max);
    }
    if (const Value* f = log.Find("delivery_timeout_ms")) {
      config.delivery_timeout_ms = ReadInt(*f, 1, kDurationMsMax, "kDurationMsMax");
    }
    if (const Value* f = log.Find("put_retries_max")) config.put_retries_max = ReadInt(*f, 0, kPutRetriesMax, "kPutRetriesMax");
    if (const Value* f = log.Find("tombstones")) config.tombstones = ReadBool(*f);
    if (const Value* f = log.Find("retention_ms")) config.retention_ms = ReadInt(*f, 0, kDurationMsMax, "kDurationMsMax");
    if (const Value* f = log.Find("delete_retention_ms")) {
      config.delete_retention_ms = ReadInt(*f, 0, kDurationMsMax, "kDurationMsMax");
    }
  }

  // A latency: an integer (fixed), or a range `{min, max}` that a perturbed
  // run draws from (model/perturbation.h); a run without --perturb takes min.
  static void ReadLatencyMs(const Value& v, int64_t& min, std::optional<int64_t>& max) {
    if (!v.node.IsMap()) {
      min = ReadInt(v, 0, kDurationMsMax, "kDurationMsMax");
      return;
    }
    Mapping range(v, {"min", "max"});
    min = ReadInt(range.Require("min"), 0, kDurationMsMax, "kDurationMsMax");
    const Value& upper = range.Require("max");
    max = ReadInt(upper, 0, kDurationMsMax, "kDurationMsMax");
    if (*max < min) {
      Fail(upper.pos, fmt::format("expected a max >= its min ({}) in the range of {}, got {}", min, v.what, *max));
    }
  }

  // The names a plan declared so far, for duplicates and listeners.
  struct PlanNames {
    std::map<std::string, SourcePos> suppliers;  // name -> where declared
    std::map<std::string, SourcePos> actions;
    std::vector<Listener> listeners;  // every `on` entry, in document order
  };

  // The suppliers, then the actions that call them, of the scenario or of an
  // attempt's `plan:`.
  PlanSpec ParsePlan(const Value& suppliers, const Value& actions) {
    PlanSpec plan;
    PlanNames names;
    plan.suppliers = ParseSuppliers(suppliers, names);
    plan.actions = ParseActions(actions, plan.suppliers, names);
    return plan;
  }

  static std::vector<SupplierSpec> ParseSuppliers(const Value& v, PlanNames& names) {
    std::vector<SupplierSpec> suppliers;
    for (const Value& item : ReadSequence(v, "a supplier", true, limits::kSuppliersMax, "kSuppliersMax")) {
      suppliers.push_back(ParseSupplier(item, names));
    }
    return suppliers;
  }

  // The actions, calling `suppliers`, with their listeners and emits checked.
  static std::vector<ActionSpec> ParseActions(const Value& v, const std::vector<SupplierSpec>& suppliers,
                                              PlanNames& names) {
    std::vector<ActionSpec> actions;
    for (const Value& item : ReadSequence(v, "an action", true, limits::kActionsMax, "kActionsMax")) {
      actions.push_back(ParseAction(item, suppliers, names));
    }
    scenario_checks::CheckListenersHaveEmitters(actions, names.listeners);
    scenario_checks::CheckNoEmitCycles(actions);
    return actions;
  }

  static SupplierSpec ParseSupplier(const Value& v, PlanNames& names) {
    Mapping map(v, {"name", "scale", "drifting", "latency_ms", "fails", "fail_percent", "reconcile"});
    SupplierSpec supplier;
    supplier.pos = v.pos;
    supplier.name = ReadUniqueName(map.Require("name"), "supplier", names.suppliers);
    if (const Value* f = map.Find("scale")) supplier.scale = ReadInt(*f, kInt64Min, kInt64Max);
    if (const Value* f = map.Find("drifting")) supplier.drifting = ReadBool(*f);
    if (const Value* f = map.Find("latency_ms")) ReadLatencyMs(*f, supplier.latency_ms, supplier.latency_ms_max);
    if (const Value* f = map.Find("fails")) {
      Mapping fails(*f, {"nth"});
      supplier.fails_nth = ReadInt(fails.Require("nth"), 1, kCountMax, "kCountMax");
    }
    if (const Value* f = map.Find("fail_percent")) supplier.fail_percent = ReadInt(*f, 0, 100);
    if (const Value* f = map.Find("reconcile")) supplier.reconcile = ReadReconcile(*f);
    return supplier;
  }

  // A reconciler's answers: one, or a sequence of them by asking.
  static std::vector<ReconcileAnswer> ReadReconcile(const Value& v) {
    std::vector<Value> items;
    if (v.node.IsSequence()) {
      items = ReadSequence(v, "a reconciler answer", true, limits::kReconcileAnswersMax, "kReconcileAnswersMax");
    } else {
      items.push_back(v);
    }
    std::vector<ReconcileAnswer> answers;
    for (const Value& item : items) {
      const std::string name = ReadString(item);
      std::optional<ReconcileAnswer> answer = ParseName<ReconcileAnswer>(name);
      if (!answer) {
        Fail(item.pos, fmt::format("unknown reconciler answer {} for 'reconcile'; expected one of: {} (or a sequence "
                                   "of them, by asking)",
                                   Quoted(name), NameList<ReconcileAnswer>()));
      }
      answers.push_back(*answer);
    }
    return answers;
  }

  static std::string ReadUniqueName(const Value& v, std::string_view kind, std::map<std::string, SourcePos>& seen) {
    std::string name = ReadName(v);
    auto [it, inserted] = seen.emplace(name, v.pos);
    if (!inserted) {
      Fail(v.pos, fmt::format("duplicate {} name '{}'; first declared at {}", kind, name, PosText(it->second)));
    }
    return name;
  }

  static ActionSpec ParseAction(const Value& v, const std::vector<SupplierSpec>& suppliers, PlanNames& names) {
    Mapping map(v, {"name", "on", "on_error", "steps"});
    ActionSpec action;
    action.pos = v.pos;
    action.name = ReadUniqueName(map.Require("name"), "action", names.actions);
    for (const Value& entry : ReadEventTypes(map.Require("on"))) {
      std::string type = ReadName(entry);
      if (std::find(action.on.begin(), action.on.end(), type) != action.on.end()) {
        Fail(entry.pos, fmt::format("duplicate event type '{}' in 'on' of action '{}'", type, action.name));
      }
      action.on.push_back(type);
      names.listeners.push_back(Listener{action.name, type, entry.pos});
    }
    if (const Value* f = map.Find("on_error")) action.on_error = ReadOnError(*f);
    for (const Value& item :
         ReadSequence(map.Require("steps"), "an action step", true, limits::kActionStepsMax, "kActionStepsMax")) {
      action.steps.push_back(ParseActionStep(item, suppliers));
    }
    const auto calls = std::count_if(action.steps.begin(), action.steps.end(),
                                     [](const ActionStep& step) { return step.kind == ActionStep::Kind::kCall; });
    if (calls * action.on_error.tries_max() > limits::kCallResultsPerActionMax) {
      Fail(v.pos, fmt::format("action '{}' can hold {} call results ({} calls, {} tries each), over the limit of {} "
                              "(kCallResultsPerActionMax, docs/scenarios.md \"Limits\"): a state record holds every "
                              "call, so its puts grow with the square of its calls",
                              action.name, calls * action.on_error.tries_max(), calls, action.on_error.tries_max(),
                              limits::kCallResultsPerActionMax));
    }
    return action;
  }

  // `on_error: fail`, `on_error: ignore`, `on_error: {retry: {max: <n>}}` or
  // `on_error: {continue: <fallback value>}`.
  static ErrorHandling ReadOnError(const Value& v) {
    ErrorHandling handling;
    if (v.node.IsMap()) {
      Mapping on_error(v, {"retry", "continue"});
      if (const Value* fallback = on_error.Find("continue")) {
        if (on_error.Find("retry") != nullptr) Fail(v.pos, "'on_error' is either retry or continue, not both");
        handling.kind = OnError::kContinue;
        handling.fallback = ReadInt(*fallback, kInt64Min, kInt64Max);
        return handling;
      }
      const Value& retries = on_error.Require("retry");
      if (retries.node.IsScalar()) {  // the count written where its mapping goes: say the form
        Fail(retries.pos, fmt::format("expected a mapping {{max: <n>}} for 'retry', got {}: write "
                                      "`on_error: {{retry: {{max: {}}}}}`",
                                      Describe(retries.node), retries.node.Scalar()));
      }
      Mapping retry(retries, {"max"});
      handling.kind = OnError::kRetry;
      handling.retries_max = ReadInt(retry.Require("max"), 1, kRetriesMax, "kRetriesMax");
      return handling;
    }
    const std::optional<OnError> kind = v.node.IsScalar() ? ParseName<OnError>(v.node.Scalar()) : std::nullopt;
    if (!kind.has_value() || *kind == OnError::kRetry || *kind == OnError::kContinue) {
      Fail(v.pos, fmt::format("expected fail, ignore, {{retry: {{max: <n>}}}} or {{continue: <value>}} for "
                              "'on_error', got {}",
                              Describe(v.node)));
    }
    handling.kind = *kind;
    return handling;
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

  static ActionStep ParseActionStep(const Value& v, const std::vector<SupplierSpec>& suppliers) {
    StepForm form = ReadStepForm(v);
    ActionStep step;
    step.pos = v.pos;
    step.kind = ReadStepKind(form, std::span<const StepKeyword<ActionStep::Kind>>(kActionStepKeywords), "action step");
    switch (step.kind) {
      case ActionStep::Kind::kCall: ParseCall(*form.arg, suppliers, step); break;
      case ActionStep::Kind::kMemory:
      case ActionStep::Kind::kRecall:
      case ActionStep::Kind::kMemoryAdd: step.name = ReadName(*form.arg); break;
      case ActionStep::Kind::kEmit:
        step.name = ReadName(*form.arg);
        if (step.name == kInputEventType) {
          Fail(form.arg->pos, "an action cannot emit 'input': input events come only from the source");
        }
        break;
      case ActionStep::Kind::kOutput: break;
    }
    return step;
  }

  // `call: llm` or `call: {supplier: llm, mode: async, arg: {from: attempt}}`.
  static void ParseCall(const Value& arg, const std::vector<SupplierSpec>& suppliers, ActionStep& step) {
    SourcePos name_pos = arg.pos;
    if (arg.node.IsMap()) {
      Mapping call(arg, {"supplier", "mode", "arg"});
      const Value& supplier = call.Require("supplier");
      step.name = ReadName(supplier);
      name_pos = supplier.pos;
      if (const Value* mode = call.Find("mode")) step.mode = ReadCallMode(*mode);
      if (const Value* from = call.Find("arg")) step.arg = ReadArgSource(*from);
    } else {
      step.name = ReadName(arg);
    }
    scenario_checks::CheckSupplierDeclared(suppliers, step.name, name_pos);
  }

  // `arg: {from: acc}` or `arg: {from: attempt}`.
  static ArgSource ReadArgSource(const Value& v) {
    Mapping arg(v, {"from"});
    const Value& from = arg.Require("from");
    const std::string name = ReadString(from);
    if (std::optional<ArgSource> source = ParseName<ArgSource>(name)) return *source;
    Fail(from.pos, fmt::format("unknown argument source {} for 'from'; expected one of: {}", Quoted(name),
                               NameList<ArgSource>()));
  }

  static CallMode ReadCallMode(const Value& mode) {
    std::string text = ReadString(mode);
    if (text == "async") return CallMode::kAsync;
    if (text != "sync") Fail(mode.pos, fmt::format("expected sync or async for 'mode', got {}", Describe(mode.node)));
    return CallMode::kSync;
  }

  // --- Inputs and attempts -------------------------------------------------

  // The choice a value names among an enum's names (`what` is its key):
  // `unknown <what> '<s>'; expected one of: ...` at the value otherwise.
  template <typename Enum>
  static Enum ReadChoice(const Value& v, const char* what) {
    const std::string name = ReadString(v);
    const std::optional<Enum> choice = ParseName<Enum>(name);
    if (!choice) Fail(v.pos, fmt::format("unknown {} {}; expected one of: {}", what, Quoted(name), NameList<Enum>()));
    return *choice;
  }

  // `durable: {execution: on | off, pending: every_call | reconcilable,
  // async: executor | sync_fallback}`.
  void ParseDurable(const Value& v) {
    Mapping map(v, {"execution", "pending", "async", "engine"});
    if (const Value* f = map.Find("engine")) {
      const ExecutionEngine engine = ReadChoice<ExecutionEngine>(*f, "engine");
      const Value* async = map.Find("async");
      if (engine == ExecutionEngine::kWorkerPool && async != nullptr && ReadString(*async) == "sync_fallback") {
        Fail(f->pos, "the worker_pool engine is what replaces the sync fallback: its workers wait for async calls "
                     "off the lock; drop 'async: sync_fallback' or the engine");
      }
      scenario_.durable.engine = engine;
    }
    if (const Value* f = map.Find("async")) {
      const std::string word = ReadString(*f);
      if (word != "executor" && word != "sync_fallback") {
        Fail(f->pos, fmt::format("expected executor or sync_fallback for 'async', got {}", Quoted(word)));
      }
      scenario_.durable.async_executor = word == "executor";
    }
    if (const Value* f = map.Find("execution")) {
      const std::string word = ReadString(*f);
      if (word != "on" && word != "off") {
        Fail(f->pos, fmt::format("expected on or off for 'execution', got {}", Quoted(word)));
      }
      scenario_.durable.execution = word == "on";
    }
    if (const Value* f = map.Find("pending")) scenario_.durable.pending = ReadChoice<PendingSlots>(*f, "pending");
  }

  // `store_options: {added_partitions: read_from_start | reject, get:
  // lookup | evict_on_divergence}`: the real store's choices where durasim's
  // differ. added_partitions is a Kafka store's: a Fluss table's buckets are
  // fixed. get is every design's (0.3.0's Fluss get() evicts as the Kafka one).
  void ParseStoreOptions(const Value& v) {
    Mapping map(v, {"added_partitions", "get"});
    if (const Value* f = map.Find("get")) scenario_.store_options.get = ReadChoice<GetEviction>(*f, "get");
    if (const Value* f = map.Find("added_partitions")) {
      const AddedPartitions added = ReadChoice<AddedPartitions>(*f, "added_partitions");
      if (scenario_.store == StoreDesign::kFluss && added != AddedPartitions::kReadFromStart) {
        Fail(f->pos, "'added_partitions' is a Kafka store's choice: a Fluss table's buckets are fixed, and the fluss "
                     "store rejects a bucket-set mismatch already");
      }
      scenario_.store_options.added_partitions = added;
    }
  }

  void ParseInput(const Value& v) {
    Mapping map(v, {"key", "value"});
    InputSpec input;
    input.pos = v.pos;
    input.key = ReadKey(map.Require("key"));
    input.value = ReadInt(map.Require("value"), kInt64Min, kInt64Max);
    scenario_.inputs.push_back(std::move(input));
  }

  void ParseAttempt(const Value& v) {
    Mapping map(v, {"restore", "parallelism", "plan", "log", "steps"});
    AttemptSpec attempt;
    attempt.pos = v.pos;
    if (const Value* log = map.Find("log")) {
      // The log configuration the job deployed from this attempt on runs with.
      Mapping changed(*log, {"tombstones"});
      attempt.tombstones = ReadBool(changed.Require("tombstones"));
    }
    if (const Value* p = map.Find("parallelism")) attempt.parallelism = ReadParallelism(*p);
    parallelism_ = attempt.parallelism.value_or(scenario_.ParallelismOf(static_cast<int>(scenario_.attempts.size())));
    if (const Value* plan = map.Find("plan")) attempt.plan = ParseDeployedPlan(*plan);
    // The restore happens before the attempt's steps, whatever the key order.
    if (const Value* restore = map.Find("restore")) {
      if (restore->node.IsMap()) {
        // `restore: {checkpoint: <id>, markers: [...], during_rebuild: [...]}`: a
        // union list written by hand, steps while the rebuild reads.
        Mapping restored(*restore, {"checkpoint", "markers", "during_rebuild"});
        const Value& id = restored.Require("checkpoint");
        attempt.restore = ReadName(id);
        checkpoints_.CheckRestore(*attempt.restore, id.pos, scenario_.attempts.size(), attempts_node_);
        if (const Value* markers = restored.Find("markers")) {
          attempt.markers.emplace();
          for (const Value& item :
               ReadSequence(*markers, "a hand-made marker", false, limits::kParallelismMax, "kParallelismMax")) {
            attempt.markers->push_back(ReadHandMadeMarker(item));
          }
        }
        if (const Value* during = restored.Find("during_rebuild")) {
          for (const Value& item : ReadSequence(*during, "a step during the rebuild", false, limits::kAttemptStepsMax,
                                                "kAttemptStepsMax")) {
            AttemptStep step = ParseAttemptStep(item);
            if (step.kind != AttemptStep::Kind::kForeign && step.kind != AttemptStep::Kind::kAddPartitions) {
              Fail(item.pos, "a step during a rebuild acts on the log from outside the job: 'foreign' (an append) or "
                             "'add_partitions' (a metadata change)");
            }
            attempt.during_rebuild.push_back(std::move(step));
          }
        }
      } else {
        attempt.restore = ReadName(*restore);
        checkpoints_.CheckRestore(*attempt.restore, restore->pos, scenario_.attempts.size(), attempts_node_);
      }
    }
    for (const Value& item :
         ReadSequence(map.Require("steps"), "an attempt step", false, limits::kAttemptStepsMax, "kAttemptStepsMax")) {
      attempt.steps.push_back(ParseAttemptStep(item));
    }
    scenario_.attempts.push_back(std::move(attempt));
  }

  // One marker of `restore: {markers: [...]}`: `{version, topic, offsets}`,
  // each optional; offsets `checkpoint`, `log_end` or a partition -> offset
  // mapping. (A fluss marker is its offsets only: NotRunnableOn.)
  HandMadeMarkerSpec ReadHandMadeMarker(const Value& v) const {
    Mapping map(v, {"version", "topic", "offsets"});
    HandMadeMarkerSpec marker;
    marker.pos = v.pos;
    if (const Value* f = map.Find("version")) marker.version = static_cast<int32_t>(ReadInt(*f, 0, 1000));
    if (const Value* f = map.Find("topic")) {
      if (marker.version == RecoveryMarker::kLegacyVersion) {
        Fail(f->pos, "a version-1 marker is the bare partition -> offset map: it names no topic");
      }
      marker.topic = ReadString(*f);
    }
    if (const Value* f = map.Find("offsets")) {
      if (f->node.IsMap()) {
        marker.offsets = HandMadeMarkerSpec::Offsets::kStated;
        marker.stated = ReadMarkerOffsets(*f);
      } else {
        const std::string word = ReadString(*f);
        if (word == "checkpoint") {
          marker.offsets = HandMadeMarkerSpec::Offsets::kCheckpoint;
        } else if (word == "log_end") {
          marker.offsets = HandMadeMarkerSpec::Offsets::kLogEnd;
        } else {
          Fail(f->pos, fmt::format("unknown marker offsets {}; expected checkpoint, log_end or a mapping of "
                                   "partitions to offsets",
                                   Quoted(word)));
        }
      }
    }
    return marker;
  }

  // A partition -> offset mapping (`{0: 3, 1: 0}`).
  static MarkerOffsets ReadMarkerOffsets(const Value& v) {
    if (!v.node.IsMap()) {
      Fail(v.pos, fmt::format("expected a mapping of partitions to offsets, got {}", Describe(v.node)));
    }
    MarkerOffsets offsets;
    for (auto it = v.node.begin(); it != v.node.end(); ++it) {
      const Value key{it->first, PosOf(it->first.Mark()), "a partition"};
      const Value offset = ValueOf(it->first, it->second);
      const auto partition = static_cast<int32_t>(ReadInt(key, 0, kPartitionsMax - 1, "kPartitionsMax"));
      if (!offsets.emplace(partition, ReadInt(offset, 0, kInt64Max)).second) {
        Fail(key.pos, fmt::format("partition {} is stated twice", partition));
      }
    }
    return offsets;
  }

  // A parallelism: at least 1 and at most the max parallelism (Flink: every
  // subtask owns at least one key group).
  int32_t ReadParallelism(const Value& v) const {
    if (scenario_.max_parallelism > limits::kParallelismMax) {
      return static_cast<int32_t>(ReadInt(v, 1, limits::kParallelismMax, "kParallelismMax"));
    }
    return static_cast<int32_t>(ReadInt(v, 1, scenario_.max_parallelism));
  }

  // `plan: {suppliers: [...], actions: [...]}`: a new version of the agent.
  // A part left out is the one of the plan in effect before this attempt.
  PlanSpec ParseDeployedPlan(const Value& v) {
    const int attempt = static_cast<int>(scenario_.attempts.size()) + 1;
    const PlanSpec* before = scenario_.DeployedPlan(attempt - 1);
    const std::vector<SupplierSpec>& suppliers_before = before ? before->suppliers : scenario_.suppliers;
    const std::vector<ActionSpec>& actions_before = before ? before->actions : scenario_.actions;
    Mapping map(v, {"suppliers", "actions"});
    const Value* suppliers = map.Find("suppliers");
    const Value* actions = map.Find("actions");
    if (suppliers == nullptr && actions == nullptr) {
      Fail(v.pos, "a plan needs 'suppliers', 'actions' or both: the parts of the agent this attempt deploys anew");
    }
    PlanSpec plan;
    plan.pos = v.pos;
    PlanNames names;
    plan.suppliers = suppliers != nullptr ? ParseSuppliers(*suppliers, names) : suppliers_before;
    if (actions != nullptr) {
      plan.actions = ParseActions(*actions, plan.suppliers, names);
      CheckKeepsActions(plan.actions, actions_before, *actions);
      return plan;
    }
    plan.actions = actions_before;
    for (const ActionSpec& action : plan.actions) {
      for (const ActionStep& step : action.steps) {
        if (step.kind != ActionStep::Kind::kCall) continue;
        if (std::none_of(plan.suppliers.begin(), plan.suppliers.end(),
                         [&](const SupplierSpec& supplier) { return supplier.name == step.name; })) {
          Fail(suppliers->pos, fmt::format("the plan's suppliers leave out '{}', which action '{}' calls at {}; "
                                           "deploy the actions anew too",
                                           step.name, action.name, PosText(step.pos)));
        }
      }
    }
    return plan;
  }

  // A deployed plan keeps the actions, in order, each listening on what it
  // listened on: a queued task in keyed state names its action by position.
  static void CheckKeepsActions(const std::vector<ActionSpec>& actions, const std::vector<ActionSpec>& before,
                                const Value& node) {
    for (size_t i = 0; i < actions.size() || i < before.size(); ++i) {
      if (i >= actions.size()) {
        Fail(node.pos, fmt::format("the plan leaves out action '{}': a plan keeps every action, in order, and may "
                                   "change its steps, on_error and calls",
                                   before[i].name));
      }
      if (i >= before.size()) {
        Fail(actions[i].pos, fmt::format("the plan adds action '{}': a plan keeps the actions it replaces, in order, "
                                         "and may change their steps, on_error and calls",
                                         actions[i].name));
      }
      if (actions[i].name != before[i].name) {
        Fail(actions[i].pos, fmt::format("expected action '{}' here, found '{}': a plan keeps every action, in order",
                                         before[i].name, actions[i].name));
      }
      if (actions[i].on != before[i].on) {
        Fail(actions[i].pos, fmt::format("action '{}' changes what it listens on: a plan keeps each action's 'on'",
                                         actions[i].name));
      }
    }
  }

  AttemptStep ParseAttemptStep(const Value& v) {
    StepForm form = ReadStepForm(v);
    AttemptStep step;
    step.pos = v.pos;
    step.kind = ReadStepKind(form, AttemptStepKeywords(), "attempt step");
    switch (step.kind) {
      case AttemptStep::Kind::kRead: step.count = ReadCount(*form.arg); break;
      case AttemptStep::Kind::kCheckpoint:
        step.checkpoint = ReadName(*form.arg);
        checkpoints_.Take(step.checkpoint, form.arg->pos);
        break;
      case AttemptStep::Kind::kComplete:
        ParseComplete(*form.arg, step);
        checkpoints_.Complete(step.checkpoint, form.arg->pos);
        break;
      case AttemptStep::Kind::kAbort:
        step.checkpoint = ReadName(*form.arg);
        checkpoints_.Abort(step.checkpoint, form.arg->pos);
        break;
      case AttemptStep::Kind::kRun:
      case AttemptStep::Kind::kCrash:
      case AttemptStep::Kind::kRecreateTopic:
      case AttemptStep::Kind::kCompact: break;
      case AttemptStep::Kind::kRunFor: step.duration_ms = ReadInt(*form.arg, 1, kDurationMsMax, "kDurationMsMax"); break;
      case AttemptStep::Kind::kArm: ParseArm(*form.arg, step); break;
      case AttemptStep::Kind::kBrokerDown:
      case AttemptStep::Kind::kSlowFetch: {
        Mapping window(*form.arg, {"for_ms"});
        step.duration_ms = ReadInt(window.Require("for_ms"), 1, kDurationMsMax, "kDurationMsMax");
        break;
      }
      case AttemptStep::Kind::kCorrupt: ParseCorrupt(*form.arg, step); break;
      case AttemptStep::Kind::kDeleteRecords: ParseDeleteRecords(*form.arg, step); break;
      case AttemptStep::Kind::kForeign: ParseForeign(*form.arg, step); break;
      case AttemptStep::Kind::kAddPartitions: {
        Value added{form.arg->node, form.arg->pos, "'add_partitions' (how many partitions are added)"};
        if (partitions_now_ >= kPartitionsMax) {
          Fail(form.pos, fmt::format("add_partitions: the topic already has {} partitions at this step, the most a "
                                     "scenario may have (kPartitionsMax, docs/scenarios.md \"Limits\"): none can be added",
                                     partitions_now_));
        }
        step.count = ReadInt(added, 1, kPartitionsMax - partitions_now_, "kPartitionsMax");
        partitions_now_ += static_cast<int32_t>(step.count);
        break;
      }
    }
    return step;
  }

  static int64_t ReadCount(const Value& v) {
    if (v.node.IsScalar() && v.node.Scalar() == "all") return -1;
    Value count{v.node, v.pos, "'read' (or 'all')"};
    return ReadInt(count, 1, kCountMax, "kCountMax");
  }

  // `complete: <id>` or `complete: {id: <id>, notify: false}` (completed
  // without notifying the operator: Flink's notifications are best-effort).
  static void ParseComplete(const Value& arg, AttemptStep& step) {
    if (!arg.node.IsMap()) {
      step.checkpoint = ReadName(arg);
      return;
    }
    Mapping complete(arg, {"id", "notify"});
    step.checkpoint = ReadName(complete.Require("id"));
    if (const Value* notify = complete.Find("notify")) step.notify = ReadBool(*notify);
  }

  void ParseArm(const Value& arg, AttemptStep& step) const {
    Mapping arm(arg, {"fault", "nth", "subtask", "put", "key", "seq", "action", "call"});
    step.fault = ReadFault(arm.Require("fault"));
    if (const Value* nth = arm.Find("nth")) step.nth = ReadInt(*nth, 1, kCountMax, "kCountMax");
    if (const Value* subtask = arm.Find("subtask")) {
      step.subtask = static_cast<int32_t>(ReadInt(*subtask, 0, parallelism_ - 1));
    }
    ParseSelector(arm, step);
  }

  // Which points of its kind a fault counts (FaultSelector): each field must
  // be one the kind's points have, and name something the scenario has.
  void ParseSelector(const Mapping& arm, AttemptStep& step) const {
    FaultSelector& select = step.select;
    const FaultTarget target = TargetOf(step.fault);
    auto refuse = [&](const char* field, const Value& v) {
      Fail(v.pos, fmt::format("'{}' cannot aim fault {}: {}", field, NameOf(step.fault), TargetDescription(target)));
    };
    if (const Value* put = arm.Find("put")) {
      if (target != FaultTarget::kPut) refuse("put", *put);
      select.put = ReadPut(*put, step.fault);
      if (select.put == PutPoint::kRewrite && scenario_.store != StoreDesign::kKafkaRewrite) {
        Fail(put->pos, fmt::format("only store design kafka-rewrite writes rewrites; this scenario's is {}: add "
                                   "`store: kafka-rewrite`",
                                   NameOf(scenario_.store)));
      }
    }
    for (const char* field : {"key", "seq", "action", "call"}) {
      if (const Value* v = arm.Find(field); v != nullptr && target == FaultTarget::kCheckpoint) refuse(field, *v);
    }
    if (const Value* key = arm.Find("key")) {
      select.key = ReadKey(*key);
      const bool known = std::any_of(scenario_.inputs.begin(), scenario_.inputs.end(),
                                     [&](const InputSpec& input) { return input.key == *select.key; });
      if (!known) Fail(key->pos, fmt::format("no input has key {}: a fault aimed at it could never fire", Quoted(*select.key, '"')));
    }
    if (const Value* seq = arm.Find("seq")) {
      select.seq = ReadInt(*seq, 1, kCountMax, "kCountMax");
      CheckSeqInRange(*seq, *select.seq, select.key);
    }
    if (const Value* action = arm.Find("action")) {
      select.action = ReadString(*action);
      const bool known = std::any_of(scenario_.actions.begin(), scenario_.actions.end(),
                                     [&](const ActionSpec& a) { return a.name == *select.action; });
      if (!known) Fail(action->pos, fmt::format("no action is named {}", Quoted(*select.action)));
    }
    if (const Value* call = arm.Find("call")) {
      if (select.put && select.put != PutPoint::kPending && select.put != PutPoint::kResult) {
        Fail(call->pos, fmt::format("'call' aims at a durable call, but a {} put belongs to no call; expected put: "
                                    "pending or result",
                                    NameOf(*select.put)));
      }
      select.call = static_cast<int32_t>(ReadInt(*call, 0, kCountMax, "kCountMax"));
      CheckCallInRange(*call, *select.call, select.action);
    }
  }

  // An aimed fault that can never fire is a typo, unless the file says
  // unfired arms are expected (`expect: {allow_unfired: true}`, as every
  // generated file does: its arms are drawn blind). `nth` is not checked:
  // how many points an attempt reaches is known only by running it.
  void CheckSeqInRange(const Value& v, int64_t seq, const std::optional<std::string>& key) const {
    if (allow_unfired_) return;
    std::map<std::string, int64_t> inputs_per_key;
    for (const InputSpec& input : scenario_.inputs) ++inputs_per_key[input.key];
    int64_t most = 0;
    for (const auto& [k, n] : inputs_per_key) {
      if (!key || k == *key) most = std::max(most, n);
    }
    if (seq <= most) return;
    const std::string whose = key ? fmt::format("key {} has", Quoted(*key, '"')) : std::string("no key has more than");
    Fail(v.pos, fmt::format("seq {} can never come: {} {} input{}; expected an integer in [1, {}] (or `expect: "
                            "{{allow_unfired: true}}`)",
                            seq, whose, most, most == 1 ? "" : "s", most));
  }
  void CheckCallInRange(const Value& v, int32_t call, const std::optional<std::string>& action) const {
    if (allow_unfired_ || deploys_plans_) return;  // a plan deployed later may have more calls
    int32_t most = 0;
    for (const ActionSpec& a : scenario_.actions) {
      if (action && a.name != *action) continue;
      // Each try of a retried call takes the next index (on_error: retry).
      const auto calls = std::count_if(a.steps.begin(), a.steps.end(),
                                       [](const ActionStep& s) { return s.kind == ActionStep::Kind::kCall; });
      most = std::max(most, static_cast<int32_t>(calls * a.on_error.tries_max()));
    }
    if (call < most) return;
    if (most == 0) {
      Fail(v.pos, fmt::format("call {} can never come: {} a durable call", call,
                              action ? fmt::format("action {} makes no", Quoted(*action)) : std::string("no action makes")));
    }
    const std::string whose =
        action ? fmt::format("action {} makes", Quoted(*action)) : std::string("no action makes more than");
    Fail(v.pos, fmt::format("call {} can never come: {} {} durable call{} (each try of a retried call counts; calls "
                            "count from 0); expected an integer in [0, {}] (or `expect: {{allow_unfired: true}}`)",
                            call, whose, most, most == 1 ? "" : "s", most - 1));
  }

  static bool PeekAllowUnfired(const Mapping& top) {
    const Value* expect = top.Find("expect");
    if (expect == nullptr || !expect->node.IsMap()) return false;
    const YAML::Node& node = expect->node;  // const: reading does not add the key
    const YAML::Node flag = node["allow_unfired"];
    return flag && flag.IsScalar() && flag.Scalar() == "true";  // ParseExpect reads it strictly later
  }
  static bool DeploysPlans(const YAML::Node& attempts) {
    if (!attempts.IsSequence()) return false;
    for (const YAML::Node& attempt : attempts) {
      if (attempt.IsMap() && attempt["plan"]) return true;
    }
    return false;
  }

  // What a fault kind's points are: its catalog entry's (model/fault_catalog.h).
  using FaultTarget = ArmTarget;
  static FaultTarget TargetOf(FaultKind kind) { return FaultEntryOf(kind)->target; }
  static const char* TargetDescription(FaultTarget target) {
    switch (target) {
      case FaultTarget::kPut: return "its points are writes (put, key, seq, action, call)";
      case FaultTarget::kCall: return "its points are durable calls (key, seq, action, call)";
      case FaultTarget::kCheckpoint: return "its points are checkpoints (nth and subtask only)";
      case FaultTarget::kNone: break;
    }
    return "";
  }

  static PutPoint ReadPut(const Value& v, FaultKind fault) {
    const std::string name = ReadString(v);
    std::optional<PutPoint> put = ParseName<PutPoint>(name);
    if (!put) Fail(v.pos, fmt::format("unknown put {}; expected one of: {}", Quoted(name), NameList<PutPoint>()));
    // Tombstones are sent without waiting: nothing waits for one to
    // cancel, and no acknowledgement reaches anyone, lost or not.
    if (*put == PutPoint::kTombstone && (fault == FaultKind::kCancelPut || fault == FaultKind::kCrashAfterPutAcked ||
                                         fault == FaultKind::kLoseAck)) {
      Fail(v.pos, fmt::format("a tombstone is sent without waiting for its acknowledgement, so {} never fires on one "
                              "or changes nothing; expected one of: start, pending, result, complete, cleanup",
                              NameOf(fault)));
    }
    // A cleanup record's acknowledgement is awaited by the prune's tail
    // (its tombstones wait for it), which is no action's wait: there is
    // nothing to cancel.
    if (*put == PutPoint::kCleanup && fault == FaultKind::kCancelPut) {
      Fail(v.pos, "a cleanup record's acknowledgement is awaited by the prune's tail, not by an action: cancel_put "
                  "never reaches one; expected one of: start, pending, result, complete");
    }
    // The driver awaits a rewrite while it snapshots: no action's wait to
    // cancel; and only kafka-rewrite rewrites.
    if (*put == PutPoint::kRewrite && fault == FaultKind::kCancelPut) {
      Fail(v.pos, "a rewrite is awaited by the checkpoint, not by an action: cancel_put never reaches one; expected "
                  "one of: start, pending, result, complete");
    }
    return *put;
  }

  static StoreDesign ReadStoreDesign(const Value& v) {
    std::string name = ReadString(v);
    if (std::optional<StoreDesign> design = ParseName<StoreDesign>(name)) return *design;
    Fail(v.pos, fmt::format("unknown store design {}; expected one of: {} (durasim stores-list)", Quoted(name),
                            NameList<StoreDesign>()));
  }

  static FaultKind ReadFault(const Value& v) {
    std::string name = ReadString(v);
    if (std::optional<FaultKind> kind = ParseName<FaultKind>(name)) return *kind;
    Fail(v.pos, fmt::format("unknown fault kind {}; expected one of: {}", Quoted(name), NameList<FaultKind>()));
  }

  void ParseCorrupt(const Value& arg, AttemptStep& step) const {
    Mapping corrupt(arg, {"partition", "offset"});
    if (const Value* p = corrupt.Find("partition")) {
      step.partition = static_cast<int32_t>(ReadInt(*p, 0, partitions_now_ - 1));
    }
    step.offset = ReadInt(corrupt.Require("offset"), 0, kInt64Max);
  }

  // `foreign: {partition, key | key_of, value | value_of | tombstone: true}`:
  // a record appended from outside the run (docs/scenarios.md, "Records the
  // run did not write").
  void ParseForeign(const Value& arg, AttemptStep& step) const {
    Mapping foreign(arg, {"partition", "key", "key_of", "value", "value_of", "tombstone"});
    if (const Value* p = foreign.Find("partition")) {
      step.partition = static_cast<int32_t>(ReadInt(*p, 0, partitions_now_ - 1));
    }
    ForeignRecordSpec& record = step.foreign;
    const Value* key = foreign.Find("key");
    const Value* key_of = foreign.Find("key_of");
    if (key != nullptr && key_of != nullptr) {
      Fail(key_of->pos, "'foreign' takes 'key' or 'key_of' (the key of the record at that offset), not both");
    }
    if (key == nullptr && key_of == nullptr) {
      Fail(arg.pos, "'foreign' needs 'key' (the record key) or 'key_of' (the offset of a record whose key it takes)");
    }
    for (const Value* bytes : {key, foreign.Find("value")}) {
      if (bytes != nullptr && bytes->node.Tag() == "!long") {
        Fail(bytes->pos, fmt::format("{} of a foreign record is bytes, not an input key: write a string or !!binary",
                                     bytes->what));
      }
    }
    if (key != nullptr) record.key = ReadBytes(*key);
    if (key_of != nullptr) record.key_of = ReadInt(*key_of, 0, kInt64Max);
    const Value* value = foreign.Find("value");
    const Value* value_of = foreign.Find("value_of");
    const Value* tombstone = foreign.Find("tombstone");
    if (tombstone != nullptr) record.tombstone = ReadBool(*tombstone);
    const int given = (value != nullptr) + (value_of != nullptr) + (record.tombstone ? 1 : 0);
    if (given > 1) {
      const Value* second = value_of != nullptr && (value != nullptr || record.tombstone) ? value_of : tombstone;
      Fail(second->pos, "'foreign' takes one of 'value', 'value_of' and 'tombstone: true'");
    }
    if (given == 0) {
      Fail(arg.pos, "'foreign' needs 'value' (text), 'value_of' (the offset of a record whose value it takes) or "
                    "'tombstone: true'");
    }
    if (value != nullptr) {
      record.value = ReadBytes(*value);
      if (record.value->empty()) Fail(value->pos, "an empty value is a tombstone; write 'tombstone: true'");
    }
    if (value_of != nullptr) record.value_of = ReadInt(*value_of, 0, kInt64Max);
  }

  void ParseDeleteRecords(const Value& arg, AttemptStep& step) const {
    Mapping deleted(arg, {"partition", "before_offset"});
    if (const Value* p = deleted.Find("partition")) {
      step.partition = static_cast<int32_t>(ReadInt(*p, 0, partitions_now_ - 1));
    }
    step.offset = ReadInt(deleted.Require("before_offset"), 0, kInt64Max);
  }

  // --- The expectation -----------------------------------------------------

  void ParseExpect(const Value& v) {
    Mapping map(v, {"verdict", "outputs", "supplier_calls", "unfinished", "allow_unfired", "calls_by_supplier",
                    "calls_by_input", "fired", "attempts", "restore_scanned_max", "log", "restores", "checkpoints",
                    "completions"});
    Expectation& expect = scenario_.expect;
    expect.pos = v.pos;
    if (const Value* f = map.Find("verdict")) expect.verdict = ReadVerdict(*f);
    if (const Value* f = map.Find("outputs")) {
      expect.outputs.emplace();
      for (const Value& item : ReadSequence(*f, "an 'outputs' entry", false)) {
        expect.outputs->push_back(ReadInt(item, kInt64Min, kInt64Max));
      }
    }
    if (const Value* f = map.Find("supplier_calls")) expect.supplier_calls = ReadInt(*f, 0, kInt64Max);
    if (const Value* f = map.Find("unfinished")) ReadUnfinished(*f, expect);
    if (const Value* f = map.Find("allow_unfired")) expect.allow_unfired = ReadBool(*f);
    if (const Value* f = map.Find("calls_by_supplier")) ReadCallsBySupplier(*f, expect);
    if (const Value* f = map.Find("calls_by_input")) {
      for (const Value& item : ReadSequence(*f, "a 'calls_by_input' entry", false)) {
        expect.calls_by_input.push_back(ReadInt(item, 0, kInt64Max));
      }
      if (expect.calls_by_input.size() != scenario_.inputs.size()) {
        Fail(f->pos, fmt::format("'calls_by_input' has {} counts, but the scenario has {} inputs: one count per "
                                 "input, in the order of 'inputs'",
                                 expect.calls_by_input.size(), scenario_.inputs.size()));
      }
    }
    if (const Value* f = map.Find("fired")) {
      for (const Value& item : ReadSequence(*f, "a 'fired' entry", false)) expect.fired.push_back(ReadBool(item));
      const size_t arms = ArmSteps();
      if (expect.fired.size() != arms) {
        Fail(f->pos, fmt::format("'fired' has {} entries, but the attempts arm {} faults: one true or false per arm "
                                 "step, in file order",
                                 expect.fired.size(), arms));
      }
    }
    if (const Value* f = map.Find("attempts")) {
      for (const Value& item : ReadSequence(*f, "an 'attempts' entry", false)) {
        const std::string name = ReadString(item);
        if (!IsAttemptEndName(name)) {
          Fail(item.pos, fmt::format("unknown attempt end {}; expected one of: {}", Quoted(name), AttemptEndNames()));
        }
        expect.attempt_ends.push_back(name);
      }
      if (expect.attempt_ends.size() != scenario_.attempts.size()) {
        Fail(f->pos, fmt::format("'attempts' has {} entries, but the scenario has {} attempts: one end per attempt",
                                 expect.attempt_ends.size(), scenario_.attempts.size()));
      }
    }
    if (const Value* f = map.Find("restore_scanned_max")) expect.restore_scanned_max = ReadInt(*f, 0, kInt64Max);
    ReadExpectedStoreContents(map, expect);
  }

  // `log:`, `restores:`, `checkpoints:` and `completions:`: what the store
  // holds and caches and the markers it wrote and read, which differ by
  // design (kafka-rewrite writes unfinished states again at each snapshot;
  // markers point elsewhere).
  void ReadExpectedStoreContents(const Mapping& map, Expectation& expect) const {
    for (const char* key : {"log", "restores", "checkpoints", "completions"}) {
      const Value* f = map.Find(key);
      if (f == nullptr) continue;
      if (!scenario_.store_named) {
        Fail(f->pos, fmt::format("'{}' states {}, which differ by store design: name the design with 'store:' "
                                 "(durasim stores-list)",
                                 key, std::string_view(key) == "log"           ? "the topic's records"
                                      : std::string_view(key) == "completions" ? "what the store caches"
                                                                               : "recovery markers"));
      }
      if (std::string_view(key) == "log") {
        ReadExpectedLog(*f, expect);
      } else if (std::string_view(key) == "restores") {
        ReadExpectedRestores(*f, expect);
      } else if (std::string_view(key) == "completions") {
        ReadExpectedCompletions(*f, expect);
      } else {
        ReadExpectedCheckpoints(*f, expect);
      }
    }
  }

  // `restores:` a list of {attempt, subtask, marker, cache, rejected}.
  void ReadExpectedRestores(const Value& v, Expectation& expect) const {
    for (const Value& item : ReadSequence(v, "a 'restores' entry", false)) {
      Mapping map(item, {"attempt", "subtask", "marker", "cache", "rejected"});
      ExpectedRestore restore;
      restore.pos = item.pos;
      const Value& attempt = map.Require("attempt");
      restore.attempt = static_cast<int>(ReadInt(attempt, 1, static_cast<int64_t>(scenario_.attempts.size())));
      if (!scenario_.attempts[static_cast<size_t>(restore.attempt - 1)].restore) {
        Fail(attempt.pos, fmt::format("attempt {} starts fresh: it restores nothing", restore.attempt));
      }
      if (const Value* f = map.Find("subtask")) {
        restore.subtask = static_cast<int32_t>(
            ReadInt(*f, 0, scenario_.ParallelismOf(restore.attempt) - 1));
      }
      if (const Value* f = map.Find("marker")) restore.marker = ReadExpectedMarker(*f);
      if (const Value* f = map.Find("cache")) restore.cache = ReadExpectedCache(*f);
      if (const Value* f = map.Find("rejected")) restore.rejected = ReadString(*f);
      expect.restores.push_back(std::move(restore));
    }
  }

  // A list of cached states (`restores:`, `completions:`): records of kind
  // start, pending, result or complete.
  std::vector<ExpectedRecord> ReadExpectedCache(const Value& v) const {
    std::vector<ExpectedRecord> cache;
    for (const Value& state : ReadSequence(v, "a cached state", false)) {
      ExpectedRecord record = ReadExpectedRecord(state);
      if (record.kind != RecordKind::kStart && record.kind != RecordKind::kPending &&
          record.kind != RecordKind::kResult && record.kind != RecordKind::kComplete) {
        Fail(state.pos, fmt::format("a cached state is of kind start, pending, result or complete, not {}",
                                    NameOf(record.kind)));
      }
      cache.push_back(std::move(record));
    }
    return cache;
  }

  // `completions:` a list of {checkpoint, subtask, cache}: what a subtask's
  // store caches right after the checkpoint's completion notice.
  void ReadExpectedCompletions(const Value& v, Expectation& expect) const {
    for (const Value& item : ReadSequence(v, "a 'completions' entry", false)) {
      Mapping map(item, {"checkpoint", "subtask", "cache"});
      ExpectedCompletion completion;
      completion.pos = item.pos;
      const Value& id = map.Require("checkpoint");
      completion.checkpoint = ReadName(id);
      if (!checkpoints_.Taken(completion.checkpoint)) {
        Fail(id.pos, fmt::format("no attempt takes checkpoint {}", Quoted(completion.checkpoint)));
      }
      if (!checkpoints_.Completed(completion.checkpoint)) {
        Fail(id.pos, fmt::format("no attempt completes checkpoint {}: no completion notice can come",
                                 Quoted(completion.checkpoint)));
      }
      if (const Value* f = map.Find("subtask")) {
        int64_t subtasks = 1;
        for (size_t a = 1; a <= scenario_.attempts.size(); ++a) {
          subtasks = std::max<int64_t>(subtasks, scenario_.ParallelismOf(static_cast<int>(a)));
        }
        completion.subtask = static_cast<int32_t>(ReadInt(*f, 0, subtasks - 1));
      }
      completion.cache = ReadExpectedCache(map.Require("cache"));
      expect.completions.push_back(std::move(completion));
    }
  }

  // `checkpoints:` a list of {id, markers}.
  void ReadExpectedCheckpoints(const Value& v, Expectation& expect) const {
    for (const Value& item : ReadSequence(v, "a 'checkpoints' entry", false)) {
      Mapping map(item, {"id", "markers"});
      ExpectedCheckpoint checkpoint;
      checkpoint.pos = item.pos;
      checkpoint.id = ReadName(map.Require("id"));
      if (!checkpoints_.Taken(checkpoint.id)) {
        Fail(map.Require("id").pos, fmt::format("no attempt takes checkpoint {}", Quoted(checkpoint.id)));
      }
      for (const Value& marker : ReadSequence(map.Require("markers"), "a marker", false)) {
        checkpoint.markers.push_back(ReadExpectedMarker(marker));
      }
      expect.checkpoints.push_back(std::move(checkpoint));
    }
  }

  // `{version, topic, offsets, completed}`, each optional.
  static ExpectedMarker ReadExpectedMarker(const Value& v) {
    Mapping map(v, {"version", "topic", "offsets", "completed"});
    ExpectedMarker marker;
    marker.pos = v.pos;
    if (const Value* f = map.Find("version")) marker.version = static_cast<int32_t>(ReadInt(*f, 0, 1000));
    if (const Value* f = map.Find("topic")) marker.topic = ReadString(*f);
    if (const Value* f = map.Find("offsets")) marker.offsets = ReadMarkerOffsets(*f);
    if (const Value* f = map.Find("completed")) {
      if (!f->node.IsMap()) {
        Fail(f->pos, fmt::format("expected a mapping of input keys to sequence numbers, got {}", Describe(f->node)));
      }
      marker.completed.emplace();
      for (auto it = f->node.begin(); it != f->node.end(); ++it) {
        const Value key{it->first, PosOf(it->first.Mark()), "an input key"};
        (*marker.completed)[ReadKey(key)] = ReadInt(ValueOf(it->first, it->second), -1, kInt64Max);
      }
    }
    return marker;
  }

  // `log:` a list of {partition, records}: each record's kind, and what else
  // it states.
  void ReadExpectedLog(const Value& v, Expectation& expect) const {
    std::set<int32_t> seen;
    for (const Value& item : ReadSequence(v, "a 'log' partition", true, kPartitionsMax, "kPartitionsMax")) {
      Mapping map(item, {"partition", "records"});
      ExpectedPartition partition;
      partition.pos = item.pos;
      if (const Value* p = map.Find("partition")) {
        partition.partition = static_cast<int32_t>(ReadInt(*p, 0, kPartitionsMax - 1, "kPartitionsMax"));
      }
      if (!seen.insert(partition.partition).second) {
        Fail(item.pos, fmt::format("partition {} is stated twice in 'log'", partition.partition));
      }
      for (const Value& record : ReadSequence(map.Require("records"), "a record", false, limits::kLogRecordsMax,
                                              "kLogRecordsMax")) {
        partition.records.push_back(ReadExpectedRecord(record));
      }
      expect.log.push_back(std::move(partition));
    }
  }

  static ExpectedRecord ReadExpectedRecord(const Value& v) {
    Mapping map(v, {"kind", "key", "seq", "action", "calls", "outputs", "memory", "events"});
    ExpectedRecord record;
    record.pos = v.pos;
    const Value& kind = map.Require("kind");
    const std::string name = ReadString(kind);
    std::optional<RecordKind> parsed = ParseName<RecordKind>(name);
    if (!parsed) {
      Fail(kind.pos, fmt::format("unknown record kind {}; expected one of: {}", Quoted(name), NameList<RecordKind>()));
    }
    record.kind = *parsed;
    if (const Value* f = map.Find("key")) record.key = ReadKey(*f);
    if (const Value* f = map.Find("seq")) record.seq = ReadInt(*f, 0, kInt64Max);
    if (const Value* f = map.Find("action")) record.action = ReadName(*f);
    if (const Value* f = map.Find("calls")) {
      record.calls.emplace();
      for (const Value& call : ReadSequence(*f, "a call slot", false, limits::kCallResultsPerActionMax,
                                            "kCallResultsPerActionMax")) {
        record.calls->push_back(ReadExpectedCall(call));
      }
    }
    if (const Value* f = map.Find("outputs")) {
      record.outputs.emplace();
      for (const Value& output : ReadSequence(*f, "an output", false)) {
        record.outputs->push_back(ReadInt(output, kInt64Min, kInt64Max));
      }
    }
    if (const Value* f = map.Find("memory")) {
      record.memory.emplace();
      for (const Value& item : ReadSequence(*f, "a memory update", false)) {
        Mapping update(item, {"slot", "value"});
        record.memory->push_back(
            MemoryUpdate{ReadName(update.Require("slot")), ReadInt(update.Require("value"), kInt64Min, kInt64Max)});
      }
    }
    if (const Value* f = map.Find("events")) {
      record.events.emplace();
      for (const Value& item : ReadSequence(*f, "an emitted event", false)) {
        Mapping event(item, {"type", "value"});
        record.events->push_back(
            EmittedEvent{ReadName(event.Require("type")), ReadInt(event.Require("value"), kInt64Min, kInt64Max)});
      }
    }
    return record;
  }

  static ExpectedCall ReadExpectedCall(const Value& v) {
    Mapping map(v, {"fn", "status", "result", "error"});
    ExpectedCall call;
    call.pos = v.pos;
    if (const Value* f = map.Find("fn")) call.function = ReadName(*f);
    if (const Value* f = map.Find("status")) {
      const std::string name = ReadString(*f);
      for (CallStatus status : {CallStatus::kPending, CallStatus::kSucceeded, CallStatus::kFailed}) {
        if (name == CallStatusName(status)) call.status = status;
      }
      if (!call.status) {
        Fail(f->pos, fmt::format("unknown call status {}; expected one of: PENDING, SUCCEEDED, FAILED", Quoted(name)));
      }
    }
    if (const Value* f = map.Find("result")) call.result = ReadInt(*f, kInt64Min, kInt64Max);
    if (const Value* f = map.Find("error")) call.error = ReadString(*f);
    return call;
  }

  size_t ArmSteps() const {
    size_t arms = 0;
    for (const AttemptSpec& attempt : scenario_.attempts) {
      for (const AttemptStep& step : attempt.steps) arms += step.kind == AttemptStep::Kind::kArm ? 1 : 0;
    }
    return arms;
  }

  // The names Attempt::End has in traces and reports.
  static const std::vector<std::string>& AttemptEnds() {
    static const std::vector<std::string> names = {"finished", "crashed", "failed", "restore-rejected", "stuck",
                                                   "error"};
    return names;
  }
  static bool IsAttemptEndName(const std::string& name) {
    return std::find(AttemptEnds().begin(), AttemptEnds().end(), name) != AttemptEnds().end();
  }
  static std::string AttemptEndNames() { return fmt::format("{}", fmt::join(AttemptEnds(), ", ")); }

  // `calls_by_supplier: {<supplier>: <count>, ...}`: suppliers of the scenario's plan or a deployed one.
  void ReadCallsBySupplier(const Value& v, Expectation& expect) const {
    if (!v.node.IsMap()) {
      Fail(v.pos, fmt::format("expected a mapping of supplier names to counts for 'calls_by_supplier', got {}",
                              Describe(v.node)));
    }
    for (auto it = v.node.begin(); it != v.node.end(); ++it) {
      const Value key{it->first, PosOf(it->first.Mark()), "a supplier name"};
      const Value count = ValueOf(it->first, it->second);
      const std::string name = ReadString(key);
      if (!KnownSupplier(name)) Fail(key.pos, fmt::format("no supplier is named {}", Quoted(name)));
      expect.calls_by_supplier[name] = ReadInt(count, 0, kInt64Max);
    }
  }

  bool KnownSupplier(const std::string& name) const {
    auto named = [&](const std::vector<SupplierSpec>& suppliers) {
      return std::any_of(suppliers.begin(), suppliers.end(), [&](const SupplierSpec& s) { return s.name == name; });
    };
    if (named(scenario_.suppliers)) return true;
    return std::any_of(scenario_.attempts.begin(), scenario_.attempts.end(),
                       [&](const AttemptSpec& a) { return a.plan.has_value() && named(a.plan->suppliers); });
  }

  // `unfinished: all` or `unfinished: [<input position>, ...]` (0-based, in `inputs`).
  void ReadUnfinished(const Value& v, Expectation& expect) const {
    if (v.node.IsScalar() && v.node.Scalar() == "all") {
      expect.unfinished_all = true;
      return;
    }
    if (!v.node.IsSequence()) {
      Fail(v.pos, fmt::format("expected all or a sequence of input positions for 'unfinished', got {}",
                              Describe(v.node)));
    }
    const int64_t last = static_cast<int64_t>(scenario_.inputs.size()) - 1;
    if (last < 0) Fail(v.pos, "'unfinished' names inputs, but the scenario has none");
    for (const Value& item : ReadSequence(v, "an 'unfinished' entry", false)) {
      expect.unfinished.push_back(ReadInt(item, 0, last));
    }
  }

  static ExpectedVerdict ReadVerdict(const Value& v) {
    const std::string name = ReadString(v);
    std::optional<ExpectedVerdict> verdict = ParseExpectedVerdict(name);
    if (!verdict) Fail(v.pos, fmt::format("unknown verdict {}; expected one of: {}", Quoted(name), ExpectedVerdictNames()));
    return *verdict;
  }

  Scenario scenario_;
  int32_t parallelism_ = 1;  // of the attempt being parsed
  // The topic's partitions at the step being parsed (add_partitions grows it).
  int32_t partitions_now_ = 1;
  CheckpointLedger checkpoints_;
  YAML::Node attempts_node_;
  bool allow_unfired_ = false;  // the file's expect.allow_unfired, peeked before the attempts
  bool deploys_plans_ = false;  // some attempt deploys a plan
};

Status ErrorAt(const std::string& path, SourcePos pos, const std::string& message) {
  return Status(StatusCode::kInvalidArgument, fmt::format("{}:{}:{}: {}", path, pos.line, pos.column, message));
}

}  // namespace

Result<Scenario> ParseScenario(const std::string& yaml_text, const std::string& path) {
  // yaml-cpp reports everything by exception; none may leave this function.
  try {
    if (static_cast<int64_t>(yaml_text.size()) > limits::kFileBytesMax) {
      Fail(SourcePos{1, 1}, fmt::format("the file is {} bytes long, over the limit of {} (kFileBytesMax, "
                                        "docs/scenarios.md \"Limits\")",
                                        yaml_text.size(), limits::kFileBytesMax));
    }
    CheckPrintable(yaml_text);
    CheckSingleDocument(yaml_text);
    const YAML::Node root = YAML::Load(yaml_text);
    CheckNestingDepth(root);
    Scenario scenario = ScenarioParser().Parse(root);
    scenario.path = path;
    return scenario;
  } catch (const ParseError& error) {
    return ErrorAt(path, error.pos, error.message);
  } catch (const YAML::DeepRecursion& error) {
    // yaml-cpp's own guard stops nesting far past ours while it parses.
    return ErrorAt(path, PosOf(error.mark), NestingTooDeepMessage());
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
  if (!file) return Status(StatusCode::kNotFound, fmt::format("{}: cannot read scenario file", path));
  // Not `text << file.rdbuf()`: on an empty file that inserts nothing and
  // fails, and an empty file is a scenario error at 1:1, not unreadable.
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return Status(StatusCode::kNotFound, fmt::format("{}: cannot read scenario file", path));
  return ParseScenario(text, path);
}

}  // namespace durasim
