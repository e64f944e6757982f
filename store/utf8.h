// UTF-8 validation. An input key is any byte string: the state codec keeps
// one that is not valid UTF-8 as hex (JSON strings are UTF-8), scenario
// files write it as YAML `!!binary`, JSON reports replace its invalid bytes
// with U+FFFD, traces escape them (\xNN).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace durasim {

// The offset of the first byte that does not start a valid UTF-8 sequence
// (overlong forms, surrogates and code points past U+10FFFF are invalid);
// none when `text` is valid UTF-8.
std::optional<size_t> FirstInvalidUtf8(std::string_view text);

inline bool IsValidUtf8(std::string_view text) { return !FirstInvalidUtf8(text).has_value(); }

}  // namespace durasim
