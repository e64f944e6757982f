// Tests of the scenario parser (sim/scenario/scenario_parser.cc): a full scenario lands
// in the right fields, defaults apply, and every malformed input, inline or in
// scenarios/malformed/, fails with kInvalidArgument at the right line:column.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/scenario.h"
#include "model/scenario_limits.h"
#include "model/typed_key.h"
#include "sim/scenario/scenario_parser.h"
#include "sim/scenario/scenario_writer.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

namespace fs = std::filesystem;

// Checks `result` is "<path>:<line>:<column>: ..." containing `substring`.
void ExpectErrorAt(const Result<Scenario>& result, const std::string& path, int line, int column,
                   const std::string& substring) {
  ASSERT_FALSE(result.ok()) << "expected an error containing: " << substring;
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument) << result.status().ToString();
  const std::string& message = result.status().message();
  std::string prefix = path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << "message: " << message << "\nexpected prefix: " << prefix;
  EXPECT_NE(message.find(substring), std::string::npos) << "message: " << message << "\nexpected: " << substring;
}

constexpr const char* kFullScenario = R"(# Strategy: every key set, most to a non-default value.
name: full_example
description: "all keys"
seed: 18446744073709551615
mutant: legacy-end-offset-marker
log:
  partitions: 3
  linger_ms: 0
  ack_latency_ms: 2
  delivery_timeout_ms: 900
suppliers:
  - name: llm
    scale: 10
    drifting: true
    latency_ms: 0
  - name: pay
actions:
  - name: ask
    on: [input]
    steps:
      - call: llm
      - call: {supplier: pay, mode: async}
      - memory: last
      - emit: summary
      - output
  - name: summarize
    on: summary
    steps:
      - output
inputs:
  - {key: a, value: 7}
  - key: "b_1"
    value: -3
attempts:
  - steps:
      - read: 1
      - checkpoint: cp1
      - complete: cp1
      - checkpoint: cp2
      - arm: {fault: lose_ack, nth: 3}
      - run
      - run_ms: 50
      - crash
  - restore: cp1
    steps:
      - abort: cp2
      - broker_down: {for_ms: 100}
      - corrupt: {partition: 2, offset: 4}
      - arm: {fault: cancel_put}
      - read: all
      - run
expect:
  verdict: same-answer
  outputs: [70, -30]
  supplier_calls: 2
)";

// A valid scenario with one line replaceable, for inline error cases.
constexpr const char* kMinimal = R"(name: minimal
suppliers:
  - name: llm
actions:
  - name: ask
    on: [input]
    steps:
      - call: llm
      - output
inputs:
  - {key: a, value: 1}
attempts:
  - steps:
      - read: all
      - run
)";

// kMinimal's last step.
constexpr const char* kMinimalRunStep = "      - run\n";

// `text` with the first occurrence of `from` replaced by `to`.
std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at == std::string::npos) ADD_FAILURE() << "not in the text: " << from;
  else text.replace(at, from.size(), to);
  return text;
}

// Replaces the first occurrence of `from` in the minimal scenario.
std::string Minimal(const std::string& from, const std::string& to) { return Replaced(kMinimal, from, to); }

// kFullScenario, parsed; a parse error fails the calling test (and gives an
// empty scenario, whose size checks then stop it).
Scenario ParseFull() {
  Result<Scenario> result = ParseScenario(kFullScenario, "full.yaml");
  if (!result.ok()) {
    ADD_FAILURE() << result.status().ToString();
    return Scenario{};
  }
  return *result;
}

TEST(ScenarioParserTest, FullScenarioFillsEveryField) {
  // Strategy: parse a scenario that sets every key and check values and positions field by field: the
  // top level, the log and the expectation here, each list in the FullScenarioFills* tests below.
  Result<Scenario> result = ParseScenario(kFullScenario, "full.yaml");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const Scenario& s = *result;
  EXPECT_EQ(s.path, "full.yaml");
  EXPECT_EQ(s.name, "full_example");
  EXPECT_EQ(s.description, "all keys");
  EXPECT_EQ(s.seed, 18446744073709551615ull);
  EXPECT_EQ(s.mutant, "legacy-end-offset-marker");
  EXPECT_EQ(s.log.partitions, 3);
  EXPECT_EQ(s.log.linger_ms, 0);
  EXPECT_EQ(s.log.ack_latency_ms, 2);
  EXPECT_EQ(s.log.delivery_timeout_ms, 900);

  EXPECT_EQ(s.expect.verdict, ExpectedVerdict::Violated(Invariant::kSameAnswer));
  EXPECT_EQ(s.expect.outputs, (std::vector<int64_t>{70, -30}));
  EXPECT_EQ(s.expect.supplier_calls, 2);
  EXPECT_EQ(s.expect.pos.line, 53);
  EXPECT_EQ(s.expect.pos.column, 3);
}

TEST(ScenarioParserTest, FullScenarioFillsSuppliers) {
  // Strategy: the full scenario's suppliers, their values and positions.
  const Scenario s = ParseFull();
  ASSERT_EQ(s.suppliers.size(), 2u);
  EXPECT_EQ(s.suppliers[0].name, "llm");
  EXPECT_EQ(s.suppliers[0].scale, 10);
  EXPECT_TRUE(s.suppliers[0].drifting);
  EXPECT_EQ(s.suppliers[0].latency_ms, 0);
  EXPECT_EQ(s.suppliers[0].pos.line, 12);
  EXPECT_EQ(s.suppliers[0].pos.column, 5);
  EXPECT_FALSE(s.suppliers[1].scale.has_value());
  EXPECT_FALSE(s.suppliers[1].drifting);
  EXPECT_EQ(s.suppliers[1].latency_ms, 1);
}

TEST(ScenarioParserTest, FullScenarioFillsActions) {
  // Strategy: the full scenario's actions and each action step kind, values and positions.
  const Scenario s = ParseFull();
  ASSERT_EQ(s.actions.size(), 2u);
  const ActionSpec& ask = s.actions[0];
  EXPECT_EQ(ask.name, "ask");
  EXPECT_EQ(ask.on, std::vector<std::string>{"input"});
  EXPECT_EQ(ask.pos.line, 18);
  ASSERT_EQ(ask.steps.size(), 5u);
  EXPECT_EQ(ask.steps[0].kind, ActionStep::Kind::kCall);
  EXPECT_EQ(ask.steps[0].name, "llm");
  EXPECT_EQ(ask.steps[0].mode, CallMode::kSync);
  EXPECT_EQ(ask.steps[1].name, "pay");
  EXPECT_EQ(ask.steps[1].mode, CallMode::kAsync);
  EXPECT_EQ(ask.steps[1].pos.line, 22);
  EXPECT_EQ(ask.steps[1].pos.column, 9);
  EXPECT_EQ(ask.steps[2].kind, ActionStep::Kind::kMemory);
  EXPECT_EQ(ask.steps[2].name, "last");
  EXPECT_EQ(ask.steps[3].kind, ActionStep::Kind::kEmit);
  EXPECT_EQ(ask.steps[3].name, "summary");
  EXPECT_EQ(ask.steps[4].kind, ActionStep::Kind::kOutput);
  EXPECT_EQ(s.actions[1].on, std::vector<std::string>{"summary"});  // scalar `on` shorthand
}

