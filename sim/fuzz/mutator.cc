// The mutator's edits.
#include "sim/fuzz/mutator.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace durasim {
namespace {

// Lines with their '\n' (the last one may lack it).
std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line;
  return out;
}

size_t Pick(Prng& prng, size_t size) { return static_cast<size_t>(prng.Below(size)); }

// A position in [0, size].
size_t Position(Prng& prng, size_t size) { return static_cast<size_t>(prng.Below(size + 1)); }

// Bytes that break formats: controls, NUL, DEL, invalid UTF-8, quotes,
// YAML and JSON structure.
constexpr char kInterestingBytesData[] =
    "\x00\x01\x07\x08\t\n\r\x0b\x0c\x1b\x1f\x7f\x80\xbf\xc0\xc3\xe2\xef\xf0\xfe\xff"
    "\"'\\:,-[]{}#&*!|>%@`?~ ";
constexpr std::string_view kInterestingBytes(kInterestingBytesData, sizeof(kInterestingBytesData) - 1);

char InterestingByte(Prng& prng) {
  if (prng.Chance(1, 3)) return static_cast<char>(prng.Below(256));
  return kInterestingBytes[Pick(prng, kInterestingBytes.size())];
}

// Numbers at the edges of what a field, an int32, an int64 or a documented
// range holds.
constexpr std::array<std::string_view, 24> kBoundaryNumbers = {
    "0",
    "-1",
    "1",
    "-0",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "999999999999999999999999999999",
    "86400000",
    "86400001",
    "1000000",
    "1000001",
    "1024",
    "1025",
    "32768",
    "00000000000000000000000000000000007",
};

// YAML scalars and markers with a meaning of their own.
constexpr std::array<std::string_view, 26> kYamlSpecials = {
    "~",     "null",  "\"\"",   "''",    "!!binary \"gP8Aaw==\"", "!!binary \"@@@\"", "&a x", "*a",
    "*nope", "<<: *a", "? x",   "|",     ">",                     "---",             "...",  "%YAML 1.2",
    "!tag x", "[",    "{",      "]",     "}",                     "- ",              ": ",   "true",
    "1.5",   "0x10",
};

// The byte ranges of decimal numbers (an optional '-' and digits).
std::vector<std::pair<size_t, size_t>> Numbers(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> ranges;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] >= '0' && text[i] <= '9') {
      size_t start = i;
      if (start > 0 && text[start - 1] == '-') --start;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
      ranges.emplace_back(start, i - start);
    } else {
      ++i;
    }
  }
  return ranges;
}

// The value part of a `key: value` line: the offset after ": " up to the
// line's end (without '\n'), or npos.
size_t ValueStart(const std::string& line) {
  const size_t colon = line.find(": ");
  if (colon == std::string::npos) return std::string::npos;
  return colon + 2;
}

size_t ContentEnd(const std::string& line) {
  return !line.empty() && line.back() == '\n' ? line.size() - 1 : line.size();
}

std::string Nesting(Prng& prng, int max_depth) {
  const int depth = static_cast<int>(prng.Range(1, std::max(1, max_depth)));
  std::string out;
  switch (prng.Below(3)) {
    case 0:
      out.append(static_cast<size_t>(depth), '[');
      out += "1";
      out.append(static_cast<size_t>(depth), ']');
      break;
    case 1:
      for (int i = 0; i < depth; ++i) out += "{a: ";
      out += "1";
      out.append(static_cast<size_t>(depth), '}');
      break;
    default:
      // Block nesting: a key per line, each indented one more.
      out += "\n";
      for (int i = 0; i < std::min(depth, 600); ++i) {
        out.append(static_cast<size_t>(i + 1), ' ');
        out += "k:\n";
      }
      out.append(static_cast<size_t>(std::min(depth, 600) + 1), ' ');
      out += "1";
      break;
  }
  return out;
}

}  // namespace

const char* MutationName(Mutation mutation) {
  switch (mutation) {
    case Mutation::kFlipBit: return "flip-bit";
    case Mutation::kInsertBytes: return "insert-bytes";
    case Mutation::kDeleteBytes: return "delete-bytes";
    case Mutation::kDuplicateLine: return "duplicate-line";
    case Mutation::kDeleteLine: return "delete-line";
    case Mutation::kRepeatLines: return "repeat-lines";
    case Mutation::kSwapValues: return "swap-values";
    case Mutation::kBoundaryNumber: return "boundary-number";
    case Mutation::kDeepNesting: return "deep-nesting";
    case Mutation::kControlCharacter: return "control-character";
    case Mutation::kLongString: return "long-string";
    case Mutation::kIndentation: return "indentation";
    case Mutation::kYamlSpecial: return "yaml-special";
    case Mutation::kSplice: return "splice";
    case Mutation::kTruncate: return "truncate";
  }
  return "unknown";
}

