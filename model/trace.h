// Trace: the ordered record of every observable event of a run, each stamped
// with simulated time and the attempt number, and a 64-bit hash over the
// events. Two runs with the same trace hash did the same thing.
//
// Trace format 2 (issue 15). An event is kept as typed fields, not as
// text: its time, attempt, kind, the format of its detail and the values
// of the format's arguments, each argument written in a fixed binary form
// (TraceArg) into one byte buffer for the whole trace. The hash is over
// those fields (EventHash in trace.cc), so recording an event formats
// nothing. A line's text, "<time> a<attempt> <kind> <detail>", is rendered
// from the fields only when somebody asks for it (printed, compared line by
// line, quoted as a violation's evidence), and then once.
//
// Format 1 hashed the rendered text with FNV-1a; TextHash() still gives
// that hash, so traces can be compared line for line with builds before
// format 2 (ci/compare-traces.sh --text-hash).
//
// A trace that nobody reads (the reference run without faults) is made
// Text::kNone: it counts events and keeps and hashes nothing.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "store/format.h"
#include "store/hash.h"
#include "store/recovery_marker.h"
#include "model/sim_time.h"
#include "model/trace_bytes.h"

namespace durasim {

// The format of an event's detail, checked against its arguments at
// compile time (as fmt::format_string is) and hashed at compile time.
template <typename... Args>
class TraceFormat {
 public:
  template <typename S>
    requires std::convertible_to<const S&, std::string_view>
  consteval TraceFormat(const S& format)  // NOLINT: implicit, like fmt::format_string
      : checked_(format), text_(format), hash_(HashString(std::string_view(format))) {}
  std::string_view text() const { return text_; }
  uint64_t hash() const { return hash_; }

 private:
  fmt::format_string<Args...> checked_;  // only constructed: its constructor checks the format
  std::string_view text_;
  uint64_t hash_;
};

// The bytes an event's arguments are written into, and read back from.
class TraceWriter {
 public:
  explicit TraceWriter(TraceBytes& bytes) : bytes_(bytes) {}
  void Word(uint64_t word) { bytes_.AppendWord(word); }
  void Text(std::string_view text) {
    Word(text.size());
    bytes_.Append(text);
  }

 private:
  TraceBytes& bytes_;
};

class TraceReader {
 public:
  explicit TraceReader(std::string_view bytes) : bytes_(bytes) {}
  uint64_t Word() {
    uint64_t word;
    std::memcpy(&word, bytes_.data(), sizeof word);
    bytes_.remove_prefix(sizeof word);
    return word;
  }
  std::string_view Text() {
    const size_t size = Word();
    const std::string_view text = bytes_.substr(0, size);
    bytes_.remove_prefix(size);
    return text;
  }

 private:
  std::string_view bytes_;
};

// How an argument of type T (decayed) is kept: Write puts its fields,
// Read takes them back as a View that fmt formats exactly as it formats
// T; kTag names the way it is kept, so that arguments kept as the same
// bytes but rendered differently (a string and a Quoted one, a bool and
// the integer 1) hash differently. A type without a specialization does
// not compile as an argument. Integers are kept as 64-bit words, strings
// as length and bytes.
template <typename T>
struct TraceArg;

template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>)
struct TraceArg<T> {
  using View = T;
  static constexpr uint64_t kTag = std::is_signed_v<T> ? 1 : 2;
  static void Write(TraceWriter& out, T value) { out.Word(static_cast<uint64_t>(value)); }
  static View Read(TraceReader& in) { return static_cast<T>(in.Word()); }
};

template <>
struct TraceArg<bool> {
  using View = bool;
  static constexpr uint64_t kTag = 3;
  static void Write(TraceWriter& out, bool value) { out.Word(value ? 1 : 0); }
  static View Read(TraceReader& in) { return in.Word() != 0; }
};

template <typename T>
  requires std::same_as<T, std::string> || std::same_as<T, std::string_view> || std::same_as<T, const char*> ||
           std::same_as<T, char*>
struct TraceArg<T> {
  using View = std::string_view;
  static constexpr uint64_t kTag = 4;
  static void Write(TraceWriter& out, std::string_view text) { out.Text(text); }
  static View Read(TraceReader& in) { return in.Text(); }
};

// A string as fmt's "{:?}" writes it (quoted, escaped), for trace details:
// a string of printable ASCII without '"' or '\\', nearly every key, is
// copied between quotes without fmt's per-character escape scan.
struct Quoted {
  std::string_view text;
};

template <>
struct TraceArg<Quoted> {
  using View = Quoted;
  static constexpr uint64_t kTag = 5;
  static void Write(TraceWriter& out, Quoted quoted) { out.Text(quoted.text); }
  static View Read(TraceReader& in) { return Quoted{in.Text()}; }
};

// A marker prints as its offsets (store/recovery_marker.h); they are kept.
template <>
struct TraceArg<RecoveryMarker> {
  using View = MarkerOffsets;
  static constexpr uint64_t kTag = 6;
  static void Write(TraceWriter& out, const RecoveryMarker& marker) {
    out.Word(marker.offsets.size());
    for (const auto& [partition, offset] : marker.offsets) {
      out.Word(static_cast<uint64_t>(partition));
      out.Word(static_cast<uint64_t>(offset));
    }
  }
  static View Read(TraceReader& in) {
    View offsets;
    for (uint64_t n = in.Word(); n > 0; --n) {
      const auto partition = static_cast<int32_t>(in.Word());
      offsets.emplace(partition, static_cast<int64_t>(in.Word()));
    }
    return offsets;
  }
};