TEST(ScenarioParserTest, FullScenarioFillsInputs) {
  // Strategy: the full scenario's inputs, their values and positions.
  const Scenario s = ParseFull();
  ASSERT_EQ(s.inputs.size(), 2u);
  EXPECT_EQ(s.inputs[0].key, "a");
  EXPECT_EQ(s.inputs[0].value, 7);
  EXPECT_EQ(s.inputs[1].key, "b_1");
  EXPECT_EQ(s.inputs[1].value, -3);
  EXPECT_EQ(s.inputs[1].pos.line, 32);
}

TEST(ScenarioParserTest, FullScenarioFillsAttempts) {
  // Strategy: the full scenario's attempts and each attempt step kind, values and positions.
  const Scenario s = ParseFull();
  ASSERT_EQ(s.attempts.size(), 2u);
  const AttemptSpec& first = s.attempts[0];
  EXPECT_FALSE(first.restore.has_value());
  ASSERT_EQ(first.steps.size(), 8u);
  EXPECT_EQ(first.steps[0].kind, AttemptStep::Kind::kRead);
  EXPECT_EQ(first.steps[0].count, 1);
  EXPECT_EQ(first.steps[1].kind, AttemptStep::Kind::kCheckpoint);
  EXPECT_EQ(first.steps[1].checkpoint, "cp1");
  EXPECT_EQ(first.steps[2].kind, AttemptStep::Kind::kComplete);
  EXPECT_EQ(first.steps[4].kind, AttemptStep::Kind::kArm);
  EXPECT_EQ(first.steps[4].fault, FaultKind::kLoseAck);
  EXPECT_EQ(first.steps[4].nth, 3);
  EXPECT_EQ(first.steps[5].kind, AttemptStep::Kind::kRun);
  EXPECT_EQ(first.steps[6].kind, AttemptStep::Kind::kRunFor);
  EXPECT_EQ(first.steps[6].duration_ms, 50);
  EXPECT_EQ(first.steps[7].kind, AttemptStep::Kind::kCrash);
  EXPECT_EQ(first.steps[7].pos.line, 43);

  const AttemptSpec& second = s.attempts[1];
  EXPECT_EQ(second.restore, "cp1");
  EXPECT_EQ(second.pos.line, 44);
  ASSERT_EQ(second.steps.size(), 6u);
  EXPECT_EQ(second.steps[0].kind, AttemptStep::Kind::kAbort);
  EXPECT_EQ(second.steps[0].checkpoint, "cp2");
  EXPECT_EQ(second.steps[1].kind, AttemptStep::Kind::kBrokerDown);
  EXPECT_EQ(second.steps[1].duration_ms, 100);
  EXPECT_EQ(second.steps[2].kind, AttemptStep::Kind::kCorrupt);
  EXPECT_EQ(second.steps[2].partition, 2);
  EXPECT_EQ(second.steps[2].offset, 4);
  EXPECT_EQ(second.steps[3].fault, FaultKind::kCancelPut);
  EXPECT_EQ(second.steps[3].nth, 1);
  EXPECT_EQ(second.steps[4].count, -1);  // read: all
}

TEST(ScenarioParserTest, OmittedKeysTakeTheirDefaults) {
  // Strategy: the smallest valid scenario leaves every optional field at the documented default.
  Result<Scenario> result = ParseScenario(kMinimal, "minimal.yaml");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const Scenario& s = *result;
  EXPECT_EQ(s.description, "");
  EXPECT_EQ(s.seed, 1u);
  EXPECT_FALSE(s.mutant.has_value());
  EXPECT_EQ(s.log.partitions, 1);
  EXPECT_EQ(s.log.linger_ms, 5);
  EXPECT_EQ(s.log.ack_latency_ms, 1);
  EXPECT_EQ(s.log.delivery_timeout_ms, 300);
  EXPECT_EQ(s.expect.verdict, ExpectedVerdict::Pass());
  EXPECT_FALSE(s.expect.outputs.has_value());
  EXPECT_FALSE(s.expect.supplier_calls.has_value());
  EXPECT_EQ(s.expect.pos.line, 0);  // not in the file
  ASSERT_EQ(s.attempts.size(), 1u);
  EXPECT_EQ(s.attempts[0].pos.line, 13);
  EXPECT_EQ(s.attempts[0].pos.column, 5);
}

TEST(ScenarioParserTest, InputKeysSurviveVerbatim) {
  // Strategy: keys with separators, digits only, spaces, non-ASCII and YAML-ish text come back byte for byte.
  std::string text = Minimal("  - {key: a, value: 1}\n", R"(  - {key: a, value: 1}
  - {key: a_b, value: 1}
  - {key: 123, value: 2}
  - {key: "123", value: 3}
  - {key: ü, value: 4}
  - {key: "x_1_y/z:w", value: 5}
  - {key: "with space", value: 6}
  - {key: '', value: 7}
  - {key: "日本_語", value: -8}
)");
  Result<Scenario> result = ParseScenario(text, "keys.yaml");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<std::string> keys;
  for (const InputSpec& input : result->inputs) keys.push_back(input.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "a_b", "123", "123", "ü", "x_1_y/z:w", "with space", "", "日本_語"}));
  EXPECT_EQ(result->inputs.back().value, -8);
}

TEST(ScenarioParserTest, CheckpointCompletedInALaterAttemptCanBeRestoredAfterThat) {
  // Strategy: a checkpoint taken in attempt 1 and completed in attempt 2 is restorable in attempt 3, not before.
  std::string text = R"(name: late_complete
suppliers: [{name: llm}]
actions: [{name: ask, on: input, steps: [{call: llm}, output]}]
inputs: []
attempts:
  - steps: [checkpoint: cp1, crash]
  - steps: [complete: cp1, crash]
  - restore: cp1
    steps: []
)";
  Result<Scenario> result = ParseScenario(text, "late.yaml");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->attempts[2].restore, "cp1");
  EXPECT_TRUE(result->attempts[2].steps.empty());
}

