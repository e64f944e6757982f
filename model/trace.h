// Trace: the ordered record of every observable event of a run, each stamped
// with simulated time and the attempt number, and a 64-bit hash over the
// rendered lines. Two runs with the same trace hash did the same thing.
//
// The hash is defined over the text ("<time> a<attempt> <kind> <detail>\n"
// per event, FNV-1a), so a line is written once, straight into one buffer
// for the whole trace: no string per line, no detail string built by the
// caller (Add formats its arguments in place). A trace that nobody reads
// (the reference run without faults) is made `untraced`: it counts events
// and formats nothing.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/hash.h"
#include "model/scheduler.h"

namespace durasim {

class Trace {
 public:
  enum class Text { kKept, kNone };
  explicit Trace(Text text = Text::kKept) : text_kept_(text == Text::kKept) {}

  // Appends one event; `kind` is a dotted name (put.issued), `detail` is
  // space-separated key=value pairs. Returns the event's index.
  // REQUIRES: `time` is no earlier than the previous event's, `attempt` >= 0.
  size_t Add(SimTime time, int attempt, std::string_view kind, std::string_view detail) {
    if (!Begin(time, attempt, kind)) return ends_.size() - 1;
    text_.append(detail);
    return End();
  }
  // The same, with the detail formatted from `format` and `args` in place.
  template <typename... Args>
  size_t Add(SimTime time, int attempt, std::string_view kind, fmt::format_string<Args...> format, Args&&... args) {
    if (!Begin(time, attempt, kind)) return ends_.size() - 1;
    fmt::format_to(std::back_inserter(text_), format, std::forward<Args>(args)...);
    return End();
  }

  uint64_t hash() const { return hash_; }
  size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  // REQUIRES: the text is kept, index < size().
  std::string_view line(size_t index) const;
  std::vector<std::string> lines() const;

 private:
  // Checks the event's order; false for a trace without text (the event is
  // only counted). Otherwise writes the line's head.
  bool Begin(SimTime time, int attempt, std::string_view kind);
  // Ends the line begun last, hashes it, returns its index.
  size_t End();

  bool text_kept_;
  std::string text_;          // every line, each ended by '\n'
  std::vector<size_t> ends_;  // one past each line's '\n'
  uint64_t hash_ = kFnvOffsetBasis;
  SimTime last_time_{0};
};

// A string as fmt's "{:?}" writes it (quoted, escaped), for trace details:
// a string of printable ASCII without '"' or '\\', nearly every key, is
// copied between quotes without fmt's per-character escape scan.
struct Quoted {
  std::string_view text;
};

// The index of the first line where `a` and `b` differ (a trace that ends
// first differs there), or none when they are equal.
std::optional<size_t> FirstDifferentLine(const Trace& a, const Trace& b);

// "12.345ms" style rendering of a simulated time, exact to the microsecond.
std::string FormatSimTime(SimTime time);

}  // namespace durasim

template <>
struct fmt::formatter<durasim::Quoted> {
  constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
  template <typename Context>
  auto format(const durasim::Quoted& quoted, Context& ctx) const {
    for (const char c : quoted.text) {
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return fmt::format_to(ctx.out(), "{:?}", quoted.text);
    }
    auto out = ctx.out();
    *out++ = '"';
    out = std::copy(quoted.text.begin(), quoted.text.end(), out);
    *out++ = '"';
    return out;
  }
};