std::string MutateOnce(const std::string& input, const std::vector<std::string>& corpus, Prng& prng,
                       const MutatorOptions& options, std::vector<Mutation>& applied) {
  // Weights: the structural edits that reach the parser's checks and the
  // runner most often, the byte edits that reach the YAML reader.
  static const std::vector<uint64_t> kWeights = {
      6,   // kFlipBit
      6,   // kInsertBytes
      6,   // kDeleteBytes
      8,   // kDuplicateLine
      8,   // kDeleteLine
      2,   // kRepeatLines
      8,   // kSwapValues
      14,  // kBoundaryNumber
      2,   // kDeepNesting
      5,   // kControlCharacter
      3,   // kLongString
      6,   // kIndentation
      8,   // kYamlSpecial
      6,   // kSplice
      2,   // kTruncate
  };
  const auto mutation = static_cast<Mutation>(prng.Weighted(kWeights));
  applied.push_back(mutation);
  std::string text = input;
  std::vector<std::string> lines = SplitLines(text);
  switch (mutation) {
    case Mutation::kFlipBit:
      if (!text.empty()) text[Pick(prng, text.size())] ^= static_cast<char>(1 << prng.Below(8));
      break;
    case Mutation::kInsertBytes: {
      std::string bytes;
      for (uint64_t n = prng.Range(1, 4); n > 0; --n) bytes += InterestingByte(prng);
      text.insert(Position(prng, text.size()), bytes);
      break;
    }
    case Mutation::kDeleteBytes:
      if (!text.empty()) {
        const size_t at = Pick(prng, text.size());
        const size_t count = static_cast<size_t>(prng.Range(1, prng.Chance(1, 4) ? 64 : 4));
        text.erase(at, count);
      }
      break;
    case Mutation::kDuplicateLine:
      if (!lines.empty()) {
        const size_t at = Pick(prng, lines.size());
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(Position(prng, lines.size())), lines[at]);
        text = JoinLines(lines);
      }
      break;
    case Mutation::kDeleteLine:
      if (!lines.empty()) {
        const size_t at = Pick(prng, lines.size());
        const size_t count = std::min(lines.size() - at, static_cast<size_t>(prng.Range(1, 3)));
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at),
                    lines.begin() + static_cast<std::ptrdiff_t>(at + count));
        text = JoinLines(lines);
      }
      break;
    case Mutation::kRepeatLines:
      // A run of lines repeated: many calls, inputs, steps or attempts.
      if (!lines.empty()) {
        const size_t at = Pick(prng, lines.size());
        const size_t count = std::min(lines.size() - at, static_cast<size_t>(prng.Range(1, 4)));
        const std::vector<std::string> block(lines.begin() + static_cast<std::ptrdiff_t>(at),
                                             lines.begin() + static_cast<std::ptrdiff_t>(at + count));
        std::vector<std::string> repeated;
        for (uint64_t n = prng.Chance(1, 8) ? prng.Range(50, 400) : prng.Range(2, 20); n > 0; --n) {
          repeated.insert(repeated.end(), block.begin(), block.end());
        }
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), repeated.begin(), repeated.end());
        text = JoinLines(lines);
      }
      break;
    case Mutation::kSwapValues: {
      std::vector<size_t> with_value;
      for (size_t i = 0; i < lines.size(); ++i) {
        if (ValueStart(lines[i]) != std::string::npos) with_value.push_back(i);
      }
      if (with_value.size() >= 2) {
        const size_t a = with_value[Pick(prng, with_value.size())];
        const size_t b = with_value[Pick(prng, with_value.size())];
        const size_t a_start = ValueStart(lines[a]);
        const size_t b_start = ValueStart(lines[b]);
        const std::string a_value = lines[a].substr(a_start, ContentEnd(lines[a]) - a_start);
        const std::string b_value = lines[b].substr(b_start, ContentEnd(lines[b]) - b_start);
        lines[a].replace(a_start, a_value.size(), b_value);
        lines[b].replace(b_start, b_value.size(), a_value);
        text = JoinLines(lines);
      }
      break;
    }
    case Mutation::kBoundaryNumber: {
      const std::vector<std::pair<size_t, size_t>> numbers = Numbers(text);
      const std::string_view boundary = kBoundaryNumbers[Pick(prng, kBoundaryNumbers.size())];
      if (numbers.empty()) {
        text.insert(Position(prng, text.size()), boundary);
      } else {
        const auto [at, length] = numbers[Pick(prng, numbers.size())];
        text.replace(at, length, boundary);
      }
      break;
    }
    case Mutation::kDeepNesting:
      if (!lines.empty()) {
        const size_t at = Pick(prng, lines.size());
        const size_t start = ValueStart(lines[at]);
        const std::string nesting = Nesting(prng, options.max_nesting);
        if (start == std::string::npos) {
          lines[at].insert(0, nesting + (prng.Chance(1, 2) ? "\n" : ""));
        } else {
          lines[at].replace(start, ContentEnd(lines[at]) - start, nesting);
        }
        text = JoinLines(lines);
      }
      break;
    case Mutation::kControlCharacter: {
      // Inside a value, where a plain scalar would carry it.
      const char control = prng.Chance(1, 4) ? '\x7f' : static_cast<char>(prng.Below(32));
      if (!lines.empty()) {
        const size_t at = Pick(prng, lines.size());
        const size_t start = ValueStart(lines[at]);
        const size_t from = start == std::string::npos ? 0 : start;
        lines[at].insert(from + Position(prng, ContentEnd(lines[at]) - std::min(from, ContentEnd(lines[at]))),
                         1, control);
        text = JoinLines(lines);
      } else {
        text.push_back(control);
      }
      break;
    }
    case Mutation::kLongString:
      if (!lines.empty()) {
        const size_t at = Pick(prng, lines.size());
        const size_t length = static_cast<size_t>(
            prng.Chance(1, 4) ? prng.Range(10'000, static_cast<int64_t>(options.max_long_string)) : prng.Range(80, 2000));
        const char fill = prng.Chance(1, 2) ? 'x' : static_cast<char>(prng.Range(' ', '~'));
        std::string value(length, fill);
        if (prng.Chance(1, 3)) value = "\"" + value + "\"";
        const size_t start = ValueStart(lines[at]);
        if (start == std::string::npos) {
          lines[at].insert(0, value);
        } else {
          lines[at].replace(start, ContentEnd(lines[at]) - start, value);
        }
        text = JoinLines(lines);
      }
      break;
    case Mutation::kIndentation:
      if (!lines.empty()) {
        std::string& line = lines[Pick(prng, lines.size())];
        switch (prng.Below(4)) {
          case 0: line.insert(0, static_cast<size_t>(prng.Range(1, 4)), ' '); break;
          case 1: line.erase(0, std::min(line.find_first_not_of(' '), static_cast<size_t>(prng.Range(1, 4)))); break;
          case 2: line.insert(0, "\t"); break;
          default: {
            const size_t indent = line.find_first_not_of(' ');
            if (indent != std::string::npos && indent > 0) line[Pick(prng, indent)] = '\t';
            break;
          }
        }
        text = JoinLines(lines);
      }
      break;
    case Mutation::kYamlSpecial: {
      const std::string_view special = kYamlSpecials[Pick(prng, kYamlSpecials.size())];
      if (!lines.empty()) {
        const size_t at = Pick(prng, lines.size());
        const size_t start = ValueStart(lines[at]);
        if (start == std::string::npos || prng.Chance(1, 4)) {
          lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), std::string(special) + "\n");
        } else {
          lines[at].replace(start, ContentEnd(lines[at]) - start, special);
        }
        text = JoinLines(lines);
      } else {
        text += special;
      }
      break;
    }
    case Mutation::kSplice:
      // A line of another corpus file: keys and steps from elsewhere.
      if (!corpus.empty()) {
        const std::vector<std::string> other = SplitLines(corpus[Pick(prng, corpus.size())]);
        if (!other.empty()) {
          std::string line = other[Pick(prng, other.size())];
          if (line.empty() || line.back() != '\n') line += '\n';
          lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(Position(prng, lines.size())), line);
          text = JoinLines(lines);
        }
      }
      break;
    case Mutation::kTruncate:
      text.resize(Position(prng, text.size()));
      break;
  }
  if (text.size() > options.max_size) text.resize(options.max_size);
  return text;
}

std::string Mutate(const std::string& input, const std::vector<std::string>& corpus, Prng& prng,
                   const MutatorOptions& options, std::vector<Mutation>& applied) {
  static const std::vector<uint64_t> kCounts = {0, 10, 6, 3, 1};  // how many mutations
  std::string text = input;
  for (size_t n = prng.Weighted(kCounts); n > 0; --n) text = MutateOnce(text, corpus, prng, options, applied);
  return text;
}

}  // namespace durasim
