#!/usr/bin/env bash
# Configures and builds durasim with warnings as errors.
#   ci/build.sh                   -> build/ (RelWithDebInfo), every target
#   ci/build.sh --target durasim  -> build/, that target only (quick start 1: the regression
#                                    suite needs the simulator, not the tests and benchmarks)
#   ci/build.sh --sanitize        -> build-asan/ (ASan + UBSan at -O1 with line tables, each
#                                    file compiled alone), every target
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build
options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDURASIM_WERROR=ON)
targets=()
case ${1:-} in
  --sanitize)
    build_dir=build-asan
    # Each file alone (no unity build): every file must compile on its own.
    # -O1, as AddressSanitizer's documentation advises: the instrumentation is
    # the same, and the tests under it took half the time they took at -O0,
    # the kill matrix a quarter (docs/benchmarks.md, issue 31 session 29).
    # -g1: line tables, all a sanitizer's report needs (its stack names every
    # frame, inlined ones too, with file and line, as with -g); files compile
    # in about a quarter less CPU time (docs/benchmarks.md, issue 31 session
    # 37). For variables in a debugger, configure a Debug build of your own.
    options=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1" -DDURASIM_WERROR=ON
             -DDURASIM_SANITIZE=ON -DDURASIM_UNITY_BUILD=OFF)
    ;;
  --target)
    targets=(--target "${2:?ci/build.sh --target needs a target name}")
    ;;
  "") ;;
  *)
    echo "build: unknown argument $1 (expected nothing, --sanitize or --target T)" >&2
    exit 2
    ;;
esac

cmake -S . -B "$build_dir" -G Ninja "${options[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
echo "build: $build_dir ready${targets:+ (${targets[1]})}"
