// Tests of the reconcile checker, fed observer events by hand.
#include "properties/reconcile_checker.h"

#include <gtest/gtest.h>

#include "model/identity.h"

namespace durasim {
namespace {

class ReconcileCheckerTest : public ::testing::Test {
 protected:
  static std::vector<SupplierSpec> Suppliers() {
    SupplierSpec pay;
    pay.name = "pay";
    pay.reconcile = {ReconcileAnswer::kTruth};
    SupplierSpec plain;
    plain.name = "plain";
    return {pay, plain};
  }
  StateKey Key() const { return StateKey{"a", 1, 7, ActionHash("ask")}; }
  CallIdentity Call(int index, const std::string& fn = "pay", uint64_t digest = 42) const {
    return CallIdentity{Key(), index, fn, digest};
  }
  static CallResult Slot(CallStatus status, const std::string& fn = "pay", uint64_t digest = 42) {
    return CallResult{fn, digest, status, status == CallStatus::kSucceeded ? 5 : 0, ""};
  }
  // The run starts from a saved state holding `slots`.
  void Read(std::vector<CallResult> slots) {
    ActionState state;
    state.call_results = std::move(slots);
    checker_.OnSavedStateRead(Key(), &state, trace_.Add(SimTime{}, 1, "get.hit", ""));
  }
  void Reconciled(const CallIdentity& call, ReconcileAnswer answer) {
    const std::optional<CallResult> saved =
        answer == ReconcileAnswer::kDone ? std::optional<CallResult>(Slot(CallStatus::kSucceeded)) : std::nullopt;
    checker_.OnReconciled(call, Slot(CallStatus::kPending), answer, saved,
                          trace_.Add(SimTime{}, 2, "call.reconciled", ""));
  }
  // The log holds `call`'s PENDING slot, as the runtime writes it before it
  // makes the call.
  void PendingSaved(const CallIdentity& call) {
    DecodedState decoded{call.state_key, ActionState{}};
    decoded.state.call_results.assign(static_cast<size_t>(call.call_index) + 1, Slot(CallStatus::kSucceeded, "other"));
    decoded.state.call_results.back() = Slot(CallStatus::kPending, call.function, call.args_digest);
    checker_.OnRecordAppended(LogRecord{}, &decoded, trace_.Add(SimTime{}, 3, "log.append", ""));
  }
  // The call is made after its PENDING slot was saved.
  void Called(const CallIdentity& call) {
    PendingSaved(call);
    checker_.OnSupplierCall(call, CallArgument{1, std::nullopt}, trace_.Add(SimTime{}, 3, "supplier.call", ""));
  }
  // The saved call 0 of the mismatch tests.
  static CallResult FirstCall() { return Slot(CallStatus::kSucceeded, "plain", 41); }
  void ReportDoneThenMismatch() {
    Read({FirstCall(), Slot(CallStatus::kPending)});
    Reconciled(Call(1), ReconcileAnswer::kDone);
    checker_.OnAttemptStart(2);
    Read({FirstCall(), Slot(CallStatus::kFailed)});
    checker_.OnSavedCallMismatch(Call(0, "plain", 40), CallArgument{}, FirstCall(), 0);
  }
  // The runtime puts the state with `slots`, and the log appends it.
  void RuntimeWrote(std::vector<CallResult> slots) {
    checker_.OnPutIssued(Key(), trace_.Add(SimTime{}, 3, "put.issued", ""));
    DecodedState decoded{Key(), ActionState{}};
    decoded.state.call_results = std::move(slots);
    checker_.OnRecordAppended(LogRecord{}, &decoded, trace_.Add(SimTime{}, 3, "log.append", ""));
    checker_.OnPutResult(Key(), 0, Status::Ok(), trace_.Add(SimTime{}, 3, "put.ok", ""));
  }
  std::string Only() const {
    EXPECT_EQ(checker_.violations().size(), 1u);
    return checker_.violations().empty() ? "" : checker_.violations()[0].message;
  }