struct InlineCase {
  const char* name;
  std::string text;
  int line;
  int column;
  const char* error;
};

TEST(ScenarioParserTest, InlineMistakesReportPositionAndExpectation) {
  // Strategy: one mistake per case, beyond those in scenarios/malformed/, each with its exact position.
  const std::vector<InlineCase> cases = {
      {"empty file", "", 1, 1, "expected a mapping for the scenario, got an empty value"},
      {"comment only", "# nothing\n", 1, 1, "expected a mapping for the scenario"},
      {"top-level sequence", "- a\n- b\n", 1, 1, "expected a mapping for the scenario, got a sequence"},
      {"two documents", std::string(kMinimal) + "---\nname: again\n", 16, 1, "expected one YAML document"},
      // yaml-cpp 0.7's LoadAll loops, allocating without bound, on this one (jbeder/yaml-cpp#1040).
      {"stray comma first", ",\n" + std::string(kMinimal), 1, 1, "invalid YAML: unexpected ','"},
      {"stray comma after a comment", "# c\n  ,\n", 2, 3, "invalid YAML: unexpected ','"},
      {"duplicate key", Minimal("suppliers:", "name: again\nsuppliers:"), 2, 1, "duplicate key 'name'"},
      {"quoted integer", Minimal("value: 1}", "value: \"1\"}"), 11, 21, "expected an integer for 'value'"},
      {"float", Minimal("value: 1}", "value: 1.5}"), 11, 21, "got '1.5'"},
      {"int64 overflow", Minimal("value: 1}", "value: 9223372036854775808}"), 11, 21, "expected an integer"},
      {"negative seed", Minimal("suppliers:", "seed: -1\nsuppliers:"), 2, 7, "expected an unsigned 64-bit integer"},
      {"empty seed", Minimal("suppliers:", "seed:\nsuppliers:"), 2, 1, "got an empty value"},
      {"yes is not a bool", Minimal("  - name: llm\n", "  - name: llm\n    drifting: yes\n"), 4, 15,
       "expected true or false"},
      {"unknown reconciler answer", Minimal("  - name: llm\n", "  - name: llm\n    reconcile: maybe\n"), 4, 16,
       "unknown reconciler answer 'maybe' for 'reconcile'; expected one of: truth, done, not_done, unknown"},
      {"unknown answer in a list", Minimal("  - name: llm\n", "  - name: llm\n    reconcile: [done, later]\n"), 4,
       23, "unknown reconciler answer 'later'"},
      {"a log without its design", std::string(kMinimal) + "expect:\n  log:\n    - records: []\n", 18, 5,
       "'log' states the topic's records, which differ by store design: name the design with 'store:'"},
      {"unknown record kind", "store: kafka-rewind\n" + std::string(kMinimal) +
           "expect:\n  log:\n    - records: [{kind: done}]\n", 19, 24,
       "unknown record kind 'done'; expected one of: start, pending, result, complete, tombstone, cleanup, corrupt, "
       "foreign"},
      {"unknown call status", "store: kafka-rewind\n" + std::string(kMinimal) +
           "expect:\n  log:\n    - records: [{kind: result, calls: [{status: OK}]}]\n", 19, 49,
       "unknown call status 'OK'"},
      {"a partition stated twice", "store: kafka-rewind\n" + std::string(kMinimal) +
           "expect:\n  log:\n    - {partition: 0, records: []}\n    - {records: []}\n", 20, 7,
       "partition 0 is stated twice in 'log'"},
      {"empty answer list", Minimal("  - name: llm\n", "  - name: llm\n    reconcile: []\n"), 4, 16,
       "expected at least one entry in 'reconcile'"},
      {"empty name", Minimal("name: minimal", "name: \"\""), 1, 7, "expected a non-empty name"},
      {"bad call mode", Minimal("call: llm", "call: {supplier: llm, mode: later}"), 8, 37, "expected sync or async"},
      {"undefined supplier in call mapping", Minimal("call: llm", "call: {supplier: lm}"), 8, 26,
       "undefined supplier 'lm'"},
      {"call without value", Minimal("call: llm", "call"), 8, 9, "step 'call' needs a value"},
      {"output with value", Minimal("- output", "- output: x"), 9, 9, "step 'output' takes no value"},
      {"duplicate on entry", Minimal("on: [input]", "on: [input, input]"), 6, 17, "duplicate event type 'input'"},
      {"on is a mapping", Minimal("on: [input]", "on: {input: 1}"), 6, 9, "expected an event type or a sequence"},
      {"empty steps", Minimal("    steps:\n      - call: llm\n      - output\n", "    steps: []\n"), 7, 12,
       "expected at least one entry in 'steps'"},
      {"input without value", Minimal("{key: a, value: 1}", "{key: a}"), 11, 5, "missing required key 'value'"},
      {"retry count without its mapping", Minimal("    on: [input]\n", "    on: [input]\n    on_error: {retry: 2}\n"),
       7, 23, "expected a mapping {max: <n>} for 'retry', got '2': write `on_error: {retry: {max: 2}}`"},
      {"add_partitions at the maximum",
       Replaced(Minimal("suppliers:", "log: {partitions: 1024}\nsuppliers:"), kMinimalRunStep,
                "      - add_partitions: 1\n"),
       16, 9, "add_partitions: the topic already has 1024 partitions at this step"},
      {"nth zero", Minimal("- run\n", "- arm: {fault: reject_put, nth: 0}\n"), 15, 39, "expected an integer in [1, 1000000]"},
      {"arm scalar", Minimal("- run\n", "- arm: reject_put\n"), 15, 14, "expected a mapping for 'arm'"},
      {"broker_down zero", Minimal("- run\n", "- broker_down: {for_ms: 0}\n"), 15, 31, "expected an integer in [1, 86400000]"},
      {"corrupt without offset", Minimal("- run\n", "- corrupt: {partition: 0}\n"), 15, 18,
       "missing required key 'offset' in 'corrupt'"},
      {"negative linger", Minimal("suppliers:", "log: {linger_ms: -1}\nsuppliers:"), 2, 18, "expected an integer in [0, "},
      {"abort unknown", Minimal("- run\n", "- abort: cpx\n"), 15, 16, "cannot abort unknown checkpoint 'cpx'"},
      {"restore aborted",
       Minimal("      - run\n", "      - checkpoint: c\n      - abort: c\n  - restore: c\n    steps: []\n"), 17, 14,
       "it was aborted at 16:16"},
      {"outputs not a sequence", std::string(kMinimal) + "expect: {outputs: 70}\n", 16, 19,
       "expected a sequence for 'outputs'"},
      {"negative supplier_calls", std::string(kMinimal) + "expect: {supplier_calls: -1}\n", 16, 26,
       "expected an integer >= 0"},
      {"non-string key", Minimal("name: minimal", "[a]: minimal"), 1, 1, "expected a string key"},
      {"unknown anchor", Minimal("call: llm", "call: *nope"), 8, 15, "invalid YAML"},
      {"unknown store design", Minimal("suppliers:", "store: kafka-rewirte\nsuppliers:"), 2, 8,
       "unknown store design 'kafka-rewirte'; expected one of: kafka-rewind, kafka-rewrite"},
      {"put: rewrite on kafka-rewind", Minimal("- run\n", "- arm: {fault: reject_put, nth: 1, put: rewrite}\n"), 15,
       47, "only store design kafka-rewrite writes rewrites; this scenario's is kafka-rewind"},
      {"cancel_put aimed at a rewrite",
       Replaced(Minimal("suppliers:", "store: kafka-rewrite\nsuppliers:"), "- run\n",
                "- arm: {fault: cancel_put, nth: 1, put: rewrite}\n"),
       16, 47, "cancel_put never reaches one"},
      {"recall of a slot nothing writes",
       Minimal("      - output\n", "      - memory: total\n      - recall: totl\n      - output\n"), 10, 9,
       "recall of memory slot 'totl' in action 'ask': no memory or memory_add step writes it, so it always reads 0 "
       "(did you mean \"total\"?)"},
      {"arm seq past the key's inputs", Minimal("- run\n", "- arm: {fault: reject_put, key: a, seq: 2}\n"), 15, 47,
       "seq 2 can never come: key \"a\" has 1 input; expected an integer in [1, 1] (or `expect: {allow_unfired: true}`)"},
      {"arm seq past every key's inputs", Minimal("- run\n", "- arm: {fault: reject_put, seq: 3}\n"), 15, 39,
       "seq 3 can never come: no key has more than 1 input"},
      {"arm call past every action's calls", Minimal("- run\n", "- arm: {fault: reject_put, call: 1}\n"), 15, 40,
       "call 1 can never come: no action makes more than 1 durable call (each try of a retried call counts; calls "
       "count from 0); expected an integer in [0, 0]"},
      {"fluss with tombstones", Minimal("suppliers:", "store: fluss\nlog: {tombstones: true}\nsuppliers:"), 2, 8,
       "store design fluss cannot run this scenario: log.tombstones: a Fluss log table holds no tombstones"},
      {"fluss adding partitions",
       Replaced(Minimal("suppliers:", "store: fluss\nsuppliers:"), kMinimalRunStep, "      - add_partitions: 1\n"),
       2, 8, "attempt 1 (line 16) adds partitions: a Fluss table's buckets are fixed"},
  };
  for (const InlineCase& c : cases) {
    SCOPED_TRACE(c.name);
    ExpectErrorAt(ParseScenario(c.text, "inline.yaml"), "inline.yaml", c.line, c.column, c.error);
  }
}

