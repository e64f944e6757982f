// LogOperator implementation.
#include "model/log_operator.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/coverage.h"
#include "model/log_lifecycle.h"
#include "model/sim_time.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// The key (`what` "key") or value of the record at (partition, offset) of
// `log`, for a foreign record that takes it.
Result<std::string> FieldOf(const std::vector<std::vector<LogRecord>>& log, int32_t partition, int64_t offset,
                            std::string_view what) {
  if (static_cast<size_t>(partition) < log.size()) {
    for (const LogRecord& record : log[static_cast<size_t>(partition)]) {
      if (record.offset == offset) return what == "key" ? record.key : record.value;
    }
  }
  return Status(StatusCode::kInvalidArgument,
                fmt::format("foreign: no record at partition {} offset {} to take the {} of", partition, offset, what));
}

// A failure of the backend `backend` at `what`, as the run reports it.
Status BackendFailed(const std::string& what, const LogBackend& backend, const Status& failed) {
  return Status(failed.code(), fmt::format("{}: backend {} failed: {}", what, backend.name(), failed.ToString()));
}

}  // namespace

void LogOperator::MarkCorrupted(int32_t partition, int64_t offset) {
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(partition, world_.lifecycle().partitions());
  DURASIM_CHECK_GE(offset, 0);
  world_.backend().Corrupt(partition, offset);
  world_.NoteCorrupted(partition, offset);
  world_.Record("log.corrupted", "partition={} offset={}", partition, offset);
}

Status LogOperator::Corrupt(int32_t partition, int64_t offset) {
  Result<bool> found = world_.backend().HasRecord(partition, offset);
  if (!found.ok()) {
    return Status(found.status().code(), fmt::format("corrupt: reading the log of backend {} failed: {}",
                                                     world_.backend().name(), found.status().ToString()));
  }
  if (!*found) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("corrupt: no record at partition {} offset {}", partition, offset));
  }
  MarkCorrupted(partition, offset);
  return Status::Ok();
}

Status LogOperator::AppendForeign(int32_t partition, const ForeignRecordSpec& spec) {
  // A partition an add_partitions step adds later does not exist yet: the
  // scenario is wrong, not the store (a real producer is refused too).
  const int32_t partitions = world_.lifecycle().partitions();
  if (partition >= partitions) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("foreign: partition {} does not exist yet (the topic has {} partitions at this step)",
                              partition, partitions));
  }
  std::string key = spec.key.value_or("");
  std::string value = spec.value.value_or("");
  if (spec.key_of || spec.value_of) {
    Result<std::vector<std::vector<LogRecord>>> log = world_.ReadLog();
    if (!log.ok()) {
      return Status(log.status().code(), fmt::format("foreign: reading the log of backend {} failed: {}",
                                                     world_.backend().name(), log.status().ToString()));
    }
    if (spec.key_of) {
      Result<std::string> taken = FieldOf(*log, partition, *spec.key_of, "key");
      if (!taken.ok()) return taken.status();
      key = std::move(taken).value();
    }
    if (spec.value_of) {
      Result<std::string> taken = FieldOf(*log, partition, *spec.value_of, "value");
      if (!taken.ok()) return taken.status();
      value = std::move(taken).value();
    }
  }
  Result<RecordPosition> at = world_.backend().AppendForeign(partition, key, value);
  if (!at.ok()) return BackendFailed("foreign", world_.backend(), at.status());
  DURASIM_CHECK_EQ(at->partition, partition);
  DURASIM_CHECK_GE(at->offset, 0);
  world_.lifecycle().NoteForeignAppend(LogRecord{at->partition, at->offset, key, value}, world_.now());
  world_.NoteForeign(at->partition, at->offset, key);
  world_.CountFault(CoveragePoint::Happened(LogEvent::kForeignRecord));
  world_.Record("log.foreign", "partition={} offset={} key={:?} {}", at->partition, at->offset, key,
                value.empty() ? std::string("tombstone") : fmt::format("bytes={}", value.size()));
  return Status::Ok();
}

void LogOperator::NoteForeignReads(const Checkpoint& checkpoint, const std::vector<RecoveryMarker>& markers) {
  if (markers.empty() || checkpoint.topic_incarnation != world_.lifecycle().incarnation()) return;
  const std::vector<World::ForeignRead> reads =
      world_.ForeignInRange(MinimumMarker(markers).offsets, world_.lineage(), checkpoint.attempt);
  if (reads.empty()) return;
  World::ForeignRead first = reads.front();
  DURASIM_CHECK_NE(first.writer_lineage, world_.lineage());  // its lineage wrote it: no foreign read
  first.trace_index =
      world_.Record("restore.foreign", "records={} first_partition={} first_offset={} first_key={:?} written_by={}",
                    reads.size(), first.partition, first.offset, first.key,
                    first.writer_lineage == 0 ? std::string("outside")
                                              : fmt::format("lineage-{}", first.writer_lineage));
  world_.NoteForeignRead(first);
}

Status LogOperator::DeleteRecords(int32_t partition, int64_t before_offset) {
  return Delete(partition, before_offset, LogEvent::kDeleteRecords);
}