class Trace {
 public:
  enum class Text { kKept, kNone };
  explicit Trace(Text text = Text::kKept) : kept_(text == Text::kKept) {
    if (!kept_) return;
    // A short run's trace without growing (the seed regression's has 43
    // events: growing from empty reallocated its events 7 times); the
    // arguments' bytes get a guess of 48 per event.
    events_.reserve(kEventsReserved);
    bytes_.Reserve(kEventsReserved * 48);
  }

  // Appends one event; `kind` is a dotted name (put.issued), `detail` is
  // space-separated key=value pairs. Returns the event's index.
  // REQUIRES: `time` is no earlier than the previous event's, `attempt` >= 0.
  size_t Add(SimTime time, int attempt, std::string_view kind, std::string_view detail) {
    return Add(time, attempt, kind, "{}", detail);
  }
  // The same, with the detail `format` applied to `args` when the line is
  // rendered.
  template <typename... Args>
  size_t Add(SimTime time, int attempt, std::string_view kind, TraceFormat<std::type_identity_t<Args>...> format,
             Args&&... args) {
    if (!Begin(time, attempt, kind)) return size() - 1;
    TraceWriter out(bytes_);
    (TraceArg<std::decay_t<Args>>::Write(out, args), ...);
    return End(format.text(), HashCombine(format.hash(), kSignature<std::decay_t<Args>...>),
               &Render<std::decay_t<Args>...>);
  }

  uint64_t hash() const { return hash_; }
  size_t size() const { return kept_ ? events_.size() : counted_; }
  // False for a trace of Text::kNone, which keeps and hashes nothing.
  bool keeps_events() const { return kept_; }
  bool empty() const { return events_.empty(); }
  // The text of line `index`, rendered on first use (with every line
  // before it). The view lasts until the next Add or the next call that
  // renders more lines (line, lines, TextHash, FirstDifferentLine): copy it
  // to keep it. Rendering writes mutable members, so a trace is read from
  // one thread at a time, as it is written.
  // REQUIRES: the trace keeps its events, index < size().
  std::string_view line(size_t index) const;
  std::vector<std::string> lines() const;
  // Whether events `index` of `a` and of `b` have the same fields (the
  // same hash), without rendering them. REQUIRES: both keep their events.
  static bool SameEvent(const Trace& a, const Trace& b, size_t index) {
    return a.events_[index].hash == b.events_[index].hash;
  }
  // Format 1's hash: FNV-1a over the rendered text, each line ended by
  // '\n'. Renders every line. REQUIRES: the trace keeps its events.
  uint64_t TextHash() const;

 private:
  using Renderer = void (*)(std::string& out, std::string_view format, TraceReader& in);
  struct Event {
    int64_t time_us;
    int32_t attempt;
    uint32_t kind_size;
    size_t bytes_begin;  // its kind, then its arguments, in bytes_
    size_t bytes_end;
    std::string_view format;
    Renderer render;
    uint64_t hash;
  };

  // Checks the event's order; false for a trace that keeps no events (the
  // event is only counted). Otherwise begins the event with its kind.
  bool Begin(SimTime time, int attempt, std::string_view kind);
  // Ends the event begun last, hashes it, returns its index.
  size_t End(std::string_view format, uint64_t format_hash, Renderer render);
  // Renders every event up to `index` not rendered yet.
  void RenderUpTo(size_t index) const;

  // The arguments' tags, hashed at compile time into each event's hash.
  template <typename... Ts>
  static constexpr uint64_t kSignature = [] {
    uint64_t signature = sizeof...(Ts);
    ((signature = HashCombine(signature, TraceArg<Ts>::kTag)), ...);
    return signature;
  }();

  template <typename... Ts, size_t... I>
  static void ReadAll(TraceReader& in, std::tuple<typename TraceArg<Ts>::View...>& views,
                      std::index_sequence<I...>) {
    ((std::get<I>(views) = TraceArg<Ts>::Read(in)), ...);  // in order: the comma operator sequences
  }
  template <typename... Ts>
  static void Render(std::string& out, std::string_view format, TraceReader& in) {
    std::tuple<typename TraceArg<Ts>::View...> views;
    ReadAll<Ts...>(in, views, std::index_sequence_for<Ts...>{});
    std::apply([&](const auto&... view) { fmt::vformat_to(std::back_inserter(out), format, fmt::make_format_args(view...)); },
               views);
  }

  bool kept_;
  size_t counted_ = 0;  // the events of a trace that keeps none
  static constexpr size_t kEventsReserved = 128;
  std::vector<Event> events_;
  TraceBytes bytes_;  // every event's kind and arguments
  uint64_t hash_ = kFnvOffsetBasis;
  SimTime last_time_{0};
  // The rendered text of the first ends_.size() events, each line ended by '\n'.
  mutable std::string text_;
  mutable std::vector<size_t> ends_;  // one past each rendered line's '\n'
};

// The index of the first line where `a` and `b` differ (a trace that ends
// first differs there), or none when they are equal. Compares the events'
// hashes first and renders text (up to that line) only where they differ.
std::optional<size_t> FirstDifferentLine(const Trace& a, const Trace& b);

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
