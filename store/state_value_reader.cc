// The strict reader of a state value: reads the canonical form only, the
// bytes the writer writes (keys in sorted order, no whitespace, integers in
// int64 without leading zeros or "-0", UTF-8 strings), and gives up on
// anything else, so that the DOM decoder decides, with its messages. What it
// accepts is valid JSON that the DOM decoder reads to the same state.
#include <cstring>
#include <limits>

#include "store/check.h"
#include "store/state_codec_internal.h"
#include "store/utf8.h"

namespace durasim::state_codec_internal {
namespace {

// A cursor over the value; each reader consumes what it read and says
// whether the text there has the form it reads.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool AtEnd() const { return text_.empty(); }

  // A literal of the format, given as a string literal: its length is a
  // constant, so the compare is a few word compares, inline.
  template <size_t N>
  bool Literal(const char (&expected)[N]) {
    constexpr size_t size = N - 1;
    if (text_.size() < size || std::memcmp(text_.data(), expected, size) != 0) return false;
    text_.remove_prefix(size);
    return true;
  }

  // A hash as the writer writes it, 16 hex digits between quotes, read in
  // place; false, consuming nothing, for anything else. Such a string holds
  // no escape, so String would read the same 16 digits.
  bool QuotedHex64(uint64_t& out) {
    if (text_.size() < 18 || text_[0] != '"' || text_[17] != '"' || !ParseHex64(text_.substr(1, 16), out)) {
      return false;
    }
    text_.remove_prefix(18);
    return true;
  }

  bool Boolean(bool& out) {
    if (Literal("true")) return out = true, true;
    if (Literal("false")) return out = false, true;
    return false;
  }

  // An integer as the writer writes it: "0", or [-]1-9 then digits, in int64.
  // The digits are summed here rather than by std::from_chars: at most 19
  // of them, so the magnitude fits in a uint64_t, and int64's range is then
  // one compare.
  bool Integer(int64_t& out) {
    const bool negative = text_.starts_with('-');
    const size_t sign = negative ? 1 : 0;
    size_t end = sign;
    uint64_t magnitude = 0;
    while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9') {
      if (end - sign == 19) return false;  // a 20th digit: past int64 (or after a leading zero, rejected either way)
      magnitude = magnitude * 10 + static_cast<uint64_t>(text_[end] - '0');
      ++end;
    }
    if (end == sign || (text_[sign] == '0' && end - sign > 1) || (negative && text_[1] == '0')) return false;
    constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (magnitude > kMax + (negative ? 1 : 0)) return false;
    out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    text_.remove_prefix(end);
    return true;
  }

  // A string of UTF-8 (RFC 3629, as nlohmann's lexer takes it) with no
  // control character, with the escapes that stand for one ASCII byte
  // (\uXXXX below 0x80 too); anything else gives up. An escape stands for
  // an ASCII byte, which ends any UTF-8 sequence in both texts, so the
  // string read is UTF-8 exactly when the JSON text is.
  bool String(std::string& out) {
    if (!Literal("\"")) return false;
    out.clear();
    bool ascii = true;
    size_t i = 0;
    while (i < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[i]);
      if (c == '"') {
        out.append(text_.substr(0, i));
        text_.remove_prefix(i + 1);
        return ascii || IsValidUtf8(out);
      }
      if (c < 0x20) return false;
      if (c != '\\') {
        ascii = ascii && c < 0x80;
        ++i;
        continue;
      }
      out.append(text_.substr(0, i));
      text_.remove_prefix(i);
      i = 0;
      if (!Escape(out)) return false;
    }
    return false;
  }

 private:
  // REQUIRES: text_ starts with a backslash.
  bool Escape(std::string& out) {
    DURASIM_CHECK(text_.starts_with('\\'));
    if (text_.size() < 2) return false;
    const char kind = text_[1];
    text_.remove_prefix(2);
    switch (kind) {
      case '"': case '\\': case '/': out.push_back(kind); return true;
      case 'b': out.push_back('\b'); return true;
      case 'f': out.push_back('\f'); return true;
      case 'n': out.push_back('\n'); return true;
      case 'r': out.push_back('\r'); return true;
      case 't': out.push_back('\t'); return true;
      case 'u': break;
      default: return false;
    }
    unsigned code = 0;
    if (text_.size() < 4) return false;
    for (const char digit : text_.substr(0, 4)) {
      const int value = digit >= '0' && digit <= '9'   ? digit - '0'
                        : digit >= 'a' && digit <= 'f' ? digit - 'a' + 10
                        : digit >= 'A' && digit <= 'F' ? digit - 'A' + 10
                                                       : -1;
      if (value < 0) return false;
      code = code * 16 + static_cast<unsigned>(value);
    }
    if (code >= 0x80) return false;
    text_.remove_prefix(4);
    out.push_back(static_cast<char>(code));
    return true;
  }

  std::string_view text_;
};