TEST(ScenarioParserTest, ARetriedCallsLaterTriesAreCallsAnArmMayAimAt) {
  // Strategy: with on_error: retry each try takes the next call index, so
  // call 2 of a one-call action retried twice is in range (and call 3 not).
  const std::string retried = Minimal("    on: [input]\n", "    on: [input]\n    on_error: {retry: {max: 2}}\n");
  const Result<Scenario> in_range =
      ParseScenario(Replaced(retried, "- run\n", "- arm: {fault: reject_put, call: 2}\n"), "inline.yaml");
  ASSERT_TRUE(in_range.ok()) << in_range.status().ToString();
  EXPECT_EQ(in_range->attempts[0].steps.back().select.call, 2);
  ExpectErrorAt(ParseScenario(Replaced(retried, "- run\n", "- arm: {fault: reject_put, call: 3}\n"), "inline.yaml"),
                "inline.yaml", 16, 40, "call 3 can never come: no action makes more than 3 durable calls");
}

TEST(ScenarioParserTest, AllowUnfiredLetsAnArmAimPastTheScenario) {
  // Strategy: a generated file's arms are drawn blind; with allow_unfired an
  // out-of-range seq or call parses (and may stay unfired).
  const Result<Scenario> parsed =
      ParseScenario(Minimal("- run\n", "- arm: {fault: reject_put, seq: 5, call: 3}\n") +
                        "expect: {allow_unfired: true}\n",
                    "inline.yaml");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->attempts[0].steps.back().select.seq, 5);
}

// The header of a malformed file: what it must fail with, and where.
struct MalformedHeader {
  std::string error;
  int line = 0;
  int column = 0;
  bool has_strategy = false;
};

MalformedHeader ReadHeader(const std::string& text) {
  MalformedHeader header;
  std::istringstream lines(text);
  std::string line;
  for (int index = 0; std::getline(lines, line) && line.rfind("#", 0) == 0; ++index) {
    const std::string error_tag = "# Expect-error: ";
    const std::string at_tag = "# Expect-at: ";
    if (index == 0 && line.rfind(error_tag, 0) == 0) header.error = line.substr(error_tag.size());
    if (line.rfind(at_tag, 0) == 0) std::sscanf(line.c_str() + at_tag.size(), "%d:%d", &header.line, &header.column);
    if (line.rfind("# Strategy:", 0) == 0) header.has_strategy = true;
  }
  return header;
}

TEST(ScenarioParserTest, MalformedFilesFailAtTheirExpectedPosition) {
  // Strategy: each file in scenarios/malformed/ holds one mistake and names, in its header, the message and position.
  fs::path dir = fs::path(SourceTree()) / "scenarios" / "malformed";
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 12u);
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    MalformedHeader header = ReadHeader(text.str());
    ASSERT_FALSE(header.error.empty()) << "first line must be `# Expect-error: <substring>`";
    ASSERT_GT(header.line, 0) << "missing `# Expect-at: <line>:<column>`";
    EXPECT_TRUE(header.has_strategy) << "missing `# Strategy:` line";
    ExpectErrorAt(LoadScenarioFile(file.string()), file.string(), header.line, header.column, header.error);
  }
}

TEST(ScenarioParserTest, EveryPrefixOfAValidScenarioParsesOrFailsCleanly) {
  // Strategy: truncating a valid file at every byte makes a family of broken inputs; none may crash or throw,
  // and every failure is a positioned kInvalidArgument.
  std::string full = kFullScenario;
  for (size_t length = 0; length <= full.size(); ++length) {
    Result<Scenario> result = ParseScenario(full.substr(0, length), "prefix.yaml");
    if (result.ok()) continue;
    ASSERT_EQ(result.status().code(), StatusCode::kInvalidArgument) << "length " << length;
    int line = 0;
    int column = 0;
    ASSERT_EQ(std::sscanf(result.status().message().c_str(), "prefix.yaml:%d:%d: ", &line, &column), 2)
        << "length " << length << ": " << result.status().message();
    EXPECT_GE(line, 1);
    EXPECT_GE(column, 1);
  }
}

