// SameContent: whether two values of the scenario's types say the same thing,
// field by field, blind to where a file wrote them (SourcePos). The fields
// are the type's own, read by Boost.PFR, so a field added to a scenario type
// is compared without anyone listing it here.
//
// What it is for: a run's answer under a plan is a function of the plan's
// suppliers and actions (and of the rest of the scenario), so a plan an
// attempt deploys unchanged answers what it answered before, and the runner
// checks each distinct plan's answer once (sim/run/reference_run.cc).
#pragma once

#include <algorithm>
#include <boost/pfr/core.hpp>
#include <concepts>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/scenario.h"

namespace durasim {

template <typename T>
bool SameContent(const T& a, const T& b);

namespace same_content_internal {

template <typename T>
struct IsVector : std::false_type {};
template <typename T, typename Allocator>
struct IsVector<std::vector<T, Allocator>> : std::true_type {};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

// Every field of the aggregate `T`, in declaration order.
template <typename T>
bool SameFields(const T& a, const T& b) {
  return [&]<size_t... I>(std::index_sequence<I...>) {
    return (SameContent(boost::pfr::get<I>(a), boost::pfr::get<I>(b)) && ...);
  }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

}  // namespace same_content_internal

template <typename T>
bool SameContent(const T& a, const T& b) {
  namespace internal = same_content_internal;
  if constexpr (std::is_same_v<T, SourcePos>) {
    return true;  // where a file wrote it, not what it says
  } else if constexpr (internal::IsVector<T>::value) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const auto& x, const auto& y) { return SameContent(x, y); });
  } else if constexpr (internal::IsOptional<T>::value) {
    return a.has_value() == b.has_value() && (!a.has_value() || SameContent(*a, *b));
  } else if constexpr (std::is_aggregate_v<T>) {
    return internal::SameFields(a, b);
  } else {
    // Strings, numbers, enumerations: their own equality.
    static_assert(std::equality_comparable<T>, "SameContent: a field type it cannot compare");
    return a == b;
  }
}

}  // namespace durasim