// A list of items, each read by `read_item`.
template <typename ReadItem>
bool List(Cursor& in, ReadItem read_item) {
  if (!in.Literal("[")) return false;
  if (in.Literal("]")) return true;
  do {
    if (!read_item()) return false;
  } while (in.Literal(","));
  return in.Literal("]");
}

// Appends `item`; a list's first item makes room for four, so a state of up
// to four calls (events, memory updates) allocates its list once.
template <typename T>
void PushBack(std::vector<T>& list, T&& item) {
  if (list.empty()) list.reserve(4);
  list.push_back(std::move(item));
}

bool Hash(Cursor& in, std::string& scratch, uint64_t& out) {
  return in.QuotedHex64(out) || (in.String(scratch) && ParseHex64(scratch, out));
}

}  // namespace

std::optional<DecodedState> ReadCanonicalStateValue(std::string_view value) {
  Cursor in(value);
  DecodedState out;
  std::string scratch;
  const auto call = [&] {
    CallResult c;
    std::optional<CallStatus> status;
    if (!in.Literal("{\"args\":") || !Hash(in, scratch, c.args_digest) || !in.Literal(",\"error\":") ||
        !in.String(c.error) || !in.Literal(",\"fn\":") || !in.String(c.function_id) ||
        !in.Literal(",\"result\":") || !in.Integer(c.result) || !in.Literal(",\"status\":") ||
        !in.String(scratch) || !(status = ParseCallStatus(scratch)) || !in.Literal("}")) {
      return false;
    }
    c.status = *status;
    PushBack(out.state.call_results, std::move(c));
    return true;
  };
  const auto event = [&] {
    EmittedEvent e;
    if (!in.Literal("{\"type\":") || !in.String(e.type) || !in.Literal(",\"value\":") || !in.Integer(e.value) ||
        !in.Literal("}")) {
      return false;
    }
    PushBack(out.state.emitted_events, std::move(e));
    return true;
  };
  const auto memory = [&] {
    MemoryUpdate m;
    if (!in.Literal("{\"slot\":") || !in.String(m.slot) || !in.Literal(",\"value\":") || !in.Integer(m.value) ||
        !in.Literal("}")) {
      return false;
    }
    PushBack(out.state.memory_updates, std::move(m));
    return true;
  };
  const auto key = [&] {
    if (in.Literal(",\"key\":")) return in.String(out.state_key.key);
    if (!in.Literal(",\"key_hex\":") || !in.String(scratch)) return false;
    std::optional<std::string> bytes = ParseHexBytes(scratch);
    if (!bytes) return false;
    out.state_key.key = *std::move(bytes);
    return true;
  };
  int64_t version = 0;
  if (!in.Literal("{\"action\":") || !Hash(in, scratch, out.state_key.action_hash) || !in.Literal(",\"calls\":") ||
      !List(in, call) || !in.Literal(",\"completed\":") || !in.Boolean(out.state.completed) ||
      !in.Literal(",\"event\":") || !Hash(in, scratch, out.state_key.event_hash) || !in.Literal(",\"events\":") ||
      !List(in, event) || !key() || !in.Literal(",\"memory\":") || !List(in, memory) || !in.Literal(",\"seq\":") ||
      !in.Integer(out.state_key.seq) || !in.Literal(",\"v\":") || !in.Integer(version) ||
      version != kStateFormatVersion || !in.Literal("}") || !in.AtEnd()) {
    return std::nullopt;
  }
  return out;
}

}  // namespace durasim::state_codec_internal
