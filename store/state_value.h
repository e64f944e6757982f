// What a state record's value decodes to: the state key it repeats and the
// state, and the version of the value format. Shared by the codec's public
// interface (store/state_codec.h) and its two implementations
// (store/state_codec_internal.h), so neither header includes the other.
#pragma once

#include "store/action_state.h"

namespace durasim {

inline constexpr int kStateFormatVersion = 1;

struct DecodedState {
  StateKey state_key;
  ActionState state;
};

}  // namespace durasim
