// LogOperator: the harness's hand on the run's log, from outside the job:
// what a scenario's log steps (and the corrupt fault) do to the state
// topic, on whichever backend holds it: corrupt a record, append a foreign
// one, delete records, apply retention, compact, add partitions, re-create
// the topic. Each operation acts on the backend, then keeps the world's
// record of it true: the log's lifecycle (model/log_lifecycle.h), the
// corrupted and foreign records, the coverage count and the trace line.
// The job (Attempt) drives it from its script; what the job must know
// afterwards is asked of the world it keeps current.
//
// An operation the scenario asked for that cannot be done (no such record,
// a partition not there yet, a backend failure) is a Status error whose
// message the attempt reports as its own; nothing of the world is changed
// after the failing call.
//
// Thread-safety: none; it runs on the thread that drives the run's world.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "model/checkpoint.h"
#include "model/scenario.h"
#include "model/world.h"
#include "store/status.h"

namespace durasim {

class LogOperator {
 public:
  // REQUIRES: `world` outlives the operator.
  explicit LogOperator(World& world) : world_(world) {}

  // Garbage at (partition, offset), written by the backend where it can
  // and shown to every reader of the log (World::ReadLog, the sinks).
  // REQUIRES: the record exists.
  void MarkCorrupted(int32_t partition, int64_t offset);
  // The corrupt step: an error when there is no record at (partition, offset).
  [[nodiscard]] Status Corrupt(int32_t partition, int64_t offset);
  // The foreign step: a record the run does not write, appended to
  // `partition` by a producer of the backend's own (no incarnation hears of
  // it). An error when the partition does not exist yet, or a record it
  // takes its key or value from is not in the log.
  [[nodiscard]] Status AppendForeign(int32_t partition, const ForeignRecordSpec& spec);
  // The records a restore of `checkpoint` reads from `markers` (its own, or
  // a hand-made list) that the current lineage did not write: traced, and
  // the first kept for the verdict (World::NoteForeignRead).
  void NoteForeignReads(const Checkpoint& checkpoint, const std::vector<RecoveryMarker>& markers);
  // delete_records: the records of `partition` below `before_offset` leave
  // the log. REQUIRES: 0 <= partition < the topic's partitions.
  [[nodiscard]] Status DeleteRecords(int32_t partition, int64_t before_offset);
  // Retention (log.retention_ms): deletes what has expired by now; nothing
  // without a retention.
  [[nodiscard]] Status ApplyRetention();
  // compact: log compaction (KafkaLog::Compact) on the backend; tombstones
  // go once their delete horizon (log.delete_retention_ms) passed.
  [[nodiscard]] Status Compact();
  // add_partitions: `added` partitions join the topic on the backend; the
  // running incarnation's clients keep the partitions they connected with.
  // REQUIRES: added >= 1.
  [[nodiscard]] Status AddPartitions(int32_t added);
  // recreate_topic: `fail_over` stops the running job first (its topic is
  // gone; the backend must have no incarnation connected), then the topic is
  // deleted and created again, and no record of it is corrupted, foreign or
  // the run's any more. REQUIRES: `fail_over` is callable.
  [[nodiscard]] Status RecreateTopic(const std::function<void()>& fail_over);

 private:
  // Records below `before_offset` of `partition` leave the log, `why`:
  // delete_records or retention.
  Status Delete(int32_t partition, int64_t before_offset, LogEvent why);

  World& world_;
};

}  // namespace durasim