TEST(ScenarioParserTest, DocumentedExampleParses) {
  // Strategy: the annotated example in docs/scenarios.md (the yaml block of its section) is a valid scenario,
  // so the reference cannot drift from the parser.
  std::ifstream in(fs::path(SourceTree()) / "docs" / "scenarios.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string doc = text.str();
  size_t begin = doc.find("```yaml\n", doc.find("## Annotated example"));
  ASSERT_NE(begin, std::string::npos);
  begin += 8;
  size_t end = doc.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  Result<Scenario> result = ParseScenario(doc.substr(begin, end - begin), "docs/scenarios.md");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->name, "kafka_queued_action_reuse");
  ASSERT_EQ(result->attempts.size(), 3u);
  EXPECT_EQ(result->attempts[2].restore, "cp2");
  EXPECT_EQ(result->expect.supplier_calls, 1);
}

TEST(ScenarioParserTest, MissingFileNamesThePath) {
  // Strategy: a path that does not exist, and a directory, fail with the path in the message, without throwing.
  std::string missing = SourceTree() + "/scenarios/no_such_scenario.yaml";
  Result<Scenario> result = LoadScenarioFile(missing);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(result.status().message(), missing + ": cannot open scenario file: no such file");

  std::string dir = SourceTree() + "/scenarios";
  Result<Scenario> dir_result = LoadScenarioFile(dir);
  ASSERT_FALSE(dir_result.ok());
  EXPECT_NE(dir_result.status().message().find(dir + ": cannot open scenario file"), std::string::npos);
}

TEST(ScenarioParserTest, ShippedScenariosParse) {
  // Strategy: every scenario under scenarios/{fast,regressions,negative} must pass validation (negative ones
  // fail at run time, not here), so a format mistake shows up in this fast test.
  for (const char* group : {"fast", "regressions", "negative"}) {
    fs::path dir = fs::path(SourceTree()) / "scenarios" / group;
    ASSERT_TRUE(fs::is_directory(dir)) << dir << " is not a folder: the source tree was not found";
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      Result<Scenario> result = LoadScenarioFile(file.string());
      EXPECT_TRUE(result.ok()) << result.status().ToString();
    }
  }
}

}  // namespace
}  // namespace durasim

namespace durasim {
namespace {

// Strategy: a key of arbitrary bytes (!!binary) survives the writer: the
// written file holds it as !!binary and parses back to the same bytes, in
// the inputs and in an arm's selector.
TEST(ScenarioParserTest, BinaryKeysSurviveTheWriter) {
  Result<Scenario> loaded = LoadScenarioFile(SourceTree() + "/scenarios/fast/binary_key.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->inputs[0].key, std::string("\x80\xff\0k", 4));
  const std::string written = WriteScenarioYaml(*loaded, {});
  EXPECT_NE(written.find("!!binary"), std::string::npos) << written;
  Result<Scenario> again = ParseScenario(written, "written.yaml");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->inputs[0].key, loaded->inputs[0].key);
  EXPECT_EQ(again->inputs[1].key, "plain");
  const AttemptStep& arm = again->attempts[0].steps[2];
  ASSERT_EQ(arm.kind, AttemptStep::Kind::kArm);
  EXPECT_EQ(arm.select.key, loaded->inputs[0].key);
}

// Strategy: every shape of the foreign step (bytes or another record's key;
// text, another record's value or a tombstone) survives the writer and the
// parser unchanged, on its partition.
TEST(ScenarioParserTest, ForeignStepsSurviveTheWriter) {
  Result<Scenario> loaded = ParseScenario(R"(name: foreign_shapes
log: {partitions: 2}
suppliers: [{name: llm}]
actions: [{name: ask, on: input, steps: [{call: llm}]}]
inputs: [{key: a, value: 1}]
attempts:
  - steps:
      - foreign: {partition: 1, key: !!binary "gP8=", value: "text"}
      - foreign: {key_of: 3, value_of: 2}
      - foreign: {key: other, tombstone: true}
)",
                                          "foreign.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const std::vector<AttemptStep>& steps = loaded->attempts[0].steps;
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].partition, 1);
  EXPECT_EQ(steps[0].foreign.key, std::string("\x80\xff"));
  EXPECT_EQ(steps[1].foreign.key_of, 3);
  EXPECT_EQ(steps[1].foreign.value_of, 2);
  EXPECT_TRUE(steps[2].foreign.tombstone);
  Result<Scenario> again = ParseScenario(WriteScenarioYaml(*loaded, {}), "written.yaml");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(again->attempts[0].steps[i].kind, AttemptStep::Kind::kForeign);
    EXPECT_EQ(again->attempts[0].steps[i].partition, steps[i].partition);
    EXPECT_EQ(again->attempts[0].steps[i].foreign, steps[i].foreign) << i;
  }
}

// Strategy: an attempt's `log: {tombstones}` sets the setting from that
// attempt on (TombstonesIn), an attempt without one keeps it, and it
// survives the writer.
TEST(ScenarioParserTest, AttemptTombstoneSettingSurvivesTheWriter) {
  Result<Scenario> loaded = ParseScenario(R"(name: migration
log: {tombstones: true}
suppliers: [{name: llm}]
actions: [{name: ask, on: input, steps: [{call: llm}]}]
inputs: [{key: a, value: 1}]
attempts:
  - steps: [{checkpoint: cp1}, {complete: cp1}, crash]
  - restore: cp1
    log: {tombstones: false}
    steps: [crash]
  - restore: cp1
    steps: []
)",
                                          "migration.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_FALSE(loaded->attempts[0].tombstones.has_value());
  EXPECT_EQ(loaded->attempts[1].tombstones, std::optional<bool>(false));
  EXPECT_TRUE(loaded->TombstonesIn(1));
  EXPECT_FALSE(loaded->TombstonesIn(2));
  EXPECT_FALSE(loaded->TombstonesIn(3));
  EXPECT_TRUE(loaded->TombstonesEver());
  Result<Scenario> again = ParseScenario(WriteScenarioYaml(*loaded, {}), "written.yaml");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  for (size_t a = 0; a < loaded->attempts.size(); ++a) {
    EXPECT_EQ(again->attempts[a].tombstones, loaded->attempts[a].tombstones) << a;
  }
}

