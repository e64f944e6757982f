// Tests of the vocabulary tables (model/enum_table.h) and the one mapping
// between verdicts and expectations.
#include "model/verdict.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/backends/backend_kind.h"
#include "model/coverage.h"
#include "model/invariant.h"
#include "model/scenario.h"

namespace durasim {
namespace {

template <typename E>
void ExpectNamesRoundTrip() {
  for (E value : AllOf<E>()) {
    EXPECT_EQ(ParseName<E>(NameOf(value)), value) << NameOf(value);
    EXPECT_NE(std::string(DescriptionOf(value)), "") << NameOf(value);
  }
  EXPECT_FALSE(ParseName<E>("no-such-name").has_value());
}

// Strategy: every table lists each value once, in declaration order, and a
// name parses back to its value; the names are the ones files and reports
// have always used.
TEST(VocabularyTest, TablesRoundTripAndKeepTheirNames) {
  ExpectNamesRoundTrip<Verdict>();
  ExpectNamesRoundTrip<Invariant>();
  ExpectNamesRoundTrip<BackendKind>();
  ExpectNamesRoundTrip<FaultKind>();
  ExpectNamesRoundTrip<ScriptFault>();
  ExpectNamesRoundTrip<PutPoint>();
  EXPECT_EQ(NameList<Verdict>(), "pass, violation, stuck, error, infra");
  EXPECT_EQ(NameList<BackendKind>(), "model, mock, kafka, fluss");
  EXPECT_EQ(AllOf<FaultKind>().size(), 11u);
  EXPECT_EQ(NameList<ScriptFault>(),
            "crash_step, checkpoint_abort, checkpoint_never_notified, restore_older_checkpoint, broker_down");
}

// Strategy: the expectations a scenario may name are pass, error and every
// invariant but determinism, listed as the parser's error message has them.
TEST(VocabularyTest, ScenarioExpectationsAreListedInOrder) {
  EXPECT_EQ(ExpectedVerdictNames(),
            "pass, error, once, finished, same-answer, phantom-save, cancellation, invalid-recovery, "
            "bounded-memory, put-latency, liveness, differential, retry-budget, provenance, ownership, reconcile");
  EXPECT_EQ(ParseExpectedVerdict("liveness"), ExpectedVerdict::Violated(Invariant::kLiveness));
  EXPECT_EQ(ParseExpectedVerdict("error"), ExpectedVerdict::Error());
  EXPECT_FALSE(ParseExpectedVerdict("determinism").has_value());
  EXPECT_FALSE(ParseExpectedVerdict("violation").has_value());
}

// Strategy: liveness is the stuck verdict or a violation naming it (an input
// left unfinished), other invariants need a violation naming them, pass and
// error are those verdicts; what a run is filed under is shown by it.
TEST(VocabularyTest, ShowsAndFiledUnderAgree) {
  const std::vector<Invariant> once = {Invariant::kOnce, Invariant::kSameAnswer};
  EXPECT_TRUE(Shows(Verdict::kViolation, once, ExpectedVerdict::Violated(Invariant::kSameAnswer)));
  EXPECT_FALSE(Shows(Verdict::kError, once, ExpectedVerdict::Violated(Invariant::kOnce)));
  EXPECT_FALSE(Shows(Verdict::kViolation, once, ExpectedVerdict::Violated(Invariant::kFinished)));
  EXPECT_TRUE(Shows(Verdict::kStuck, {Invariant::kLiveness}, ExpectedVerdict::Violated(Invariant::kLiveness)));
  EXPECT_TRUE(Shows(Verdict::kViolation, {Invariant::kLiveness}, ExpectedVerdict::Violated(Invariant::kLiveness)));
  EXPECT_FALSE(Shows(Verdict::kViolation, {Invariant::kOnce}, ExpectedVerdict::Violated(Invariant::kLiveness)));
  EXPECT_EQ(FiledUnder(Verdict::kViolation, {Invariant::kLiveness}), ExpectedVerdict::Violated(Invariant::kLiveness));
  EXPECT_EQ(FiledUnder(Verdict::kViolation, {Invariant::kLiveness, Invariant::kOnce}),
            ExpectedVerdict::Violated(Invariant::kOnce));
  EXPECT_TRUE(Shows(Verdict::kPass, {}, ExpectedVerdict::Pass()));
  EXPECT_FALSE(Shows(Verdict::kStuck, {}, ExpectedVerdict::Pass()));
  EXPECT_EQ(FiledUnder(Verdict::kViolation, once), ExpectedVerdict::Violated(Invariant::kOnce));
  EXPECT_EQ(FiledUnder(Verdict::kStuck, {Invariant::kLiveness}), ExpectedVerdict::Violated(Invariant::kLiveness));
  EXPECT_EQ(FiledUnder(Verdict::kError, once), ExpectedVerdict::Error());
  // An infra run shows no expectation: no scenario expects it, and the
  // parser does not take the name.
  EXPECT_FALSE(Shows(Verdict::kInfra, {}, ExpectedVerdict::Pass()));
  EXPECT_FALSE(Shows(Verdict::kInfra, {}, ExpectedVerdict::Error()));
  EXPECT_FALSE(Shows(Verdict::kInfra, {Invariant::kOnce}, ExpectedVerdict::Violated(Invariant::kOnce)));
  EXPECT_FALSE(ParseExpectedVerdict("infra").has_value());
  for (Verdict verdict : AllOf<Verdict>()) {
    if (verdict == Verdict::kInfra) continue;  // never filed
    const std::vector<Invariant> violated =
        verdict == Verdict::kViolation ? once : verdict == Verdict::kStuck ? std::vector{Invariant::kLiveness}
                                                                            : std::vector<Invariant>{};
    EXPECT_TRUE(Shows(verdict, violated, FiledUnder(verdict, violated))) << NameOf(verdict);
  }
}

// Strategy: coverage point names are the kind, kind@put, the script fault
// the world feature, the key shape, the log event or the store event; the
// required list is every fault kind, then every script fault, every world
// feature, every key shape, every log event, every store event of the
// designs asked for (all when none).
TEST(VocabularyTest, CoveragePointNames) {
  EXPECT_EQ(CoveragePoint::Fired(FaultKind::kLoseAck).Name(), "lose_ack");
  EXPECT_EQ(CoveragePoint::Fired(FaultKind::kLoseAck, PutPoint::kStart).Name(), "lose_ack@start");
  EXPECT_EQ(CoveragePoint::Made(ScriptFault::kNeverNotified).Name(), "checkpoint_never_notified");
  const std::vector<std::string> required = RequiredCoverage();
  EXPECT_EQ(CoveragePoint::Reached(WorldFeature::kFailureReraised).Name(), "failure_reraised");
  EXPECT_EQ(CoveragePoint::Happened(LogEvent::kDeleteRecords).Name(), "delete_records");
  EXPECT_EQ(CoveragePoint::Shaped(KeyShape::kSeparatorPrefix).Name(), "keys_separator_prefix");
  ASSERT_EQ(required.size(), AllOf<FaultKind>().size() + AllOf<ScriptFault>().size() + AllOf<WorldFeature>().size() +
                                 AllOf<KeyShape>().size() + AllOf<LogEvent>().size() + AllOf<StoreEvent>().size());
  EXPECT_EQ(required.front(), "crash_after_put_persisted");
  EXPECT_EQ(required[AllOf<FaultKind>().size() + AllOf<ScriptFault>().size() - 1], "broker_down");
  const size_t store_events = AllOf<StoreEvent>().size();
  const size_t key_shapes = AllOf<KeyShape>().size();
  EXPECT_EQ(required[required.size() - store_events - AllOf<LogEvent>().size() - key_shapes - 1], "step_during_rebuild");
  EXPECT_EQ(required[required.size() - store_events - AllOf<LogEvent>().size() - 1], "key_non_ascii");
  EXPECT_EQ(required[required.size() - store_events - 1], "foreign_record");
  EXPECT_EQ(required.back(), "buckets_rebuilt");
  // A design's events are required only of sweeps that ran it.
  EXPECT_EQ(RequiredCoverage({StoreDesign::kKafkaRewind}).size(), required.size() - store_events);
  // A fluss-only sweep: its own event, and none of what a Fluss table
  // cannot do (re-create, compact, widen, tombstones).
  const std::vector<std::string> fluss = RequiredCoverage({StoreDesign::kFluss});
  EXPECT_EQ(fluss.size(), required.size() - (store_events - 1) - 6 - 3);
  EXPECT_EQ(fluss.back(), "buckets_rebuilt");
  EXPECT_EQ(std::count(fluss.begin(), fluss.end(), "add_partitions"), 0);
  EXPECT_EQ(std::count(fluss.begin(), fluss.end(), "tombstone_fault"), 0);
  EXPECT_EQ(std::count(fluss.begin(), fluss.end(), "legacy_marker_read"), 0);
  EXPECT_EQ(std::count(fluss.begin(), fluss.end(), "tombstones_migrated"), 0);
  EXPECT_EQ(RequiredCoverage({StoreDesign::kFluss, StoreDesign::kKafkaRewind}).size(), required.size() - 2);
  EXPECT_EQ(CoveragePoint::Happened(StoreEvent::kRewritesWritten).Name(), "rewrites_written");
}

}  // namespace
}  // namespace durasim
