// Key shapes: input keys shaped like the keys real agents use, where
// prefix matching over record keys has gone wrong (#885's class). A state's
// record key is "<key>_<seq>_<event>_<action>", so a key that is another's
// prefix up to the separator ("a" and "a_1"), a numeric key next to the
// sequence numbers ("1" and "1_2"), an empty key and a non-ASCII key are the
// shapes a store must tell apart. What a run's input keys make is a
// coverage point each (WorldFeature), and the generator draws them together
// (properties/scenario_generator.cc).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/enum_table.h"
#include "model/scenario.h"

namespace durasim {

enum class KeyShape {
  kSeparatorPrefix,  // two keys, one the other's prefix up to a separator: "a", "a_1"
  kNumeric,          // a key of ASCII digits only: "12"
  kEmpty,            // the empty key
  kNonAscii,         // a key with a byte outside ASCII: "ü"
};
std::optional<EnumInfo> EnumInfoOf(KeyShape shape);

// The shapes `inputs`' String keys make together, in KeyShape order.
std::vector<KeyShape> KeyShapesOf(const std::vector<InputSpec>& inputs);
// Whether `inputs` hold a Long key and the String key of its text
// (model/typed_key.h): two keys whose toString() is one.
bool HasTypedKeyTwins(const std::vector<InputSpec>& inputs);

// Keys of `shape` for the generator: the first two always make a
// separator-prefix pair, and the rest are of the shape; at least 8 (a
// generated scenario has at most 8 keys).
const std::vector<std::string>& KeysOfShape(KeyShape shape);

}  // namespace durasim
