// Scenario writer implementation (yaml-cpp's emitter does the quoting).
#include "sim/scenario_writer.h"

#include <yaml-cpp/yaml.h>

namespace durasim {
namespace {

void WriteStep(YAML::Emitter& out, const ActionStep& step) {
  switch (step.kind) {
    case ActionStep::Kind::kCall:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "call";
      if (step.mode == CallMode::kAsync) {
        out << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "supplier" << YAML::Value
            << YAML::DoubleQuoted << step.name << YAML::Key << "mode" << YAML::Value << "async" << YAML::EndMap;
      } else {
        out << YAML::Value << YAML::DoubleQuoted << step.name;
      }
      out << YAML::EndMap;
      return;
    case ActionStep::Kind::kMemory:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "memory" << YAML::Value << YAML::DoubleQuoted << step.name
          << YAML::EndMap;
      return;
    case ActionStep::Kind::kEmit:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "emit" << YAML::Value << YAML::DoubleQuoted << step.name
          << YAML::EndMap;
      return;
    case ActionStep::Kind::kOutput:
      out << "output";
      return;
  }
}

void WriteAttemptStep(YAML::Emitter& out, const AttemptStep& step) {
  auto one = [&](const char* key, auto value) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << key << YAML::Value << value << YAML::EndMap;
  };
  switch (step.kind) {
    case AttemptStep::Kind::kRead:
      if (step.count < 0) {
        one("read", "all");
      } else {
        one("read", step.count);
      }
      return;
    case AttemptStep::Kind::kCheckpoint: one("checkpoint", step.checkpoint); return;
    case AttemptStep::Kind::kComplete: one("complete", step.checkpoint); return;
    case AttemptStep::Kind::kAbort: one("abort", step.checkpoint); return;
    case AttemptStep::Kind::kRun: out << "run"; return;
    case AttemptStep::Kind::kRunFor: one("run_ms", step.duration_ms); return;
    case AttemptStep::Kind::kCrash: out << "crash"; return;
    case AttemptStep::Kind::kArm:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "arm" << YAML::Value << YAML::Flow << YAML::BeginMap
          << YAML::Key << "fault" << YAML::Value << FaultKindName(step.fault) << YAML::Key << "nth"
          << YAML::Value << step.nth << YAML::EndMap << YAML::EndMap;
      return;
    case AttemptStep::Kind::kBrokerDown:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "broker_down" << YAML::Value << YAML::Flow
          << YAML::BeginMap << YAML::Key << "for_ms" << YAML::Value << step.duration_ms << YAML::EndMap
          << YAML::EndMap;
      return;
    case AttemptStep::Kind::kCorrupt:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "corrupt" << YAML::Value << YAML::Flow << YAML::BeginMap
          << YAML::Key << "partition" << YAML::Value << step.partition << YAML::Key << "offset" << YAML::Value
          << step.offset << YAML::EndMap << YAML::EndMap;
      return;
  }
}

}  // namespace

std::string WriteScenarioYaml(const Scenario& s, const std::vector<std::string>& header_lines) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << s.name;
  if (!s.description.empty()) out << YAML::Key << "description" << YAML::Value << YAML::DoubleQuoted << s.description;
  out << YAML::Key << "seed" << YAML::Value << s.seed;
  if (s.mutant.has_value()) out << YAML::Key << "mutant" << YAML::Value << *s.mutant;
  out << YAML::Key << "log" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "partitions"
      << YAML::Value << s.log.partitions << YAML::Key << "linger_ms" << YAML::Value << s.log.linger_ms << YAML::Key
      << "ack_latency_ms" << YAML::Value << s.log.ack_latency_ms << YAML::Key << "delivery_timeout_ms"
      << YAML::Value << s.log.delivery_timeout_ms;
  if (s.log.put_retries_max != 0) out << YAML::Key << "put_retries_max" << YAML::Value << s.log.put_retries_max;
  if (s.log.tombstones) out << YAML::Key << "tombstones" << YAML::Value << true;
  out << YAML::EndMap;

  out << YAML::Key << "suppliers" << YAML::Value << YAML::BeginSeq;
  for (const SupplierSpec& supplier : s.suppliers) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << supplier.name;
    if (supplier.scale.has_value()) out << YAML::Key << "scale" << YAML::Value << *supplier.scale;
    if (supplier.drifting) out << YAML::Key << "drifting" << YAML::Value << true;
    out << YAML::Key << "latency_ms" << YAML::Value << supplier.latency_ms << YAML::EndMap;
  }
  out << YAML::EndSeq;

  out << YAML::Key << "actions" << YAML::Value << YAML::BeginSeq;
  for (const ActionSpec& action : s.actions) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << action.name;
    out << YAML::Key << "on" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& type : action.on) out << YAML::DoubleQuoted << type;
    out << YAML::EndSeq;
    out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
    for (const ActionStep& step : action.steps) WriteStep(out, step);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;

  out << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
  for (const InputSpec& input : s.inputs) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "key" << YAML::Value << YAML::DoubleQuoted << input.key
        << YAML::Key << "value" << YAML::Value << input.value << YAML::EndMap;
  }
  out << YAML::EndSeq;

  out << YAML::Key << "attempts" << YAML::Value << YAML::BeginSeq;
  for (const AttemptSpec& attempt : s.attempts) {
    out << YAML::BeginMap;
    if (attempt.restore.has_value()) out << YAML::Key << "restore" << YAML::Value << *attempt.restore;
    out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
    for (const AttemptStep& step : attempt.steps) WriteAttemptStep(out, step);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;

  out << YAML::Key << "expect" << YAML::Value << YAML::BeginMap << YAML::Key << "verdict" << YAML::Value
      << s.expect.verdict.name();
  if (s.expect.outputs.has_value()) {
    out << YAML::Key << "outputs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int64_t value : *s.expect.outputs) out << value;
    out << YAML::EndSeq;
  }
  if (s.expect.supplier_calls.has_value()) out << YAML::Key << "supplier_calls" << YAML::Value << *s.expect.supplier_calls;
  out << YAML::EndMap;
  out << YAML::EndMap;

  std::string text;
  for (const std::string& line : header_lines) text += "# " + line + "\n";
  text += out.c_str();
  text += "\n";
  return text;
}

}  // namespace durasim
