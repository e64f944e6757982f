// Key shapes: what a run's input keys make, and the generator's keys of
// each shape.
#include "model/key_shapes.h"

#include <algorithm>
#include <set>

#include "model/typed_key.h"
#include "store/check.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(KeyShape shape) {
  switch (shape) {
    case KeyShape::kSeparatorPrefix:
      return EnumInfo{"keys_separator_prefix", "two input keys, one the other's prefix up to a separator (a, a_1)"};
    case KeyShape::kNumeric: return EnumInfo{"key_numeric", "an input key of digits only, like a sequence number"};
    case KeyShape::kEmpty: return EnumInfo{"key_empty", "the empty input key"};
    case KeyShape::kNonAscii: return EnumInfo{"key_non_ascii", "an input key with bytes outside ASCII"};
  }
  return std::nullopt;
}

namespace {

bool Numeric(const std::string& key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool NonAscii(const std::string& key) {
  return std::any_of(key.begin(), key.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

// Whether some key is another's prefix up to the separator: in the sorted
// set, "a_..." follows "a" (only keys that start with "a" lie between).
bool SeparatorPrefixPair(const std::set<std::string>& keys) {
  for (auto it = keys.begin(); it != keys.end(); ++it) {
    const std::string prefix = *it + "_";
    auto longer = keys.lower_bound(prefix);
    if (longer != keys.end() && longer->starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

std::vector<KeyShape> KeyShapesOf(const std::vector<InputSpec>& inputs) {
  std::set<std::string> keys;  // the String keys: a Long key's record key holds its typed form
  for (const InputSpec& input : inputs) {
    if (!LongOfKey(input.key)) keys.insert(input.key);
  }
  std::vector<KeyShape> shapes;
  if (SeparatorPrefixPair(keys)) shapes.push_back(KeyShape::kSeparatorPrefix);
  if (std::any_of(keys.begin(), keys.end(), Numeric)) shapes.push_back(KeyShape::kNumeric);
  if (keys.contains("")) shapes.push_back(KeyShape::kEmpty);
  if (std::any_of(keys.begin(), keys.end(), NonAscii)) shapes.push_back(KeyShape::kNonAscii);
  return shapes;
}

const std::vector<std::string>& KeysOfShape(KeyShape shape) {
  static const std::vector<std::string> kSeparatorPrefix = {"a", "a_1", "a_1_2", "a_b", "user", "user_1", "user_12",
                                                            "a_10"};
  static const std::vector<std::string> kNumeric = {"1", "1_2", "2", "12", "0", "007", "10", "1_1"};
  static const std::vector<std::string> kEmpty = {"", "_1", "_", "__", "a", "1", " ", "_\xC3\xBC"};  // "_ü"
  // "e" with a combining acute and the precomposed "é" are different keys.
  static const std::vector<std::string> kNonAscii = {"日本", "日本_語", "ü", "u", "\xF0\x9F\x99\x82", "e\xCC\x81",
                                                     "\xC3\xA9", "\xCE\xA9_1"};
  switch (shape) {
    case KeyShape::kSeparatorPrefix: return kSeparatorPrefix;
    case KeyShape::kNumeric: return kNumeric;
    case KeyShape::kEmpty: return kEmpty;
    case KeyShape::kNonAscii: return kNonAscii;
  }
  DURASIM_CHECK_MSG(false, "every key shape has its keys");
  return kSeparatorPrefix;
}

bool HasTypedKeyTwins(const std::vector<InputSpec>& inputs) {
  return std::any_of(inputs.begin(), inputs.end(), [&](const InputSpec& typed) {
    return LongOfKey(typed.key) && std::any_of(inputs.begin(), inputs.end(), [&](const InputSpec& text) {
             return text.key == KeyText(typed.key);
           });
  });
}

}  // namespace durasim