Status LogOperator::Delete(int32_t partition, int64_t before_offset, LogEvent why) {
  LogLifecycle& lifecycle = world_.lifecycle();
  DURASIM_CHECK_GE(partition, 0);
  const char* what = why == LogEvent::kRetention ? "retention" : "delete_records";
  // The parser admits a partition an earlier add_partitions step adds; a
  // crash before that step leaves the topic without it.
  if (partition >= lifecycle.partitions()) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("{}: partition {} does not exist yet (the topic has {} partitions at this step)", what,
                              partition, lifecycle.partitions()));
  }
  Result<int64_t> start = world_.backend().DeleteRecords(partition, before_offset);
  if (!start.ok()) return BackendFailed(what, world_.backend(), start.status());
  if (*start <= lifecycle.start(partition)) return Status::Ok();  // nothing left the log
  const int64_t from = lifecycle.start(partition);
  lifecycle.NoteDeleted(partition, *start);
  world_.CountFault(CoveragePoint::Happened(why));
  world_.Record(why == LogEvent::kRetention ? "log.retention" : "log.deleted",
                "partition={} records=[{}, {}) start={}", partition, from, *start, *start);
  return Status::Ok();
}

Status LogOperator::ApplyRetention() {
  const int64_t retention_ms = world_.scenario().log.retention_ms;
  if (retention_ms <= 0) return Status::Ok();
  for (const auto& [partition, before] : world_.lifecycle().Expired(world_.now(), Ms(retention_ms))) {
    DURASIM_CHECK_GT(before, world_.lifecycle().start(partition));  // Expired names only what moves the start
    if (Status deleted = Delete(partition, before, LogEvent::kRetention); !deleted.ok()) return deleted;
  }
  return Status::Ok();
}

Status LogOperator::Compact() {
  LogLifecycle& lifecycle = world_.lifecycle();
  const SimTime now = world_.now();
  const int64_t delete_retention_ms = world_.scenario().log.delete_retention_ms;
  // Without log.delete_retention_ms no tombstone is ever removed.
  TombstoneExpired expired;
  if (delete_retention_ms > 0) {
    expired = [&lifecycle, now](int32_t partition, int64_t offset) {
      return lifecycle.TombstoneExpired(partition, offset, now);
    };
  }
  Result<Compaction> removed = world_.backend().Compact(expired);
  if (!removed.ok()) return BackendFailed("compact", world_.backend(), removed.status());
  // Compaction removes records the log holds: none below a log start.
  for (const auto& [partition, offset] : removed->superseded) DURASIM_CHECK_GE(offset, lifecycle.start(partition));
  for (const auto& [partition, offset] : removed->tombstones_expired) {
    DURASIM_CHECK_GE(offset, lifecycle.start(partition));
  }
  lifecycle.NoteCompacted(removed->superseded);
  lifecycle.NoteTombstonesExpired(removed->tombstones_expired);
  for (const auto& [partition, offset] : removed->superseded) world_.ForgetCorrupted(partition, offset);
  for (const auto& [partition, offset] : removed->tombstones_expired) world_.ForgetCorrupted(partition, offset);
  if (removed->removed() != 0) world_.CountFault(CoveragePoint::Happened(LogEvent::kCompact));
  if (!removed->tombstones_expired.empty()) world_.CountFault(CoveragePoint::Happened(LogEvent::kTombstonesRemoved));
  if (delete_retention_ms > 0) {
    // The tombstones this compaction reached and left get their horizon.
    lifecycle.StampTombstones(now + Ms(delete_retention_ms));
    world_.Record("log.compacted", "records_removed={} tombstones_removed={}", removed->removed(),
                  removed->tombstones_expired.size());
  } else {
    world_.Record("log.compacted", "records_removed={}", removed->removed());
  }
  return Status::Ok();
}

Status LogOperator::AddPartitions(int32_t added) {
  DURASIM_CHECK_GE(added, 1);
  LogLifecycle& lifecycle = world_.lifecycle();
  const int32_t before = lifecycle.partitions();
  if (Status grown = world_.backend().AddPartitions(before + added); !grown.ok()) {
    return BackendFailed("add_partitions", world_.backend(), grown);
  }
  lifecycle.NotePartitionsAdded(added);
  world_.CountFault(CoveragePoint::Happened(LogEvent::kAddPartitions));
  world_.Record("log.partitions_added", "partitions={} was={}", before + added, before);
  return Status::Ok();
}

Status LogOperator::RecreateTopic(const std::function<void()>& fail_over) {
  DURASIM_CHECK(static_cast<bool>(fail_over));
  LogLifecycle& lifecycle = world_.lifecycle();
  world_.Record("log.recreated", "incarnation={}", lifecycle.incarnation() + 1);
  world_.CountFault(CoveragePoint::Happened(LogEvent::kRecreateTopic));
  // The job fails over first, as Flink's would when its topic vanishes; the
  // topic is re-created with no incarnation connected.
  fail_over();
  if (Status recreated = world_.backend().RecreateTopic(); !recreated.ok()) {
    return Status(recreated.code(),
                  fmt::format("recreate_topic on backend {}: {}", world_.backend().name(), recreated.ToString()));
  }
  lifecycle.NoteRecreated();
  world_.ForgetCorrupted();
  world_.ForgetWritten();
  return Status::Ok();
}

}  // namespace durasim
