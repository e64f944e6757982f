// Trace implementation.
#include "model/trace.h"

#include <algorithm>

#include "store/check.h"
#include "store/copy_short.h"

namespace durasim {
namespace {

// Format 2's hash of one event: its fields, from the format's hash on,
// then time and attempt, then its kind and arguments as they are kept
// (length-prefixed strings, 64-bit integers) eight bytes at a time, and
// their length. The words are read in the host's byte order: the hash is
// the same on every little-endian host (x86-64, arm64), which is every
// host durasim is built on; a big-endian one would give other hashes, each
// as deterministic.
uint64_t EventHash(uint64_t format_hash, SimTime time, int attempt, std::string_view bytes) {
  uint64_t hash = HashCombine(format_hash, static_cast<uint64_t>(time.count()));
  hash = HashCombine(hash, static_cast<uint64_t>(attempt));
  size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + at, sizeof word);
    hash = Mix64(hash ^ word);
  }
  // The last 0-7 bytes, zero-padded, copied inline (not a memcpy call).
  char last[8] = {};
  CopyUnder8(last, bytes.data() + at, bytes.size() - at);
  uint64_t tail;
  std::memcpy(&tail, last, sizeof tail);
  return HashCombine(Mix64(hash ^ tail), bytes.size());
}

}  // namespace

std::optional<size_t> FirstDifferentLine(const Trace& a, const Trace& b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i >= a.size() || i >= b.size()) return i;
    if (!Trace::SameEvent(a, b, i) && a.line(i) != b.line(i)) return i;
  }
  return std::nullopt;
}

bool Trace::Begin(SimTime time, int attempt, std::string_view kind) {
  // Simulated time never goes backwards, so neither does the trace.
  DURASIM_CHECK_GE(time.count(), last_time_.count());
  DURASIM_CHECK_GE(attempt, 0);  // 0 before the first attempt starts
  last_time_ = time;
  if (!kept_) {
    ++counted_;
    return false;
  }
  Event& event = events_.emplace_back();
  event.time_us = time.count();
  event.attempt = attempt;
  event.kind_size = static_cast<uint32_t>(kind.size());
  event.bytes_begin = bytes_.size();
  bytes_.Append(kind);
  return true;
}

size_t Trace::End(std::string_view format, uint64_t format_hash, Renderer render) {
  Event& event = events_.back();
  event.bytes_end = bytes_.size();
  event.format = format;
  event.render = render;
  const std::string_view bytes = bytes_.view().substr(event.bytes_begin, event.bytes_end - event.bytes_begin);
  event.hash = EventHash(format_hash, SimTime(event.time_us), event.attempt, bytes);
  hash_ = HashCombine(hash_, event.hash);
  return events_.size() - 1;
}

void Trace::RenderUpTo(size_t index) const {
  DURASIM_CHECK_MSG(kept_, "a trace without text has no lines");
  DURASIM_CHECK_LT(index, events_.size());
  for (size_t i = ends_.size(); i <= index; ++i) {
    const Event& event = events_[i];
    // "{:>12} a{} {:<18} {detail}"
    AppendSimTime(SimTime(event.time_us), text_);
    fmt::format_to(std::back_inserter(text_), " a{} ", event.attempt);
    const std::string_view bytes = bytes_.view().substr(event.bytes_begin, event.bytes_end - event.bytes_begin);
    const std::string_view kind = bytes.substr(0, event.kind_size);
    text_.append(kind);
    if (kind.size() < 18) text_.append(18 - kind.size(), ' ');
    text_.push_back(' ');
    TraceReader arguments(bytes.substr(event.kind_size));
    event.render(text_, event.format, arguments);
    text_.push_back('\n');
    ends_.push_back(text_.size());
  }
}

std::string_view Trace::line(size_t index) const {
  RenderUpTo(index);
  const size_t begin = index == 0 ? 0 : ends_[index - 1];
  return std::string_view(text_).substr(begin, ends_[index] - begin - 1);
}

std::vector<std::string> Trace::lines() const {
  std::vector<std::string> all;
  all.reserve(size());
  for (size_t i = 0; i < size(); ++i) all.emplace_back(line(i));
  return all;
}

uint64_t Trace::TextHash() const {
  if (!empty()) RenderUpTo(size() - 1);
  DURASIM_CHECK_MSG(kept_, "a trace without text has no lines");
  return Fnv1a(text_);
}

}  // namespace durasim
