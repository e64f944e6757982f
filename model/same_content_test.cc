// Tests of SameContent on the plan's types: where a file wrote a value is
// not what it says, and every other field of every type a plan holds is.
#include "model/same_content.h"

#include <gtest/gtest.h>

#include <boost/pfr/core.hpp>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
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

// `value` changed in what it says, whatever its type: a string or a vector
// grows, a number or an enumeration moves by one, a flag flips, an unset
// optional is set and a set one changes its value, an aggregate has its
// first field changed.
template <typename T>
void Change(T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    value += "x";
  } else if constexpr (std::is_same_v<T, bool>) {
    value = !value;
  } else if constexpr (std::is_enum_v<T>) {
    value = static_cast<T>(static_cast<std::underlying_type_t<T>>(value) + 1);
  } else if constexpr (std::is_arithmetic_v<T>) {
    value += 1;
  } else if constexpr (same_content_internal::IsOptional<T>::value) {
    if (value.has_value()) {
      Change(*value);  // still set, to something else
    } else {
      value.emplace();
    }
  } else if constexpr (same_content_internal::IsVector<T>::value) {
    value.emplace_back();
  } else {
    static_assert(std::is_aggregate_v<T>, "Change: a field type it cannot change");
    Change(boost::pfr::get<0>(value));
  }
}

// Changes each field of `base` in turn, one at a time, and expects a
// difference for every field but a SourcePos, which must make none. Returns
// how many fields were changed.
template <typename T>
size_t ExpectEveryFieldCounts(const T& base) {
  size_t changed = 0;
  [&]<size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          T other = base;
          auto& field = boost::pfr::get<I>(other);
          if constexpr (std::is_same_v<std::remove_reference_t<decltype(field)>, SourcePos>) {
            field = {99, 99};
            EXPECT_TRUE(SameContent(base, other)) << "a position, field " << I;
          } else {
            Change(field);
            EXPECT_FALSE(SameContent(base, other)) << "field " << I << " was not compared";
            EXPECT_FALSE(SameContent(other, base)) << "field " << I << " was not compared";
          }
          ++changed;
        }(),
        ...);
  }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
  return changed;
}

// Strategy: each field of each type a plan holds, changed alone, first to
// last, nested ones through their first field: a change that says something
// is a difference both ways round, a position is none. A fold that skipped
// the first or the last field, or a type compared by its address, fails.
TEST(SameContentTest, EveryFieldButAPositionCounts) {
  // The fields each type has today: a new one makes its count fail here, so
  // that whoever adds it looks at what SameContent makes of it.
  EXPECT_EQ(ExpectEveryFieldCounts(Ask().steps[0]), 5u);  // ActionStep
  EXPECT_EQ(ExpectEveryFieldCounts(Ask()), 5u);            // ActionSpec
  EXPECT_EQ(ExpectEveryFieldCounts(ErrorHandling{}), 3u);
  EXPECT_EQ(ExpectEveryFieldCounts(Llm()), 9u);  // SupplierSpec, its scale set: changed to another value
  SupplierSpec unset;                            // its optionals unset: each is set by the change
  EXPECT_EQ(ExpectEveryFieldCounts(unset), 9u);
  EXPECT_EQ(ExpectEveryFieldCounts(PlanSpec{{Llm()}, {Ask()}, {}}), 3u);
}

// Strategy: values that differ only in positions, at every depth (an
// action, a step inside it, a supplier, a vector of actions), are the same.
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

// Strategy: a change deep inside a vector of a nested aggregate, an optional
// reset, and vectors of different lengths either way round, are differences.
TEST(SameContentTest, DeepChangesAndLengthsCount) {
  ActionSpec argument = Ask();
  argument.steps[1].arg = ArgSource::kAttempt;  // the last step of the action
  EXPECT_FALSE(SameContent(Ask(), argument));
  SupplierSpec unscaled = Llm();
  unscaled.scale.reset();  // a set optional against an unset one, either way round
  EXPECT_FALSE(SameContent(Llm(), unscaled));
  EXPECT_FALSE(SameContent(unscaled, Llm()));
  const std::vector<ActionSpec> one = {Ask()};
  const std::vector<ActionSpec> two = {Ask(), Ask()};
  EXPECT_FALSE(SameContent(one, two));
  EXPECT_FALSE(SameContent(two, one));
  EXPECT_TRUE(SameContent(std::vector<ActionSpec>{}, std::vector<ActionSpec>{}));
}

}  // namespace
}  // namespace durasim
