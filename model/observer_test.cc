// Tests of the observer's value types: CallIdentity orders member-wise, as
// its defaulted <=> did, so the maps keyed by it iterate as before.
#include "model/observer.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <tuple>

namespace durasim {
namespace {

RC_GTEST_PROP(CallIdentityTest, OrdersMemberWise, ()) {
  // Strategy: identities drawn from few values, so ties at every member
  // are common; one in two pairs shares the state key.
  const auto text = [] {
    return *rc::gen::container<std::string>(rc::gen::element('f', 'g', static_cast<char>(0x90)));
  };
  const auto identity = [&](const StateKey& key) {
    return CallIdentity{key, *rc::gen::inRange(0, 3), text(), *rc::gen::inRange<uint64_t>(0, 3)};
  };
  const StateKey key{text(), *rc::gen::inRange<int64_t>(0, 2), 1, 2};
  const CallIdentity a = identity(key);
  const CallIdentity b = identity(*rc::gen::element(key, StateKey{text(), 1, 1, 2}));
  RC_ASSERT((a <=> b) == (std::tie(a.state_key, a.call_index, a.function, a.args_digest) <=>
                          std::tie(b.state_key, b.call_index, b.function, b.args_digest)));
  RC_ASSERT((a == b) == ((a <=> b) == 0));
}

}  // namespace
}  // namespace durasim
