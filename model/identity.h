// Identities of the agent runtime's work, as hashes: an input event, a child
// event (which covers its origin, so identical siblings differ), an action, a
// state key (input key, sequence number, event, action) and a durable call's
// arguments. They name action states in the log and calls at the suppliers,
// so a replay after a restore finds the same names.
#pragma once

#include <cstdint>
#include <string>

#include "model/keyed_state.h"
#include "model/trace.h"
#include "model/observer.h"
#include "store/action_state.h"
#include "store/format.h"

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
// are formatted in place, when and where the line is rendered (a trace
// keeps their fields, TraceArg below). DescribeStateKey(k) is the text of
// StateKeyText{k}; CallIdentity::ToString() the text of CallText{call}.
struct StateKeyText {
  const StateKey& key;
};
struct CallText {
  const CallIdentity& call;
};

// Their fields as a trace keeps them, viewing the trace's bytes; formatted
// exactly as StateKeyText and CallText are.
struct StateKeyView {
  std::string_view key;
  int64_t seq = 0;
  uint64_t event_hash = 0;
  uint64_t action_hash = 0;
};
struct CallView {
  StateKeyView state_key;
  int64_t call_index = 0;
  std::string_view function;
  uint64_t args_digest = 0;
};

inline StateKeyView ViewOf(const StateKey& k) { return StateKeyView{k.key, k.seq, k.event_hash, k.action_hash}; }
inline CallView ViewOf(const CallIdentity& c) {
  return CallView{ViewOf(c.state_key), c.call_index, c.function, c.args_digest};
}

template <>
struct TraceArg<StateKeyText> {
  using View = StateKeyView;
  static constexpr uint64_t kTag = 7;
  static void Write(TraceWriter& out, const StateKeyText& text) {
    out.Text(text.key.key);
    out.Word(static_cast<uint64_t>(text.key.seq));
    out.Word(text.key.event_hash);
    out.Word(text.key.action_hash);
  }
  static View Read(TraceReader& in) {
    View view;
    view.key = in.Text();
    view.seq = static_cast<int64_t>(in.Word());
    view.event_hash = in.Word();
    view.action_hash = in.Word();
    return view;
  }
};

template <>
struct TraceArg<CallText> {
  using View = CallView;
  static constexpr uint64_t kTag = 8;
  static void Write(TraceWriter& out, const CallText& text) {
    TraceArg<StateKeyText>::Write(out, StateKeyText{text.call.state_key});
    out.Word(static_cast<uint64_t>(text.call.call_index));
    out.Text(text.call.function);
    out.Word(text.call.args_digest);
  }
  static View Read(TraceReader& in) {
    View view;
    view.state_key = TraceArg<StateKeyText>::Read(in);
    view.call_index = static_cast<int64_t>(in.Word());
    view.function = in.Text();
    view.args_digest = in.Word();
    return view;
  }
};

}  // namespace durasim

template <>
struct fmt::formatter<durasim::StateKeyView> {
  constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
  template <typename Context>
  auto format(const durasim::StateKeyView& k, Context& ctx) const {
    return fmt::format_to(ctx.out(), "key={} seq={} event={:016x} action={:016x}", durasim::Quoted{k.key}, k.seq,
                          k.event_hash, k.action_hash);
  }
};

template <>
struct fmt::formatter<durasim::CallView> {
  constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
  template <typename Context>
  auto format(const durasim::CallView& c, Context& ctx) const {
    return fmt::format_to(ctx.out(), "{} call={} fn={} args={:016x}", c.state_key, c.call_index, c.function,
                          c.args_digest);
  }
};

template <>
struct fmt::formatter<durasim::StateKeyText> : fmt::formatter<durasim::StateKeyView> {
  template <typename Context>
  auto format(const durasim::StateKeyText& text, Context& ctx) const {
    return fmt::formatter<durasim::StateKeyView>::format(durasim::ViewOf(text.key), ctx);
  }
};

template <>
struct fmt::formatter<durasim::CallText> : fmt::formatter<durasim::CallView> {
  template <typename Context>
  auto format(const durasim::CallText& text, Context& ctx) const {
    return fmt::formatter<durasim::CallView>::format(durasim::ViewOf(text.call), ctx);
  }
};
