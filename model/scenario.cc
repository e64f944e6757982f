// The fault kind table, shared by the parser, the writer, the fault plan and
// the generator.
#include "model/scenario.h"

#include "store/check.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(PutPoint point) {
  switch (point) {
    case PutPoint::kStart: return EnumInfo{"start", "the action's first state"};
    case PutPoint::kPending: return EnumInfo{"pending", "a durable call's slot, before the call"};
    case PutPoint::kResult: return EnumInfo{"result", "a durable call's result"};
    case PutPoint::kComplete: return EnumInfo{"complete", "the finished action"};
    case PutPoint::kTombstone: return EnumInfo{"tombstone", "a pruned state's tombstone"};
    case PutPoint::kCleanup: return EnumInfo{"cleanup", "a prune's cleanup record (its committed boundary)"};
    case PutPoint::kRewrite: return EnumInfo{"rewrite", "an unfinished state written again at a snapshot (kafka-rewrite)"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(AddedPartitions added) {
  switch (added) {
    case AddedPartitions::kReadFromStart:
      return EnumInfo{"read_from_start", "a restore reads each partition added after its checkpoint from offset 0"};
    case AddedPartitions::kReject:
      return EnumInfo{"reject", "a restore rejects a marker that names fewer partitions than the topic has (#1101)"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(GetEviction eviction) {
  switch (eviction) {
    case GetEviction::kLookup: return EnumInfo{"lookup", "get() only reads the cache"};
    case GetEviction::kOnDivergence:
      return EnumInfo{"evict_on_divergence",
                      "get() evicts every cached state of a later sequence number on a miss or when two cached "
                      "states share its (key, seq), as Flink Agents' get() does"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(ExecutionEngine engine) {
  switch (engine) {
    case ExecutionEngine::kMailbox: return EnumInfo{"mailbox", "the mailbox runs action tasks; async calls wait off it"};
    case ExecutionEngine::kWorkerPool:
      return EnumInfo{"worker_pool", "workers pull action tasks; a checkpoint drains the pulled ones first (#1119)"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(PendingSlots pending) {
  switch (pending) {
    case PendingSlots::kEveryCall: return EnumInfo{"every_call", "every durable call saves a PENDING slot first"};
    case PendingSlots::kReconcilable:
      return EnumInfo{"reconcilable", "only a call whose supplier has a reconciler saves a PENDING slot first"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(OnError on_error) {
  switch (on_error) {
    case OnError::kFail: return EnumInfo{"fail", "the job fails over"};
    case OnError::kIgnore: return EnumInfo{"ignore", "the action ends, completed with no effects"};
    case OnError::kRetry: return EnumInfo{"retry", "the call is made again, each try at its own call index"};
    case OnError::kContinue: return EnumInfo{"continue", "the action catches the failure and goes on with a fallback value"};
  }
  return std::nullopt;
}

std::optional<EnumInfo> EnumInfoOf(ArgSource source) {
  switch (source) {
    case ArgSource::kAcc: return EnumInfo{"acc", "the accumulator, the same on every replay"};
    case ArgSource::kAttempt:
      return EnumInfo{"attempt", "the accumulator and the attempt number, which a restore changes"};
  }
  return std::nullopt;
}

int32_t Scenario::ParallelismOf(int attempt) const {
  int32_t p = parallelism;
  for (size_t i = 0; i < attempts.size() && static_cast<int>(i) < attempt; ++i) {
    if (attempts[i].parallelism.has_value()) p = *attempts[i].parallelism;
  }
  return p;
}

bool Scenario::TombstonesIn(int attempt) const {
  bool tombstones = log.tombstones;
  for (size_t i = 0; i < attempts.size() && static_cast<int>(i) < attempt; ++i) {
    if (attempts[i].tombstones.has_value()) tombstones = *attempts[i].tombstones;
  }
  return tombstones;
}

bool Scenario::TombstonesEver() const {
  for (int attempt = 1; attempt <= static_cast<int>(attempts.size()); ++attempt) {
    if (TombstonesIn(attempt)) return true;
  }
  return log.tombstones;
}

int32_t Scenario::PartitionsMax() const {
  int64_t partitions = log.partitions;
  for (const AttemptSpec& attempt : attempts) {
    for (const std::vector<AttemptStep>* steps : {&attempt.during_rebuild, &attempt.steps}) {
      for (const AttemptStep& step : *steps) {
        if (step.kind == AttemptStep::Kind::kAddPartitions) partitions += step.count;
      }
    }
  }
  return static_cast<int32_t>(partitions);
}

const PlanSpec* Scenario::DeployedPlan(int attempt) const {
  const PlanSpec* plan = nullptr;
  for (size_t i = 0; i < attempts.size() && static_cast<int>(i) < attempt; ++i) {
    if (attempts[i].plan.has_value()) plan = &*attempts[i].plan;
  }
  return plan;
}

std::set<std::string> Scenario::MemorySlotsWritten() const {
  std::set<std::string> written;
  const auto add = [&](const std::vector<ActionSpec>& plan) {
    for (const ActionSpec& action : plan) {
      for (const ActionStep& step : action.steps) {
        if (step.kind == ActionStep::Kind::kMemory || step.kind == ActionStep::Kind::kMemoryAdd) written.insert(step.name);
      }
    }
  };
  add(actions);
  for (const AttemptSpec& attempt : attempts) {
    if (attempt.plan) add(attempt.plan->actions);
  }
  return written;
}

}  // namespace durasim
