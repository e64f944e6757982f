// The fault catalog: every kind of fault durasim makes, in one place, one
// table per family:
//
//   - armed faults (`arm: {fault: <kind>}`, FaultKind): a point of the
//     store's or the runtime's work, counted, where the fault strikes;
//   - script steps (AttemptStep::Kind): the job's own steps (read,
//     checkpoint, run...), the faults a script makes (crash, abort) and the
//     operations on the log and the broker (broker_down, delete_records,
//     compact, add_partitions, foreign...);
//   - schedule draws (ScheduleDraw): what a perturbed schedule varies.
//
// Each entry gives a kind its name as files, traces and reports write it,
// its parameters, the coverage point a run counts when it happens, how
// explore's generator draws it, and a one-line description; docs/scenarios.md
// has a row for each name. Every table is a switch without `default:`, so a
// new kind without an entry does not compile (-Wswitch), and
// model/fault_catalog_test.cc and properties/fault_catalog_draw_test.cc fail
// when an entry lacks its coverage point, its doc row or its draw (the recipe:
// docs/architecture.md "Recipes").
//
// Thread-safety: pure functions of their argument.
#pragma once

#include <optional>

#include "model/coverage.h"
#include "model/scenario.h"

namespace durasim {

// How explore's generator (properties/scenario_generator.cc) draws a kind.
enum class GeneratorDraw {
  kSwarmArm,      // an arm of a kind the seed's swarm picked (ArmStep), from the start of the choice stream
  kLateArm,       // an arm of a kind added after the choice stream was fixed (DrawLateAdditions)
  kScript,        // a script step the attempt builder places (AttemptBuilder, DrawLogShapes...)
  kLogEvents,     // behind the gate of DrawLogEvents
  kLogShapes,     // behind the gate of DrawLogShapes
  kBlame,         // behind the gate of DrawBlame (a new job, a record from outside)
  kPerturbedRun,  // not by explore: every run of `durasim run --perturb N` draws it
  kNotDrawn,      // hand-written scenarios only; `why_not` says why
};

std::optional<EnumInfo> EnumInfoOf(GeneratorDraw draw);

// What an armed fault's points are, and so which selectors aim it: writes
// (put, key, seq, action, call), durable calls (key, seq, action, call) or
// checkpoints (nth and subtask only).
enum class ArmTarget { kNone, kPut, kCall, kCheckpoint };

// A kind of fault as the catalog describes it.
struct FaultEntry {
  const char* name;         // as scenario files, traces and reports write it
  const char* parameters;   // what a scenario gives it, as docs/scenarios.md writes it ("" for none)
  const char* description;  // one line
  std::optional<CoveragePoint> coverage;  // what a run counts when it happens; none: `why_not` says why
  GeneratorDraw draw;
  const char* why_not = "";  // why it is not drawn, or not counted
  ArmTarget target = ArmTarget::kNone;  // armed faults only
};

// The armed faults. EnumInfoOf(FaultKind) (model/scenario.h) is this table's
// name and description.
std::optional<FaultEntry> FaultEntryOf(FaultKind kind);

// What a script step is.
enum class StepFamily {
  kJob,           // the job's own work: read, checkpoint, complete, run, run_ms, arm
  kScriptFault,   // a fault the script makes: crash, abort
  kLogOperation,  // an operation on the log or the broker, from outside the job
};

// A script step as the catalog describes it: its keyword, whether it takes
// a value (`- keyword: value`, else the bare `- keyword`), its family, and
// for a fault (every family but kJob) its fault entry.
struct StepEntry {
  const char* keyword;
  bool takes_value;
  StepFamily family;
  std::optional<FaultEntry> fault;
};

// The step table, in AttemptStep::Kind's order (the order error messages
// list the keywords in).
std::optional<StepEntry> StepEntryOf(AttemptStep::Kind kind);

// What a perturbed schedule varies (model/perturbation.h).
enum class ScheduleDraw {
  kLatency,     // each latency given as a range is drawn
  kTimerOrder,  // timers due at the same instant fire in a seeded order
};

std::optional<FaultEntry> FaultEntryOf(ScheduleDraw draw);
std::optional<EnumInfo> EnumInfoOf(ScheduleDraw draw);

}  // namespace durasim
