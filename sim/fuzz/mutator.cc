// The mutator's edits.
#include "sim/fuzz/mutator.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "store/check.h"

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

// The mutations, one function each, grouped by family. Each edits `text`
// (and, for a line edit, rejoins `lines`, the lines of the input); the PRNG
// draws of each are the ones it always made, in the same order, so a seed
// keeps its mutant (docs/fuzzing.md).

// Byte edits: what reaches the YAML reader.

void FlipBit(std::string& text, Prng& prng) {
  if (!text.empty()) text[Pick(prng, text.size())] ^= static_cast<char>(1 << prng.Below(8));
}

void InsertBytes(std::string& text, Prng& prng) {
  std::string bytes;
  for (uint64_t n = prng.Range(1, 4); n > 0; --n) bytes += InterestingByte(prng);
  text.insert(Position(prng, text.size()), bytes);
}

void DeleteBytes(std::string& text, Prng& prng) {
  if (text.empty()) return;
  const size_t at = Pick(prng, text.size());
  const size_t count = static_cast<size_t>(prng.Range(1, prng.Chance(1, 4) ? 64 : 4));
  text.erase(at, count);
}

void Truncate(std::string& text, Prng& prng) { text.resize(Position(prng, text.size())); }

// Line edits: calls, inputs, steps and attempts duplicated, lost, repeated
// or brought in from elsewhere.

void DuplicateLine(std::vector<std::string>& lines, std::string& text, Prng& prng) {
  if (lines.empty()) return;
  const size_t at = Pick(prng, lines.size());
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(Position(prng, lines.size())), lines[at]);
  text = JoinLines(lines);
}

void DeleteLine(std::vector<std::string>& lines, std::string& text, Prng& prng) {
  if (lines.empty()) return;
  const size_t at = Pick(prng, lines.size());
  const size_t count = std::min(lines.size() - at, static_cast<size_t>(prng.Range(1, 3)));
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at), lines.begin() + static_cast<std::ptrdiff_t>(at + count));
  text = JoinLines(lines);
}

// A run of lines repeated: many calls, inputs, steps or attempts.
void RepeatLines(std::vector<std::string>& lines, std::string& text, Prng& prng) {
  if (lines.empty()) return;
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

// A line of another corpus file: keys and steps from elsewhere.
void Splice(std::vector<std::string>& lines, std::string& text, const std::vector<std::string>& corpus, Prng& prng) {
  if (corpus.empty()) return;
  const std::vector<std::string> other = SplitLines(corpus[Pick(prng, corpus.size())]);
  if (other.empty()) return;
  std::string line = other[Pick(prng, other.size())];
  if (line.empty() || line.back() != '\n') line += '\n';
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(Position(prng, lines.size())), line);
  text = JoinLines(lines);
}

void Indentation(std::vector<std::string>& lines, std::string& text, Prng& prng) {
  if (lines.empty()) return;
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

// Value edits: what reaches the parser's checks and the runner.

void SwapValues(std::vector<std::string>& lines, std::string& text, Prng& prng) {
  std::vector<size_t> with_value;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (ValueStart(lines[i]) != std::string::npos) with_value.push_back(i);
  }
  if (with_value.size() < 2) return;
  const size_t a = with_value[Pick(prng, with_value.size())];
  const size_t b = with_value[Pick(prng, with_value.size())];
  const size_t a_start = ValueStart(lines[a]);
  const size_t b_start = ValueStart(lines[b]);
  // ": " comes before a line's '\n', so a value starts at or before its end.
  DURASIM_CHECK_LE(a_start, ContentEnd(lines[a]));
  DURASIM_CHECK_LE(b_start, ContentEnd(lines[b]));
  const std::string a_value = lines[a].substr(a_start, ContentEnd(lines[a]) - a_start);
  const std::string b_value = lines[b].substr(b_start, ContentEnd(lines[b]) - b_start);
  lines[a].replace(a_start, a_value.size(), b_value);
  lines[b].replace(b_start, b_value.size(), a_value);
  text = JoinLines(lines);
}