  Trace trace_;
  ReconcileChecker checker_{trace_, Suppliers()};
};

// Strategy: the production path: a PENDING slot is reconciled, then made
// again on not done; a call with no saved slot, or of a supplier without a
// reconciler, is made freely.
TEST_F(ReconcileCheckerTest, AskedThenMadeAgainIsFine) {
  Read({Slot(CallStatus::kPending)});
  Reconciled(Call(0), ReconcileAnswer::kNotDone);
  Called(Call(0));
  Called(Call(1));
  Read({Slot(CallStatus::kPending, "plain")});
  Called(Call(0, "plain"));
  EXPECT_TRUE(checker_.violations().empty());
}

// Strategy: asked about a slot the store's get returned with a result.
TEST_F(ReconcileCheckerTest, AskingAboutASavedResultIsAViolation) {
  Read({Slot(CallStatus::kSucceeded)});
  Reconciled(Call(0), ReconcileAnswer::kDone);
  EXPECT_NE(Only().find("whose saved slot is SUCCEEDED"), std::string::npos) << Only();
}

// Strategy: a PENDING slot of the very call made again without asking; a
// mismatch before it discards it (no violation).
TEST_F(ReconcileCheckerTest, MakingAPendingCallWithoutAskingIsAViolation) {
  Read({Slot(CallStatus::kSucceeded, "pay", 41), Slot(CallStatus::kPending)});
  checker_.OnSavedCallMismatch(Call(0, "pay", 40), CallArgument{}, Slot(CallStatus::kSucceeded, "pay", 41), 0);
  Called(Call(1));
  EXPECT_TRUE(checker_.violations().empty());
  Read({Slot(CallStatus::kPending)});
  Called(Call(0));
  EXPECT_NE(Only().find("without asking its reconciler"), std::string::npos) << Only();
}

// Strategy: a call reported done made again is a violation; a later not
// done takes the done back, and a new lineage may make it.
TEST_F(ReconcileCheckerTest, ACallReportedDoneIsNeverMadeAgain) {
  Read({Slot(CallStatus::kPending)});
  Reconciled(Call(0), ReconcileAnswer::kDone);
  Read({Slot(CallStatus::kPending)});
  Reconciled(Call(0), ReconcileAnswer::kNotDone);
  Called(Call(0));
  checker_.OnLineage(2);
  Read({});
  Called(Call(0));
  EXPECT_TRUE(checker_.violations().empty());
  Read({Slot(CallStatus::kPending)});
  Reconciled(Call(0), ReconcileAnswer::kDone);
  Called(Call(0));
  EXPECT_NE(Only().find("which its reconciler reported done"), std::string::npos) << Only();
}

// Strategy: the shape of explore seed 2396505 (the first false alarm of the
// 2026-12-06 long sweep): call 1 is reported done; the next attempt's plan
// mismatches call 0, so its slots are discarded, and the runtime's next
// record holds call 0 pending anew and no slot of call 1; the attempt
// after it reads that record and makes call 1 as a new call: no violation.
TEST_F(ReconcileCheckerTest, ADoneCallIsNewPastAMismatchAnEarlierAttemptMadeDurable) {
  ReportDoneThenMismatch();
  RuntimeWrote({Slot(CallStatus::kPending, "plain", 40)});
  checker_.OnAttemptStart(3);
  Read({Slot(CallStatus::kPending, "plain", 40)});
  Called(Call(1));
  EXPECT_TRUE(checker_.violations().empty());
}

// Strategy: as above, but the mismatching attempt wrote nothing (it crashed
// first): the log still holds call 1's slot, so making it again is a
// violation.
TEST_F(ReconcileCheckerTest, ADoneCallPastAMismatchNobodyWroteIsNotNew) {
  ReportDoneThenMismatch();
  checker_.OnAttemptStart(3);
  Read({FirstCall(), Slot(CallStatus::kFailed)});
  Called(Call(1));
  EXPECT_NE(Only().find("which its reconciler reported done"), std::string::npos) << Only();
}

// Strategy: records past the mismatch that do not make the discard durable:
// one the store wrote on its own (a rewrite, no put of the runtime's) without
// call 1's slot; one of a put a crash ended, appended when the next attempt
// had started; and the runtime's next record that still holds the discarded
// call 0 (as one issued before the mismatch would), which uses the discard
// up, so a discarding record after it decides nothing either. Call 1 made
// again after them is still a violation.
TEST_F(ReconcileCheckerTest, ADoneCallPastAMismatchIsNotNewByAnotherRecord) {
  ReportDoneThenMismatch();
  DecodedState discarding{Key(), ActionState{}};
  discarding.state.call_results = {Slot(CallStatus::kPending, "plain", 40)};
  checker_.OnRecordAppended(LogRecord{}, &discarding, trace_.Add(SimTime{}, 3, "log.append", ""));
  checker_.OnPutIssued(Key(), trace_.Add(SimTime{}, 3, "put.issued", ""));
  checker_.OnAttemptStart(3);
  checker_.OnRecordAppended(LogRecord{}, &discarding, trace_.Add(SimTime{}, 3, "log.append", ""));
  RuntimeWrote({FirstCall()});
  RuntimeWrote({Slot(CallStatus::kPending, "plain", 40)});
  checker_.OnAttemptStart(4);
  Read({FirstCall()});
  Called(Call(1));
  EXPECT_NE(Only().find("which its reconciler reported done"), std::string::npos) << Only();
}

// Strategy: a call of a supplier with a reconciler made before the log
// held its PENDING slot is a violation (a crash in flight would leave the
// reconciler nothing to ask about); a plain supplier's call needs no slot.
TEST_F(ReconcileCheckerTest, ACallMadeBeforeItsPendingSlotIsSavedIsAViolation) {
  checker_.OnSupplierCall(Call(0, "plain"), CallArgument{1, std::nullopt}, trace_.Add(SimTime{}, 3, "supplier.call", ""));
  EXPECT_TRUE(checker_.violations().empty());
  checker_.OnSupplierCall(Call(0), CallArgument{1, std::nullopt}, trace_.Add(SimTime{}, 3, "supplier.call", ""));
  EXPECT_NE(Only().find("before the log held its PENDING slot"), std::string::npos) << Only();
}

// Strategy: without any reconciler the checker keeps no reads (nothing can
// ask about them), so a reconcile reaching it is a harness bug it names.
TEST(ReconcileCheckerDeathTest, AReconcileWhenNoSupplierHasAReconcilerIsAHarnessBug) {
  Trace trace;
  SupplierSpec plain;
  plain.name = "plain";
  ReconcileChecker checker(trace, {plain});
  const CallIdentity call{StateKey{"a", 1, 7, ActionHash("ask")}, 0, "plain", 42};
  EXPECT_DEATH(checker.OnReconciled(call, CallResult{"plain", 42, CallStatus::kPending, 0, ""},
                                    ReconcileAnswer::kNotDone, std::nullopt, 0),
               "reconciled, but no supplier has a reconciler");
}

}  // namespace
}  // namespace durasim
