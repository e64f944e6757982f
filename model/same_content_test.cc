// Strategy: SameContent on the plan's types. Two values that differ only in
// where a file wrote them are the same; a change to any one field that says
// something (a step's argument source, an error handling's retries, a
// supplier's optional scale, a reconciler's answers, an action's trigger) is
// a difference, whether it sits in a vector, an optional or a nested
// aggregate; vectors of different lengths differ.
#include "model/same_content.h"

#include <gtest/gtest.h>

#include <vector>

namespace durasim {
namespace {

ActionSpec Ask() {
  ActionSpec action;
  action.name = "ask";
  action.on = {"input"};
  ActionStep call;
  call.kind = ActionStep::Kind::kCall;
  call.name = "llm";
  call.pos = {7, 9};
  ActionStep output;
  output.kind = ActionStep::Kind::kOutput;
  output.pos = {8, 9};
  action.steps = {call, output};
  action.pos = {5, 5};
  return action;
}

SupplierSpec Llm() {
  SupplierSpec supplier;
  supplier.name = "llm";
  supplier.scale = 10;
  supplier.pos = {3, 5};
  return supplier;
}

TEST(SameContentTest, WhereAFileWroteAValueIsNotWhatItSays) {
  ActionSpec moved = Ask();
  moved.pos = {40, 1};
  moved.steps[0].pos = {42, 3};
  EXPECT_TRUE(SameContent(Ask(), moved));
  SupplierSpec elsewhere = Llm();
  elsewhere.pos = {};
  EXPECT_TRUE(SameContent(Llm(), elsewhere));
  EXPECT_TRUE(SameContent(std::vector<ActionSpec>{Ask()}, std::vector<ActionSpec>{moved}));
}

TEST(SameContentTest, EveryFieldThatSaysSomethingCounts) {
  ActionSpec argument = Ask();
  argument.steps[0].arg = ArgSource::kAttempt;  // inside a vector of a nested aggregate
  EXPECT_FALSE(SameContent(Ask(), argument));
  ActionSpec retries = Ask();
  retries.on_error.retries_max = 2;  // a nested aggregate
  EXPECT_FALSE(SameContent(Ask(), retries));
  ActionSpec trigger = Ask();
  trigger.on = {"input", "answer"};  // a vector of strings, longer
  EXPECT_FALSE(SameContent(Ask(), trigger));
  ActionSpec renamed = Ask();
  renamed.steps[0].name = "llm_v2";
  EXPECT_FALSE(SameContent(Ask(), renamed));

  SupplierSpec unscaled = Llm();
  unscaled.scale.reset();  // an optional, set against unset
  EXPECT_FALSE(SameContent(Llm(), unscaled));
  SupplierSpec rescaled = Llm();
  rescaled.scale = 20;  // an optional, both set
  EXPECT_FALSE(SameContent(Llm(), rescaled));
  SupplierSpec reconciled = Llm();
  reconciled.reconcile = {ReconcileAnswer::kDone};  // a vector of enumerations
  EXPECT_FALSE(SameContent(Llm(), reconciled));
}

TEST(SameContentTest, VectorsOfDifferentLengthsDiffer) {
  const std::vector<ActionSpec> one = {Ask()};
  const std::vector<ActionSpec> two = {Ask(), Ask()};
  EXPECT_FALSE(SameContent(one, two));
  EXPECT_FALSE(SameContent(two, one));
  EXPECT_TRUE(SameContent(std::vector<ActionSpec>{}, std::vector<ActionSpec>{}));
}

}  // namespace
}  // namespace durasim