void BoundaryNumber(std::string& text, Prng& prng) {
  const std::vector<std::pair<size_t, size_t>> numbers = Numbers(text);
  const std::string_view boundary = kBoundaryNumbers[Pick(prng, kBoundaryNumbers.size())];
  if (numbers.empty()) {
    text.insert(Position(prng, text.size()), boundary);
  } else {
    const auto [at, length] = numbers[Pick(prng, numbers.size())];
    DURASIM_CHECK_LE(at + length, text.size());
    text.replace(at, length, boundary);
  }
}

void DeepNesting(std::vector<std::string>& lines, std::string& text, const MutatorOptions& options, Prng& prng) {
  if (lines.empty()) return;
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

// Inside a value, where a plain scalar would carry it.
void ControlCharacter(std::vector<std::string>& lines, std::string& text, Prng& prng) {
  const char control = prng.Chance(1, 4) ? '\x7f' : static_cast<char>(prng.Below(32));
  if (lines.empty()) {
    text.push_back(control);
    return;
  }
  const size_t at = Pick(prng, lines.size());
  const size_t start = ValueStart(lines[at]);
  const size_t from = start == std::string::npos ? 0 : start;
  lines[at].insert(from + Position(prng, ContentEnd(lines[at]) - std::min(from, ContentEnd(lines[at]))), 1, control);
  text = JoinLines(lines);
}

void LongString(std::vector<std::string>& lines, std::string& text, const MutatorOptions& options, Prng& prng) {
  if (lines.empty()) return;
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

void YamlSpecial(std::vector<std::string>& lines, std::string& text, Prng& prng) {
  const std::string_view special = kYamlSpecials[Pick(prng, kYamlSpecials.size())];
  if (lines.empty()) {
    text += special;
    return;
  }
  const size_t at = Pick(prng, lines.size());
  const size_t start = ValueStart(lines[at]);
  if (start == std::string::npos || prng.Chance(1, 4)) {
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), std::string(special) + "\n");
  } else {
    lines[at].replace(start, ContentEnd(lines[at]) - start, special);
  }
  text = JoinLines(lines);
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
    case Mutation::kFlipBit: FlipBit(text, prng); break;
    case Mutation::kInsertBytes: InsertBytes(text, prng); break;
    case Mutation::kDeleteBytes: DeleteBytes(text, prng); break;
    case Mutation::kDuplicateLine: DuplicateLine(lines, text, prng); break;
    case Mutation::kDeleteLine: DeleteLine(lines, text, prng); break;
    case Mutation::kRepeatLines: RepeatLines(lines, text, prng); break;
    case Mutation::kSwapValues: SwapValues(lines, text, prng); break;
    case Mutation::kBoundaryNumber: BoundaryNumber(text, prng); break;
    case Mutation::kDeepNesting: DeepNesting(lines, text, options, prng); break;
    case Mutation::kControlCharacter: ControlCharacter(lines, text, prng); break;
    case Mutation::kLongString: LongString(lines, text, options, prng); break;
    case Mutation::kIndentation: Indentation(lines, text, prng); break;
    case Mutation::kYamlSpecial: YamlSpecial(lines, text, prng); break;
    case Mutation::kSplice: Splice(lines, text, corpus, prng); break;
    case Mutation::kTruncate: Truncate(text, prng); break;
  }
  if (text.size() > options.max_size) text.resize(options.max_size);
  return text;
}

std::string Mutate(const std::string& input, const std::vector<std::string>& corpus, Prng& prng,
                   const MutatorOptions& options, std::vector<Mutation>& applied) {
  static const std::vector<uint64_t> kCounts = {0, 10, 6, 3, 1};  // how many mutations
  const size_t count = prng.Weighted(kCounts);
  DURASIM_CHECK_GE(count, size_t{1});  // kCounts weighs 0 mutations 0: a mutant differs by at least one edit
  const size_t applied_before = applied.size();
  std::string text = input;
  for (size_t n = count; n > 0; --n) text = MutateOnce(text, corpus, prng, options, applied);
  DURASIM_CHECK_EQ(applied.size(), applied_before + count);  // MutateOnce names each edit it makes
  DURASIM_CHECK_LE(text.size(), options.max_size);  // the last edit cut it back: the fuzzer's memory bound
  return text;
}

}  // namespace durasim
