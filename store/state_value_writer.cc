// The streaming writer of a state value: appends into one string the bytes
// nlohmann::json's dump() writes for the value's DOM. That DOM is a std::map,
// so object keys come sorted; dump() is compact, escapes " \ \b \f \n \r \t
// and other bytes below 0x20 as \u00xx (lowercase), and passes UTF-8
// through (0x7f too).
#include <algorithm>
#include <charconv>

#include "store/check.h"
#include "store/copy_short.h"
#include "store/state_codec_internal.h"
#include "store/utf8.h"

namespace durasim::state_codec_internal {
namespace {

// Literals as string_views: their lengths are constants, also through the ?: pairs.
using std::string_view_literals::operator""sv;

constexpr char kHexDigits[] = "0123456789abcdef";

// The two lowercase hex digits of each byte value, so that formatting takes
// one lookup per byte rather than a shift, mask and lookup per digit.
struct HexPairs {
  char digits[256][2];
};
constexpr HexPairs MakeHexPairs() {
  HexPairs pairs{};
  for (int byte = 0; byte < 256; ++byte) {
    pairs.digits[byte][0] = kHexDigits[byte >> 4];
    pairs.digits[byte][1] = kHexDigits[byte & 0xf];
  }
  return pairs;
}
constexpr HexPairs kHexPairs = MakeHexPairs();

// The value being written: a string sized to an estimate ahead, written
// through a cursor, so that an append is a copy into its buffer (inline up
// to 16 bytes, store/copy_short.h) rather than a std::string::append call;
// it grows when the estimate falls short (escapes, long strings).
class ValueOut {
 public:
  ValueOut(std::string& out, size_t estimate) : out_(out) { out_.resize(estimate); }
  // Inline always, so that a literal's length is a constant there and its
  // copy a store or two.
  [[gnu::always_inline]] void Append(std::string_view text) {
    Ensure(text.size());
    CopyShort(out_.data() + size_, text.data(), text.size());
    size_ += text.size();
  }
  [[gnu::always_inline]] void Push(char c) {
    Ensure(1);
    out_[size_++] = c;
  }
  // Cuts the string to what was written.
  void Finish() { out_.resize(size_); }

 private:
  [[gnu::always_inline]] void Ensure(size_t more) {
    if (out_.size() - size_ < more) [[unlikely]] Grow(more);
  }
  void Grow(size_t more) { out_.resize(std::max(2 * out_.size(), size_ + more)); }

  std::string& out_;
  size_t size_ = 0;
};

// Appends `text` as a JSON string; false when it is not UTF-8 (dump() throws).
bool AppendString(ValueOut& out, std::string_view text) {
  out.Push('"');
  size_t plain = 0;  // the start of the bytes not yet copied
  bool ascii = true;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') {
      ascii = ascii && c < 0x80;
      continue;
    }
    out.Append(text.substr(plain, i - plain));
    plain = i + 1;
    out.Push('\\');
    switch (c) {
      case '"': out.Push('"'); break;
      case '\\': out.Push('\\'); break;
      case '\b': out.Push('b'); break;
      case '\f': out.Push('f'); break;
      case '\n': out.Push('n'); break;
      case '\r': out.Push('r'); break;
      case '\t': out.Push('t'); break;
      default:
        out.Append("u00"sv);
        out.Push(kHexDigits[c >> 4]);
        out.Push(kHexDigits[c & 0xf]);
    }
  }
  out.Append(text.substr(plain));
  out.Push('"');
  return ascii || IsValidUtf8(text);
}

void AppendInteger(ValueOut& out, int64_t value) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  DURASIM_CHECK(ec == std::errc());  // 24 bytes hold any int64 (20 at most)
  out.Append(std::string_view(digits, static_cast<size_t>(end - digits)));
}

void AppendHexString(ValueOut& out, uint64_t value) {
  char quoted[18];
  quoted[0] = '"';
  WriteHex64(quoted + 1, value);
  quoted[17] = '"';
  out.Append(std::string_view(quoted, sizeof quoted));
}