// Strategy: `restore: {checkpoint, during_rebuild}` keeps its steps (an
// append, added partitions) apart from the attempt's, with no markers, and
// survives the writer; a Long key (!long) survives it too.
TEST(ScenarioParserTest, StepsDuringARebuildAndLongKeysSurviveTheWriter) {
  Result<Scenario> loaded = ParseScenario(R"(name: during
suppliers: [{name: llm}]
actions: [{name: ask, on: input, steps: [{call: llm}]}]
inputs: [{key: !long 7, value: 1}, {key: "7", value: 2}]
attempts:
  - steps: [{checkpoint: cp1}, {complete: cp1}, crash]
  - restore:
      checkpoint: cp1
      during_rebuild:
        - foreign: {key: zombie, value: late}
        - add_partitions: 2
    steps: [{read: all}]
)",
                                          "during.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const AttemptSpec& restoring = loaded->attempts[1];
  EXPECT_FALSE(restoring.markers.has_value());
  ASSERT_EQ(restoring.during_rebuild.size(), 2u);
  EXPECT_EQ(restoring.during_rebuild[0].kind, AttemptStep::Kind::kForeign);
  EXPECT_EQ(restoring.during_rebuild[1].kind, AttemptStep::Kind::kAddPartitions);
  EXPECT_EQ(restoring.steps.size(), 1u);
  EXPECT_EQ(loaded->PartitionsMax(), 3);
  EXPECT_EQ(loaded->inputs[0].key, LongKey(7));
  EXPECT_EQ(loaded->inputs[1].key, "7");
  Result<Scenario> again = ParseScenario(WriteScenarioYaml(*loaded, {}), "written.yaml");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  ASSERT_EQ(again->attempts[1].during_rebuild.size(), 2u);
  EXPECT_EQ(again->attempts[1].during_rebuild[0].foreign, restoring.during_rebuild[0].foreign);
  EXPECT_EQ(again->attempts[1].during_rebuild[1].count, 2);
  EXPECT_EQ(again->inputs[0].key, LongKey(7));
  EXPECT_EQ(again->inputs[1].key, "7");
}

// Strategy: a supplier's reconciler answers, one or a list, parse in order
// and survive the writer; a supplier without `reconcile:` has none.
TEST(ScenarioParserTest, ReconcilerAnswersSurviveTheWriter) {
  Result<Scenario> loaded = ParseScenario(R"(name: reconcilers
suppliers:
  - {name: pay, reconcile: truth}
  - {name: ship, reconcile: [unknown, not_done, done]}
  - {name: plain}
actions: [{name: ask, on: input, steps: [{call: pay}, {call: ship}, {call: plain}]}]
inputs: [{key: a, value: 1}]
attempts: [{steps: [run]}]
)",
                                          "reconcilers.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const std::vector<ReconcileAnswer> pay = {ReconcileAnswer::kTruth};
  const std::vector<ReconcileAnswer> ship = {ReconcileAnswer::kUnknown, ReconcileAnswer::kNotDone,
                                             ReconcileAnswer::kDone};
  EXPECT_EQ(loaded->suppliers[0].reconcile, pay);
  EXPECT_EQ(loaded->suppliers[1].reconcile, ship);
  EXPECT_TRUE(loaded->suppliers[2].reconcile.empty());
  Result<Scenario> again = ParseScenario(WriteScenarioYaml(*loaded, {}), "written.yaml");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(again->suppliers[i].reconcile, loaded->suppliers[i].reconcile) << i;
}

// Strategy: `expect: log:` keeps each stated field, leaves the others
// unset, and survives the writer.
TEST(ScenarioParserTest, ExpectedLogSurvivesTheWriter) {
  Result<Scenario> loaded = ParseScenario("store: kafka-rewind\n" + std::string(kMinimal) + R"(expect:
  log:
    - partition: 0
      records:
        - {kind: start, key: a, seq: 1, action: ask}
        - {kind: result, calls: [{fn: llm, status: SUCCEEDED, result: 7}, {status: FAILED, error: "boom"}]}
        - {kind: complete, outputs: [7]}
)",
                                          "log.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto check = [](const Scenario& scenario) {
    ASSERT_EQ(scenario.expect.log.size(), 1u);
    const std::vector<ExpectedRecord>& records = scenario.expect.log[0].records;
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[0].kind, RecordKind::kStart);
    EXPECT_EQ(records[0].key, "a");
    EXPECT_EQ(records[0].seq, 1);
    EXPECT_EQ(records[0].action, "ask");
    EXPECT_FALSE(records[0].calls.has_value());
    ASSERT_TRUE(records[1].calls.has_value());
    ASSERT_EQ(records[1].calls->size(), 2u);
    EXPECT_EQ((*records[1].calls)[0].function, "llm");
    EXPECT_EQ((*records[1].calls)[0].status, CallStatus::kSucceeded);
    EXPECT_EQ((*records[1].calls)[0].result, 7);
    EXPECT_FALSE((*records[1].calls)[1].function.has_value());
    EXPECT_EQ((*records[1].calls)[1].error, "boom");
    EXPECT_EQ(records[2].outputs, std::vector<int64_t>{7});
    EXPECT_FALSE(records[2].key.has_value());
  };
  check(*loaded);
  Result<Scenario> again = ParseScenario(WriteScenarioYaml(*loaded, {}), "written.yaml");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  check(*again);
}

// kMinimal, a checkpoint taken and completed, and a second attempt that
// restores it with `restore` (a YAML value).
std::string WithRestore(const std::string& restore) {
  std::string text = Minimal(kMinimalRunStep, "      - run\n      - checkpoint: c1\n      - complete: c1\n");
  return "store: kafka-rewind\n" + text + "  - restore: " + restore + "\n    steps: [run]\n";
}

