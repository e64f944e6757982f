// Enum tables: one place per enum of the harness vocabulary (fault kinds,
// coverage points, invariants, verdicts, backends) that gives each value its
// name, as written in scenario files, traces and reports, and a one-line
// description, with lookups both ways.
//
// An enum E takes part by declaring, in its own namespace,
//   std::optional<EnumInfo> EnumInfoOf(E value);
// a switch over E without `default:` that returns each value's entry and
// std::nullopt after the switch. Its values must run from 0 without gaps
// (the default numbering). A value without an entry is then a compile error
// (-Wswitch), and every lookup below follows the table: a new value is
// listed, parsed and offered in error messages with no other edit.
#pragma once

#include "store/check.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace durasim {

struct EnumInfo {
  const char* name;
  const char* description;
};

// Every value of E, in declaration order.
template <typename E>
const std::vector<E>& AllOf() {
  static const std::vector<E> kAll = [] {
    std::vector<E> all;
    for (int value = 0; EnumInfoOf(static_cast<E>(value)).has_value(); ++value) all.push_back(static_cast<E>(value));
    return all;
  }();
  return kAll;
}

template <typename E>
EnumInfo InfoOf(E value) {
  const std::optional<EnumInfo> info = EnumInfoOf(value);
  DURASIM_CHECK_MSG(info.has_value(), "an enum value cast from outside its table");
  return *info;
}

template <typename E>
const char* NameOf(E value) {
  return InfoOf(value).name;
}

template <typename E>
const char* DescriptionOf(E value) {
  return InfoOf(value).description;
}

// The value named `name`, or none.
template <typename E>
std::optional<E> ParseName(std::string_view name) {
  for (E value : AllOf<E>()) {
    if (name == NameOf(value)) return value;
  }
  return std::nullopt;
}

// Every name of E for error messages: "a, b, c".
template <typename E>
std::string NameList() {
  std::string out;
  for (E value : AllOf<E>()) {
    if (!out.empty()) out += ", ";
    out += NameOf(value);
  }
  return out;
}

// Every name of E, in declaration order.
template <typename E>
std::vector<std::string> NamesOf() {
  std::vector<std::string> names;
  for (E value : AllOf<E>()) names.emplace_back(NameOf(value));
  return names;
}

}  // namespace durasim