// Room for the value when no string needs escapes.
size_t SizeEstimate(const StateKey& k, const ActionState& state) {
  size_t size = 160 + 2 * k.key.size();
  for (const CallResult& c : state.call_results) size += 100 + c.function_id.size() + c.error.size();
  for (const MemoryUpdate& m : state.memory_updates) size += 50 + m.slot.size();
  for (const EmittedEvent& e : state.emitted_events) size += 50 + e.type.size();
  return size;
}

}  // namespace

char* WriteHex64(char* out, uint64_t value) {
  for (int i = 14; i >= 0; i -= 2, value >>= 8) {
    const char* pair = kHexPairs.digits[value & 0xff];
    out[i] = pair[0];
    out[i + 1] = pair[1];
  }
  return out + 16;
}

void AppendHex64(std::string& out, uint64_t value) {
  char digits[16];
  WriteHex64(digits, value);
  out.append(digits, sizeof digits);
}

void AppendHexBytes(std::string& out, std::string_view bytes) {
  const size_t start = out.size();
  out.resize(start + 2 * bytes.size());
  char* digits = out.data() + start;
  for (const char byte : bytes) {
    const char* pair = kHexPairs.digits[static_cast<unsigned char>(byte)];
    *digits++ = pair[0];
    *digits++ = pair[1];
  }
  DURASIM_CHECK(digits == out.data() + out.size());  // two digits per byte, filling what was added
}

std::optional<std::string> WriteStateValue(const StateKey& k, const ActionState& state) {
  std::string value;
  ValueOut out(value, SizeEstimate(k, state));
  bool utf8 = true;
  out.Append("{\"action\":"sv);
  AppendHexString(out, k.action_hash);
  out.Append(",\"calls\":["sv);
  for (size_t i = 0; i < state.call_results.size(); ++i) {
    const CallResult& c = state.call_results[i];
    out.Append(i == 0 ? "{\"args\":"sv : ",{\"args\":"sv);
    AppendHexString(out, c.args_digest);
    out.Append(",\"error\":"sv);
    utf8 = AppendString(out, c.error) && utf8;
    out.Append(",\"fn\":"sv);
    utf8 = AppendString(out, c.function_id) && utf8;
    out.Append(",\"result\":"sv);
    AppendInteger(out, c.result);
    out.Append(",\"status\":\""sv);
    out.Append(CallStatusName(c.status));
    out.Append("\"}"sv);
  }
  out.Append(state.completed ? "],\"completed\":true,\"event\":"sv : "],\"completed\":false,\"event\":"sv);
  AppendHexString(out, k.event_hash);
  out.Append(",\"events\":["sv);
  for (size_t i = 0; i < state.emitted_events.size(); ++i) {
    out.Append(i == 0 ? "{\"type\":"sv : ",{\"type\":"sv);
    utf8 = AppendString(out, state.emitted_events[i].type) && utf8;
    out.Append(",\"value\":"sv);
    AppendInteger(out, state.emitted_events[i].value);
    out.Push('}');
  }
  // A JSON string holds UTF-8 only: a key of other bytes goes as hex.
  if (IsValidUtf8(k.key)) {
    out.Append("],\"key\":"sv);
    AppendString(out, k.key);
  } else {
    out.Append("],\"key_hex\":\""sv);
    std::string hex;
    AppendHexBytes(hex, k.key);
    out.Append(hex);
    out.Push('"');
  }
  out.Append(",\"memory\":["sv);
  for (size_t i = 0; i < state.memory_updates.size(); ++i) {
    out.Append(i == 0 ? "{\"slot\":"sv : ",{\"slot\":"sv);
    utf8 = AppendString(out, state.memory_updates[i].slot) && utf8;
    out.Append(",\"value\":"sv);
    AppendInteger(out, state.memory_updates[i].value);
    out.Push('}');
  }
  out.Append("],\"seq\":"sv);
  AppendInteger(out, k.seq);
  out.Append(",\"v\":"sv);
  AppendInteger(out, kStateFormatVersion);
  out.Push('}');
  if (!utf8) return std::nullopt;
  out.Finish();
  return value;
}

}  // namespace durasim::state_codec_internal