TEST(ScenarioParserTest, HandMadeMarkersAndRestoreExpectationsSurviveTheWriter) {
  // Strategy: every form of a hand-made marker and of the marker and cache
  // expectations reads back as written, and again after the writer.
  Result<Scenario> loaded = ParseScenario(
      WithRestore("{checkpoint: c1, markers: [{offsets: log_end}, {version: 1}, {topic: t2, offsets: {0: 4}}, {}]}") +
          R"(expect:
  checkpoints:
    - {id: c1, markers: [{version: 2, offsets: {0: 3}, completed: {a: 1}}]}
  restores:
    - attempt: 2
      marker: {topic: t, offsets: {0: 3}}
      cache: [{kind: pending, key: a, seq: 1, calls: [{status: PENDING}]}]
      rejected: "version"
  completions:
    - {checkpoint: c1, cache: []}
    - {checkpoint: c1, subtask: 0, cache: [{kind: complete, key: a, seq: 1}]}
)",
      "markers.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto check = [](const Scenario& scenario) {
    ASSERT_TRUE(scenario.attempts[1].markers.has_value());
    const std::vector<HandMadeMarkerSpec>& markers = *scenario.attempts[1].markers;
    ASSERT_EQ(markers.size(), 4u);
    EXPECT_EQ(markers[0].offsets, HandMadeMarkerSpec::Offsets::kLogEnd);
    EXPECT_EQ(markers[1].version, 1);
    EXPECT_EQ(markers[1].offsets, HandMadeMarkerSpec::Offsets::kCheckpoint);
    EXPECT_EQ(markers[2].topic, "t2");
    EXPECT_EQ(markers[2].offsets, HandMadeMarkerSpec::Offsets::kStated);
    EXPECT_EQ(markers[2].stated, (MarkerOffsets{{0, 4}}));
    EXPECT_FALSE(markers[3].version || markers[3].topic);
    EXPECT_EQ(scenario.attempts[1].restore, "c1");
    ASSERT_EQ(scenario.expect.checkpoints.size(), 1u);
    EXPECT_EQ(scenario.expect.checkpoints[0].markers[0].completed, (CompletedBoundaries{{"a", 1}}));
    ASSERT_EQ(scenario.expect.restores.size(), 1u);
    const ExpectedRestore& restore = scenario.expect.restores[0];
    EXPECT_EQ(restore.attempt, 2);
    EXPECT_EQ(restore.marker->topic, "t");
    EXPECT_FALSE(restore.marker->version.has_value());
    ASSERT_TRUE(restore.cache.has_value());
    EXPECT_EQ((*restore.cache)[0].kind, RecordKind::kPending);
    EXPECT_EQ(restore.rejected, "version");
    ASSERT_EQ(scenario.expect.completions.size(), 2u);
    EXPECT_EQ(scenario.expect.completions[0].checkpoint, "c1");
    EXPECT_TRUE(scenario.expect.completions[0].cache.empty());
    EXPECT_EQ(scenario.expect.completions[1].subtask, 0);
    ASSERT_EQ(scenario.expect.completions[1].cache.size(), 1u);
    EXPECT_EQ(scenario.expect.completions[1].cache[0].seq, 1);
  };
  check(*loaded);
  Result<Scenario> again = ParseScenario(WriteScenarioYaml(*loaded, {}), "written.yaml");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  check(*again);
}

TEST(ScenarioParserTest, HandMadeMarkerMistakesNameTheirPlace) {
  // Strategy: each mistake in a hand-made marker or a restore expectation
  // fails at its position with what was expected.
  const struct {
    std::string text;
    const char* error;
  } cases[] = {
      {WithRestore("{checkpoint: c1, markers: [{offsets: somewhere}]}"),
       "unknown marker offsets 'somewhere'; expected checkpoint, log_end or a mapping of partitions to offsets"},
      {WithRestore("{checkpoint: c1, markers: [{version: 1, topic: t}]}"),
       "a version-1 marker is the bare partition -> offset map: it names no topic"},
      {WithRestore("{checkpoint: c1, markers: [{offsets: {0: 1, 0: 2}}]}"), "partition 0 is stated twice"},
      {WithRestore("{checkpoint: c1, marker: []}"), "'marker'"},
      {WithRestore("{checkpoint: c9, markers: []}"), "c9"},
      {WithRestore("c1") + "expect:\n  restores:\n    - {attempt: 1}\n", "attempt 1 starts fresh: it restores nothing"},
      {WithRestore("c1") + "expect:\n  restores:\n    - {attempt: 2, cache: [{kind: tombstone}]}\n",
       "a cached state is of kind start, pending, result or complete, not tombstone"},
      {WithRestore("c1") + "expect:\n  checkpoints:\n    - {id: c7, markers: []}\n", "no attempt takes checkpoint 'c7'"},
      {WithRestore("c1") + "expect:\n  completions:\n    - {checkpoint: c1, subtask: 1, cache: []}\n",
       "expected an integer in [0, 0]"},
      {"store: fluss\n" + WithRestore("{checkpoint: c1, markers: [{version: 1}]}").substr(20),
       "a Fluss marker is a bucket -> offset map only"},
  };
  for (const auto& c : cases) {
    Result<Scenario> parsed = ParseScenario(c.text, "m.yaml");
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_NE(parsed.status().message().find(c.error), std::string::npos) << parsed.status().ToString();
    EXPECT_NE(parsed.status().message().find("m.yaml:"), std::string::npos) << parsed.status().ToString();
  }
}

// --- Parser edges (issue 16 part 6) and limits (part 2) -------------------

// Strategy: a file with nothing in it, only whitespace or only comments is
// one empty YAML value: the promised "got an empty value" at 1:1, from the
// string and from a 0-byte file on disk (which once gave "cannot read").
TEST(ScenarioParserTest, AnEmptyFileIsAnEmptyValueAt1To1) {
  for (const char* text : {"", "   \n\n\t\n", "# only a comment\n\n# and another\n"}) {
    SCOPED_TRACE(::testing::PrintToString(text));
    ExpectErrorAt(ParseScenario(text, "empty.yaml"), "empty.yaml", 1, 1,
                  "expected a mapping for the scenario, got an empty value");
  }
  const fs::path path = fs::path(::testing::TempDir()) / "durasim_zero_bytes.yaml";
  std::ofstream(path).close();
  ASSERT_EQ(fs::file_size(path), 0u);
  ExpectErrorAt(LoadScenarioFile(path.string()), path.string(), 1, 1, "got an empty value");
  fs::remove(path);
}

