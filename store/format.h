// fmt, with its formatting engine taken from libfmt instead of compiled in
// every file. fmt 9 (Debian bookworm's) defines detail::vformat_to<char>,
// the engine behind fmt::format_to, fmt::vformat_to and every formatter that
// writes through them, in format.h without declaring the instance libfmt
// exports: each file that called it compiled the engine (its integer and
// float writers, Dragon4) again, 6 to 8 s of each such file's compile under
// the sanitizers (docs/benchmarks.md, issue 31 session 37). The declaration
// below makes those files call libfmt's instance. Every file includes fmt
// through this header (ci/lint/floors.py).
//
// Thread-safety: declarations only.
#pragma once

#include <fmt/format.h>  // IWYU pragma: export

#if FMT_VERSION >= 90000 && FMT_VERSION < 100000 && !defined(FMT_HEADER_ONLY)
FMT_BEGIN_NAMESPACE
namespace detail {
extern template void vformat_to<char>(buffer<char>& out, basic_string_view<char> format,
                                      basic_format_args<buffer_context<char>> args, locale_ref locale);
}  // namespace detail
FMT_END_NAMESPACE
#endif
