// Scenario writer implementation (yaml-cpp's emitter does the quoting; the
// step keywords come from the parser's table, scenario_keywords.h).
#include "sim/scenario/scenario_writer.h"

#include "store/utf8.h"

#include <yaml-cpp/yaml.h>

#include "model/key_groups.h"
#include "model/store_designs.h"
#include "model/typed_key.h"
#include "sim/scenario/scenario_keywords.h"

namespace durasim {
namespace {

// Bytes as they were read: a string when they are valid UTF-8, else `!!binary`.
void WriteBytes(YAML::Emitter& out, const std::string& bytes) {
  if (IsValidUtf8(bytes)) {
    out << YAML::DoubleQuoted << bytes;
    return;
  }
  out << YAML::Binary(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

// An input key as it was read: `!long <decimal>` for a Long key
// (model/typed_key.h), else its bytes.
void WriteKey(YAML::Emitter& out, const std::string& key) {
  if (const std::optional<int64_t> value = LongOfKey(key)) {
    out << YAML::LocalTag("long") << *value;
    return;
  }
  WriteBytes(out, key);
}

void WriteStep(YAML::Emitter& out, const ActionStep& step) {
  const char* keyword = StepKeywordOf(step.kind);
  switch (step.kind) {
    case ActionStep::Kind::kCall:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << keyword;
      if (step.mode == CallMode::kAsync || step.arg != ArgSource::kAcc) {
        out << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "supplier" << YAML::Value
            << YAML::DoubleQuoted << step.name;
        if (step.mode == CallMode::kAsync) out << YAML::Key << "mode" << YAML::Value << "async";
        if (step.arg != ArgSource::kAcc) {
          out << YAML::Key << "arg" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "from"
              << YAML::Value << NameOf(step.arg) << YAML::EndMap;
        }
        out << YAML::EndMap;
      } else {
        out << YAML::Value << YAML::DoubleQuoted << step.name;
      }
      out << YAML::EndMap;
      return;
    case ActionStep::Kind::kMemory:
    case ActionStep::Kind::kRecall:
    case ActionStep::Kind::kMemoryAdd:
    case ActionStep::Kind::kEmit:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << keyword << YAML::Value << YAML::DoubleQuoted << step.name
          << YAML::EndMap;
      return;
    case ActionStep::Kind::kOutput:
      out << keyword;
      return;
  }
}

// The options of an `arm:` step: the fault, its nth, and what it selects.
void WriteArmOptions(YAML::Emitter& out, const AttemptStep& step) {
  out << YAML::Key << "fault" << YAML::Value << NameOf(step.fault) << YAML::Key << "nth" << YAML::Value << step.nth;
  if (step.subtask) out << YAML::Key << "subtask" << YAML::Value << *step.subtask;
  if (step.select.put) out << YAML::Key << "put" << YAML::Value << NameOf(*step.select.put);
  if (step.select.key) {
    out << YAML::Key << "key" << YAML::Value;
    WriteKey(out, *step.select.key);
  }
  if (step.select.seq) out << YAML::Key << "seq" << YAML::Value << *step.select.seq;
  if (step.select.action) out << YAML::Key << "action" << YAML::Value << *step.select.action;
  if (step.select.call) out << YAML::Key << "call" << YAML::Value << *step.select.call;
}

// The options of a `foreign:` step: the partition and the record written there.
void WriteForeignOptions(YAML::Emitter& out, const AttemptStep& step) {
  const ForeignRecordSpec& record = step.foreign;
  out << YAML::Key << "partition" << YAML::Value << step.partition;
  if (record.key) {
    out << YAML::Key << "key" << YAML::Value;
    WriteBytes(out, *record.key);
  }
  if (record.key_of) out << YAML::Key << "key_of" << YAML::Value << *record.key_of;
  if (record.value) {
    out << YAML::Key << "value" << YAML::Value;
    WriteBytes(out, *record.value);
  }
  if (record.value_of) out << YAML::Key << "value_of" << YAML::Value << *record.value_of;
  if (record.tombstone) out << YAML::Key << "tombstone" << YAML::Value << true;
}

void WriteAttemptStep(YAML::Emitter& out, const AttemptStep& step) {
  const char* keyword = StepKeywordOf(step.kind);
  auto one = [&](auto value) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << keyword << YAML::Value << value << YAML::EndMap;
  };
  // A step whose value is a flow mapping of options: `{arm: {fault: ..., nth: ...}}`.
  auto begin_options = [&] {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << keyword << YAML::Value << YAML::Flow << YAML::BeginMap;
  };
  switch (step.kind) {
    case AttemptStep::Kind::kRead:
      if (step.count < 0) {
        one("all");
      } else {
        one(step.count);
      }
      return;
    case AttemptStep::Kind::kComplete:
      if (!step.notify) {
        begin_options();
        out << YAML::Key << "id" << YAML::Value << step.checkpoint << YAML::Key << "notify" << YAML::Value << false
            << YAML::EndMap << YAML::EndMap;
        return;
      }
      one(step.checkpoint);
      return;
    case AttemptStep::Kind::kCheckpoint:
    case AttemptStep::Kind::kAbort: one(step.checkpoint); return;
    case AttemptStep::Kind::kRun:
    case AttemptStep::Kind::kCrash:
    case AttemptStep::Kind::kRecreateTopic:
    case AttemptStep::Kind::kCompact: out << keyword; return;
    case AttemptStep::Kind::kRunFor: one(step.duration_ms); return;
    case AttemptStep::Kind::kAddPartitions: one(step.count); return;
    case AttemptStep::Kind::kArm:
      begin_options();
      WriteArmOptions(out, step);
      out << YAML::EndMap << YAML::EndMap;
      return;
    case AttemptStep::Kind::kBrokerDown:
    case AttemptStep::Kind::kSlowFetch:
      begin_options();
      out << YAML::Key << "for_ms" << YAML::Value << step.duration_ms << YAML::EndMap << YAML::EndMap;
      return;
    case AttemptStep::Kind::kCorrupt:
      begin_options();
      out << YAML::Key << "partition" << YAML::Value << step.partition << YAML::Key << "offset" << YAML::Value
          << step.offset << YAML::EndMap << YAML::EndMap;
      return;
    case AttemptStep::Kind::kForeign:
      begin_options();
      WriteForeignOptions(out, step);
      out << YAML::EndMap << YAML::EndMap;
      return;
    case AttemptStep::Kind::kDeleteRecords:
      begin_options();
      out << YAML::Key << "partition" << YAML::Value << step.partition << YAML::Key << "before_offset" << YAML::Value
          << step.offset << YAML::EndMap << YAML::EndMap;
      return;
  }
}

// A latency as the parser reads it: an integer, or `{min, max}` when a
// perturbed run may draw it from a range.
void WriteLatencyMs(YAML::Emitter& out, const char* key, int64_t min, const std::optional<int64_t>& max) {
  out << YAML::Key << key << YAML::Value;
  if (!max.has_value()) {
    out << min;
    return;
  }
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "min" << YAML::Value << min << YAML::Key << "max" << YAML::Value
      << *max << YAML::EndMap;
}

void WriteLog(YAML::Emitter& out, const LogConfig& log) {
  out << YAML::Key << "log" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "partitions"
      << YAML::Value << log.partitions;
  WriteLatencyMs(out, "linger_ms", log.linger_ms, log.linger_ms_max);
  WriteLatencyMs(out, "ack_latency_ms", log.ack_latency_ms, log.ack_latency_ms_max);
  out << YAML::Key << "delivery_timeout_ms" << YAML::Value << log.delivery_timeout_ms;
  if (log.put_retries_max != 0) out << YAML::Key << "put_retries_max" << YAML::Value << log.put_retries_max;
  if (log.tombstones) out << YAML::Key << "tombstones" << YAML::Value << true;
  if (log.retention_ms != 0) out << YAML::Key << "retention_ms" << YAML::Value << log.retention_ms;
  if (log.delete_retention_ms != 0) {
    out << YAML::Key << "delete_retention_ms" << YAML::Value << log.delete_retention_ms;
  }
  out << YAML::EndMap;
}

void WriteSuppliers(YAML::Emitter& out, const std::vector<SupplierSpec>& suppliers) {
  out << YAML::Key << "suppliers" << YAML::Value << YAML::BeginSeq;
  for (const SupplierSpec& supplier : suppliers) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << supplier.name;
    if (supplier.scale.has_value()) out << YAML::Key << "scale" << YAML::Value << *supplier.scale;
    if (supplier.drifting) out << YAML::Key << "drifting" << YAML::Value << true;
    WriteLatencyMs(out, "latency_ms", supplier.latency_ms, supplier.latency_ms_max);
    if (supplier.fails_nth.has_value()) {
      out << YAML::Key << "fails" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "nth" << YAML::Value
          << *supplier.fails_nth << YAML::EndMap;
    }
    if (supplier.fail_percent != 0) out << YAML::Key << "fail_percent" << YAML::Value << supplier.fail_percent;
    if (supplier.reconcile.size() == 1) {
      out << YAML::Key << "reconcile" << YAML::Value << NameOf(supplier.reconcile.front());
    } else if (!supplier.reconcile.empty()) {
      out << YAML::Key << "reconcile" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (ReconcileAnswer answer : supplier.reconcile) out << NameOf(answer);
      out << YAML::EndSeq;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void WriteExpectedRecord(YAML::Emitter& out, const ExpectedRecord& record) {
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << NameOf(record.kind);
  if (record.key) {
    out << YAML::Key << "key" << YAML::Value;
    WriteKey(out, *record.key);
  }
  if (record.seq) out << YAML::Key << "seq" << YAML::Value << *record.seq;
  if (record.action) out << YAML::Key << "action" << YAML::Value << *record.action;
  if (record.calls) {
    out << YAML::Key << "calls" << YAML::Value << YAML::BeginSeq;
    for (const ExpectedCall& call : *record.calls) {
      out << YAML::BeginMap;
      if (call.function) out << YAML::Key << "fn" << YAML::Value << *call.function;
      if (call.status) out << YAML::Key << "status" << YAML::Value << CallStatusName(*call.status);
      if (call.result) out << YAML::Key << "result" << YAML::Value << *call.result;
      if (call.error) out << YAML::Key << "error" << YAML::Value << YAML::DoubleQuoted << *call.error;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (record.outputs) {
    out << YAML::Key << "outputs" << YAML::Value << YAML::BeginSeq;
    for (int64_t output : *record.outputs) out << output;
    out << YAML::EndSeq;
  }
  if (record.memory) {
    out << YAML::Key << "memory" << YAML::Value << YAML::BeginSeq;
    for (const MemoryUpdate& update : *record.memory) {
      out << YAML::BeginMap << YAML::Key << "slot" << YAML::Value << YAML::DoubleQuoted << update.slot << YAML::Key
          << "value" << YAML::Value << update.value << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (record.events) {
    out << YAML::Key << "events" << YAML::Value << YAML::BeginSeq;
    for (const EmittedEvent& event : *record.events) {
      out << YAML::BeginMap << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << event.type << YAML::Key
          << "value" << YAML::Value << event.value << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

void WriteMarkerOffsets(YAML::Emitter& out, const MarkerOffsets& offsets) {
  out << YAML::Flow << YAML::BeginMap;
  for (const auto& [partition, offset] : offsets) out << YAML::Key << partition << YAML::Value << offset;
  out << YAML::EndMap;
}

void WriteHandMadeMarker(YAML::Emitter& out, const HandMadeMarkerSpec& marker) {
  out << YAML::Flow << YAML::BeginMap;
  if (marker.version) out << YAML::Key << "version" << YAML::Value << *marker.version;
  if (marker.topic) out << YAML::Key << "topic" << YAML::Value << YAML::DoubleQuoted << *marker.topic;
  switch (marker.offsets) {
    case HandMadeMarkerSpec::Offsets::kCheckpoint: break;  // the default
    case HandMadeMarkerSpec::Offsets::kLogEnd: out << YAML::Key << "offsets" << YAML::Value << "log_end"; break;
    case HandMadeMarkerSpec::Offsets::kStated:
      out << YAML::Key << "offsets" << YAML::Value;
      WriteMarkerOffsets(out, marker.stated);
      break;
  }
  out << YAML::EndMap;
}

void WriteExpectedMarker(YAML::Emitter& out, const ExpectedMarker& marker) {
  out << YAML::Flow << YAML::BeginMap;
  if (marker.version) out << YAML::Key << "version" << YAML::Value << *marker.version;
  if (marker.topic) out << YAML::Key << "topic" << YAML::Value << YAML::DoubleQuoted << *marker.topic;
  if (marker.offsets) {
    out << YAML::Key << "offsets" << YAML::Value;
    WriteMarkerOffsets(out, *marker.offsets);
  }
  if (marker.completed) {
    out << YAML::Key << "completed" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [key, seq] : *marker.completed) {
      out << YAML::Key;
      WriteKey(out, key);
      out << YAML::Value << seq;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void WriteExpectedRestores(YAML::Emitter& out, const std::vector<ExpectedRestore>& restores) {
  out << YAML::Key << "restores" << YAML::Value << YAML::BeginSeq;
  for (const ExpectedRestore& restore : restores) {
    out << YAML::BeginMap << YAML::Key << "attempt" << YAML::Value << restore.attempt;
    if (restore.subtask != 0) out << YAML::Key << "subtask" << YAML::Value << restore.subtask;
    if (restore.marker) {
      out << YAML::Key << "marker" << YAML::Value;
      WriteExpectedMarker(out, *restore.marker);
    }
    if (restore.cache) {
      out << YAML::Key << "cache" << YAML::Value << YAML::BeginSeq;
      for (const ExpectedRecord& record : *restore.cache) WriteExpectedRecord(out, record);
      out << YAML::EndSeq;
    }
    if (restore.rejected) out << YAML::Key << "rejected" << YAML::Value << YAML::DoubleQuoted << *restore.rejected;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void WriteExpectedCompletions(YAML::Emitter& out, const std::vector<ExpectedCompletion>& completions) {
  out << YAML::Key << "completions" << YAML::Value << YAML::BeginSeq;
  for (const ExpectedCompletion& completion : completions) {
    out << YAML::BeginMap << YAML::Key << "checkpoint" << YAML::Value << completion.checkpoint;
    if (completion.subtask != 0) out << YAML::Key << "subtask" << YAML::Value << completion.subtask;
    out << YAML::Key << "cache" << YAML::Value << YAML::BeginSeq;
    for (const ExpectedRecord& record : completion.cache) WriteExpectedRecord(out, record);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void WriteExpectedCheckpoints(YAML::Emitter& out, const std::vector<ExpectedCheckpoint>& checkpoints) {
  out << YAML::Key << "checkpoints" << YAML::Value << YAML::BeginSeq;
  for (const ExpectedCheckpoint& checkpoint : checkpoints) {
    out << YAML::BeginMap << YAML::Key << "id" << YAML::Value << checkpoint.id;
    out << YAML::Key << "markers" << YAML::Value << YAML::BeginSeq;
    for (const ExpectedMarker& marker : checkpoint.markers) WriteExpectedMarker(out, marker);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void WriteExpectedLog(YAML::Emitter& out, const std::vector<ExpectedPartition>& log) {
  out << YAML::Key << "log" << YAML::Value << YAML::BeginSeq;
  for (const ExpectedPartition& partition : log) {
    out << YAML::BeginMap << YAML::Key << "partition" << YAML::Value << partition.partition;
    out << YAML::Key << "records" << YAML::Value << YAML::BeginSeq;
    for (const ExpectedRecord& record : partition.records) WriteExpectedRecord(out, record);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// Only what differs from the default (fail), so a plan without error
// handling is written as before.
void WriteOnError(YAML::Emitter& out, const ErrorHandling& on_error) {
  switch (on_error.kind) {
    case OnError::kFail: return;
    case OnError::kIgnore: out << YAML::Key << "on_error" << YAML::Value << NameOf(on_error.kind); return;
    case OnError::kRetry:
      out << YAML::Key << "on_error" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << NameOf(on_error.kind)
          << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "max" << YAML::Value << on_error.retries_max
          << YAML::EndMap << YAML::EndMap;
      return;
    case OnError::kContinue:
      out << YAML::Key << "on_error" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << NameOf(on_error.kind)
          << YAML::Value << on_error.fallback << YAML::EndMap;
      return;
  }
}

void WriteActions(YAML::Emitter& out, const std::vector<ActionSpec>& actions) {
  out << YAML::Key << "actions" << YAML::Value << YAML::BeginSeq;
  for (const ActionSpec& action : actions) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << action.name;
    out << YAML::Key << "on" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& type : action.on) out << YAML::DoubleQuoted << type;
    out << YAML::EndSeq;
    WriteOnError(out, action.on_error);
    out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
    for (const ActionStep& step : action.steps) WriteStep(out, step);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void WriteInputs(YAML::Emitter& out, const std::vector<InputSpec>& inputs) {
  out << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
  for (const InputSpec& input : inputs) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "key" << YAML::Value;
    WriteKey(out, input.key);
    out
        << YAML::Key << "value" << YAML::Value << input.value << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void WriteAttempts(YAML::Emitter& out, const std::vector<AttemptSpec>& attempts) {
  out << YAML::Key << "attempts" << YAML::Value << YAML::BeginSeq;
  for (const AttemptSpec& attempt : attempts) {
    out << YAML::BeginMap;
    if (attempt.restore.has_value() && !attempt.markers.has_value() && attempt.during_rebuild.empty()) {
      out << YAML::Key << "restore" << YAML::Value << *attempt.restore;
    } else if (attempt.restore.has_value()) {
      out << YAML::Key << "restore" << YAML::Value << YAML::BeginMap << YAML::Key << "checkpoint" << YAML::Value
          << *attempt.restore;
      if (attempt.markers.has_value()) {
        out << YAML::Key << "markers" << YAML::Value << YAML::BeginSeq;
        for (const HandMadeMarkerSpec& marker : *attempt.markers) WriteHandMadeMarker(out, marker);
        out << YAML::EndSeq;
      }
      if (!attempt.during_rebuild.empty()) {
        out << YAML::Key << "during_rebuild" << YAML::Value << YAML::BeginSeq;
        for (const AttemptStep& step : attempt.during_rebuild) WriteAttemptStep(out, step);
        out << YAML::EndSeq;
      }
      out << YAML::EndMap;
    }
    if (attempt.parallelism.has_value()) out << YAML::Key << "parallelism" << YAML::Value << *attempt.parallelism;
    if (attempt.tombstones.has_value()) {
      out << YAML::Key << "log" << YAML::Value << YAML::BeginMap << YAML::Key << "tombstones" << YAML::Value
          << *attempt.tombstones << YAML::EndMap;
    }
    if (attempt.plan.has_value()) {
      out << YAML::Key << "plan" << YAML::Value << YAML::BeginMap;
      WriteSuppliers(out, attempt.plan->suppliers);
      WriteActions(out, attempt.plan->actions);
      out << YAML::EndMap;
    }
    out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
    for (const AttemptStep& step : attempt.steps) WriteAttemptStep(out, step);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void WriteUnfinished(YAML::Emitter& out, const Expectation& expect) {
  if (expect.unfinished_all) {
    out << YAML::Key << "unfinished" << YAML::Value << "all";
  } else if (!expect.unfinished.empty()) {
    out << YAML::Key << "unfinished" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int64_t offset : expect.unfinished) out << offset;
    out << YAML::EndSeq;
  }
  if (expect.allow_unfired) out << YAML::Key << "allow_unfired" << YAML::Value << true;
}

void WriteExpect(YAML::Emitter& out, const Expectation& expect) {
  out << YAML::Key << "expect" << YAML::Value << YAML::BeginMap << YAML::Key << "verdict" << YAML::Value
      << expect.verdict.name();
  if (expect.outputs.has_value()) {
    out << YAML::Key << "outputs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int64_t value : *expect.outputs) out << value;
    out << YAML::EndSeq;
  }
  if (expect.supplier_calls.has_value()) out << YAML::Key << "supplier_calls" << YAML::Value << *expect.supplier_calls;
  WriteUnfinished(out, expect);
  if (!expect.calls_by_supplier.empty()) {
    out << YAML::Key << "calls_by_supplier" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [supplier, count] : expect.calls_by_supplier) out << YAML::Key << supplier << YAML::Value << count;
    out << YAML::EndMap;
  }
  if (!expect.calls_by_input.empty()) {
    out << YAML::Key << "calls_by_input" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int64_t count : expect.calls_by_input) out << count;
    out << YAML::EndSeq;
  }
  if (!expect.fired.empty()) {
    out << YAML::Key << "fired" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (bool fired : expect.fired) out << fired;
    out << YAML::EndSeq;
  }
  if (!expect.attempt_ends.empty()) {
    out << YAML::Key << "attempts" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& end : expect.attempt_ends) out << end;
    out << YAML::EndSeq;
  }
  if (expect.restore_scanned_max) out << YAML::Key << "restore_scanned_max" << YAML::Value << *expect.restore_scanned_max;
  if (!expect.log.empty()) WriteExpectedLog(out, expect.log);
  if (!expect.restores.empty()) WriteExpectedRestores(out, expect.restores);
  if (!expect.checkpoints.empty()) WriteExpectedCheckpoints(out, expect.checkpoints);
  if (!expect.completions.empty()) WriteExpectedCompletions(out, expect.completions);
  out << YAML::EndMap;
}

}  // namespace

std::string WriteScenarioYaml(const Scenario& s, const std::vector<std::string>& header_lines) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << s.name;
  if (!s.description.empty()) out << YAML::Key << "description" << YAML::Value << YAML::DoubleQuoted << s.description;
  out << YAML::Key << "seed" << YAML::Value << s.seed;
  if (s.perturb_seed.has_value()) out << YAML::Key << "perturb_seed" << YAML::Value << *s.perturb_seed;
  if (s.mutant.has_value()) out << YAML::Key << "mutant" << YAML::Value << *s.mutant;
  if (s.store != StoreDesign::kKafkaRewind || s.store_named) out << YAML::Key << "store" << YAML::Value << NameOf(s.store);
  if (s.store_options != StoreChoices{}) {
    out << YAML::Key << "store_options" << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (s.store_options.added_partitions != AddedPartitions::kReadFromStart) {
      out << YAML::Key << "added_partitions" << YAML::Value << NameOf(s.store_options.added_partitions);
    }
    if (s.store_options.get != GetEviction::kLookup) {
      out << YAML::Key << "get" << YAML::Value << NameOf(s.store_options.get);
    }
    out << YAML::EndMap;
  }
  if (s.durable != DurableOptions{}) {
    out << YAML::Key << "durable" << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (!s.durable.execution) out << YAML::Key << "execution" << YAML::Value << "off";
    if (s.durable.pending != PendingSlots::kEveryCall) {
      out << YAML::Key << "pending" << YAML::Value << NameOf(s.durable.pending);
    }
    if (!s.durable.async_executor) out << YAML::Key << "async" << YAML::Value << "sync_fallback";
    if (s.durable.engine != ExecutionEngine::kMailbox) {
      out << YAML::Key << "engine" << YAML::Value << NameOf(s.durable.engine);
    }
    out << YAML::EndMap;
  }
  if (s.max_parallelism != kDefaultMaxParallelism) {
    out << YAML::Key << "max_parallelism" << YAML::Value << s.max_parallelism;
  }
  if (s.parallelism != 1) out << YAML::Key << "parallelism" << YAML::Value << s.parallelism;
  WriteLog(out, s.log);
  WriteSuppliers(out, s.suppliers);
  WriteActions(out, s.actions);
  WriteInputs(out, s.inputs);
  WriteAttempts(out, s.attempts);
  WriteExpect(out, s.expect);
  out << YAML::EndMap;

  std::string text;
  for (const std::string& line : header_lines) text += "# " + line + "\n";
  text += out.c_str();
  text += "\n";
  return text;
}

}  // namespace durasim