// Strategy: nesting past the limit has its own message, at the node that is
// one level too deep; far past it (100,000 levels of `[`, `{` and `- `)
// the same message comes from yaml-cpp's guard, before its recursion could
// overflow the stack (the ASan build runs this too).
TEST(ScenarioParserTest, NestingPastTheLimitHasItsOwnMessage) {
  std::string nested = "name: x\ndescription: " + std::string(40, '[') + std::string(40, ']') + "\n";
  ExpectErrorAt(ParseScenario(nested, "deep.yaml"), "deep.yaml", 2, 13 + 32,
                "nesting deeper than 32 levels (limit kNestingDepthMax");
  const std::string just_fits =
      Minimal("name: minimal\n", "name: minimal\ndescription: " + std::string(30, '[') + std::string(30, ']') + "\n");
  ExpectErrorAt(ParseScenario(just_fits, "fits.yaml"), "fits.yaml", 2, 14, "expected a string for 'description'");
  std::string block;
  for (int i = 0; i < 100'000; ++i) block += "- ";
  block += "x\n";
  for (const std::string& text :
       {std::string(100'000, '['), std::string(100'000, '{'), block, "a: " + std::string(100'000, '[')}) {
    Result<Scenario> result = ParseScenario(text, "very_deep.yaml");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(result.status().message().find("nesting deeper than 32 levels"), std::string::npos)
        << result.status().message().substr(0, 300);
  }
}

// Strategy: an offending value is quoted up to 80 characters, then `…` and
// its total length: a 1 MiB verdict gives a short message, not a 1 MiB one.
TEST(ScenarioParserTest, MessagesQuoteAtMost80CharactersOfAValue) {
  const std::string huge(1024 * 1024, 'a');
  Result<Scenario> result = ParseScenario(Minimal("name: minimal\n", "name: minimal\nseed: " + huge + "\n"), "long.yaml");
  ASSERT_FALSE(result.ok());
  std::string message = result.status().message();
  EXPECT_LT(message.size(), 300u) << message.substr(0, 500);
  EXPECT_NE(message.find("for 'seed', got '" + std::string(80, 'a') + "…' (1048576 characters)"), std::string::npos)
      << message.substr(0, 500);
  // A string past its length limit is quoted the same way.
  result = ParseScenario(Minimal("      - run\n", "      - run\nexpect: {verdict: " + huge + "}\n"), "verdict.yaml");
  ASSERT_FALSE(result.ok());
  message = result.status().message();
  EXPECT_LT(message.size(), 300u) << message.substr(0, 500);
  EXPECT_NE(message.find("got '" + std::string(80, 'a') + "…' (1048576 characters)"), std::string::npos)
      << message.substr(0, 500);
  // A short value stays whole, and a multi-byte character counts as one.
  result = ParseScenario(Minimal("[input]", "[input, \"" + std::string(79, 'x') + "ü\"]"), "short.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("'" + std::string(79, 'x') + "ü'"), std::string::npos)
      << result.status().message();
  EXPECT_EQ(result.status().message().find("characters)"), std::string::npos) << result.status().message();
}

// Strategy: a raw control character (NUL, another C0 but tab and line
// breaks, DEL) is refused where it stands, in a plain or a quoted scalar or
// a comment, instead of yaml-cpp reading a NUL as something else; an escape
// that makes one inside a quoted string is refused at that string. Tab stays.
TEST(ScenarioParserTest, ControlCharactersAreRefusedWithTheirPosition) {
  ExpectErrorAt(ParseScenario(Minimal("name: minimal", std::string("name: mini\0mal", 14)), "nul.yaml"), "nul.yaml",
                1, 11, "control character 0x00 in the file");
  ExpectErrorAt(ParseScenario(Minimal("name: minimal", "name: \"mini\x01mal\""), "soh.yaml"), "soh.yaml", 1, 12,
                "control character 0x01 in the file");
  ExpectErrorAt(ParseScenario(Minimal("  - name: llm", "  - name: llm # \x7f"), "del.yaml"), "del.yaml", 3, 17,
                "control character 0x7f in the file");
  ExpectErrorAt(ParseScenario(Minimal("name: minimal", "name: \"mini\\0mal\""), "escaped.yaml"), "escaped.yaml", 1, 7,
                "control character 0x00 at offset 4 of 'name'");
  ExpectErrorAt(ParseScenario(Minimal("{key: a,", "{key: \"a\\x1b\","), "key.yaml"), "key.yaml", 11, 11,
                "control character 0x1b at offset 1 of 'key'");
  Result<Scenario> tab = ParseScenario(Minimal("name: minimal", "name: \"a\\tb\"\ndescription: \"two\\nlines\""),
                                       "tab.yaml");
  ASSERT_TRUE(tab.ok()) << tab.status().ToString();
  EXPECT_EQ(tab->name, "a\tb");
}

// Strategy: each sequence limit fails at the first entry past it, naming the
// limit; a file at the limit parses.
TEST(ScenarioParserTest, SequencesPastTheirLimitFailAtTheFirstExtraEntry) {
  auto inputs = [](int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += "  - {key: k, value: " + std::to_string(i) + "}\n";
    return text;
  };
  // (kInputsMax's 50,000 inputs take seconds to parse: bench/worst_case.sh runs a file at it.)
  ASSERT_TRUE(ParseScenario(Minimal("  - {key: a, value: 1}\n", inputs(1'000)), "at.yaml").ok());
  std::string suppliers;
  for (int i = 0; i < 101; ++i) suppliers += "  - name: s" + std::to_string(i) + "\n";
  ExpectErrorAt(ParseScenario(Minimal("  - name: llm\n", "  - name: llm\n" + suppliers), "sup.yaml"), "sup.yaml",
                3 + 100, 5, "more than 100 entries in 'suppliers' (limit kSuppliersMax");
  std::string steps;
  for (int i = 0; i < 101; ++i) steps += "      - output\n";
  ExpectErrorAt(ParseScenario(Minimal("      - output\n", steps), "steps.yaml"), "steps.yaml", 9 + 99, 9,
                "more than 100 entries in 'steps' (limit kActionStepsMax");
}

// Strategy: a value past its limit names the limit; a name past the string
// limit quotes at most 80 characters of it.
TEST(ScenarioParserTest, ValuesPastTheirLimitNameIt) {
  ExpectErrorAt(ParseScenario(Minimal("name: minimal\n", "name: minimal\nlog: {partitions: 1025}\n"), "p.yaml"),
                "p.yaml", 2, 19, "expected an integer in [1, 1024] for 'partitions', got '1025' (over the limit "
                                  "kPartitionsMax");
  ExpectErrorAt(ParseScenario(Minimal("name: minimal\n", "name: minimal\nparallelism: 65\nmax_parallelism: 128\n"),
                              "par.yaml"),
                "par.yaml", 2, 14, "expected an integer in [1, 64] for 'parallelism', got '65' (over the limit "
                                   "kParallelismMax");
  ExpectErrorAt(ParseScenario(Minimal("      - run\n", "      - run_ms: 86400001\n"), "ms.yaml"), "ms.yaml", 15, 17,
                "got '86400001' (over the limit kDurationMsMax");
  ExpectErrorAt(ParseScenario(Minimal("name: minimal", "name: " + std::string(4097, 'n')), "name.yaml"), "name.yaml",
                1, 7, "'name' is 4097 bytes long, over the limit of 4096 (kStringBytesMax): got '" +
                          std::string(80, 'n') + "…' (4097 characters)");
  ExpectErrorAt(ParseScenario(std::string(limits::kFileBytesMax + 1, '#'), "big.yaml"), "big.yaml", 1, 1,
                "over the limit of 2097152 (kFileBytesMax");
}

}  // namespace
}  // namespace durasim
