// fmt, with its formatting engine taken from libfmt instead of compiled into
// every file that formats through it. fmt 9 (Debian bookworm's) defines
// detail::vformat_to<char>, the engine behind fmt::format_to, fmt::vformat_to
// and every formatter that writes through them, in format.h, and libfmt.so
// exports its instance; but fmt's headers declare no extern instance (fmt 8.0
// did, and dropped it: clang mangles one of its parameter types unlike GCC,
// so a clang object would reference a name the GCC-built library does not
// export; fmt issue #2377). So each file that called it compiled the engine
// again: 5 to 8 s of each such file's compile under the sanitizers
// (docs/benchmarks.md, issue 31 session 37). Compiled by GCC, the declaration
// below makes those files call libfmt's instance; clang keeps its copies.
// The floors' files include fmt's format.h through this header
// (ci/lint/floors.py).
//
// What it costs: the engine runs as libfmt's uninstrumented code in the
// sanitizer build, as fmt::format's always did.
//
// Thread-safety: declarations only.
#pragma once

#include <fmt/format.h>  // IWYU pragma: export

#if FMT_VERSION >= 90000 && FMT_VERSION < 100000 && !defined(FMT_HEADER_ONLY) && !defined(__clang__)
FMT_BEGIN_NAMESPACE
namespace detail {
extern template FMT_API void vformat_to<char>(buffer<char>& out, basic_string_view<char> format,
                                              basic_format_args<buffer_context<char>> args, locale_ref locale);
}  // namespace detail
FMT_END_NAMESPACE
#endif
