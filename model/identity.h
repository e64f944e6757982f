// Identities of the agent runtime's work, as hashes: an input event, a child
// event (which covers its origin, so identical siblings differ), an action, a
// state key (input key, sequence number, event, action) and a durable call's
// arguments. They name action states in the log and calls at the suppliers,
// so a replay after a restore finds the same names.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "model/keyed_state.h"
#include "model/trace.h"
#include "model/observer.h"
#include "store/action_state.h"

namespace durasim {

// Action hash used in state keys.
uint64_t ActionHash(const std::string& action_name);
// The hash of the input event of an input with `value`.
uint64_t InputEventHash(int64_t value);
// The hash of the `emit_index`-th event (type, value) emitted by the action
// whose state is `origin`.
uint64_t ChildEventHash(const StateKey& origin, uint64_t emit_index, const std::string& type, int64_t value);
// The state key of `task` (an action of `action_name`) for input key `key`.
StateKey TaskStateKey(const std::string& key, const ActionTask& task, const std::string& action_name);
// A durable call's argument digest: the function and its argument. An
// argument without an attempt part has the digest of its value alone.
uint64_t CallArgsDigest(const std::string& function, int64_t arg);
uint64_t CallArgsDigest(const std::string& function, const CallArgument& arg);

// "key=... seq=... event=... action=...", as the trace writes a state key.
std::string DescribeStateKey(const StateKey& state_key);

// A state key and a call as the trace writes them, for fmt arguments: they
// are formatted in place, when and where the line is written (nothing is
// built for a trace that keeps no text). DescribeStateKey(k) is the text of
// StateKeyText{k}; CallIdentity::ToString() the text of CallText{call}.
struct StateKeyText {
  const StateKey& key;
};
struct CallText {
  const CallIdentity& call;
};

}  // namespace durasim

template <>
struct fmt::formatter<durasim::StateKeyText> {
  constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
  template <typename Context>
  auto format(const durasim::StateKeyText& text, Context& ctx) const {
    const durasim::StateKey& k = text.key;
    return fmt::format_to(ctx.out(), "key={} seq={} event={:016x} action={:016x}", durasim::Quoted{k.key}, k.seq, k.event_hash,
                          k.action_hash);
  }
};

template <>
struct fmt::formatter<durasim::CallText> {
  constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
  template <typename Context>
  auto format(const durasim::CallText& text, Context& ctx) const {
    const durasim::CallIdentity& c = text.call;
    return fmt::format_to(ctx.out(), "{} call={} fn={} args={:016x}", durasim::StateKeyText{c.state_key}, c.call_index,
                          c.function, c.args_digest);
  }
};
