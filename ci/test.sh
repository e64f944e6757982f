#!/usr/bin/env bash
# Quick start 2: install what is missing, build, run the regression suite,
# then every test through ctest. With --sanitize, also builds and runs the
# tests under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/regress.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
if [[ ${1:-} == --sanitize ]]; then
  bash ci/build.sh --sanitize
  (cd build-asan && ctest --output-on-failure -j "$(nproc)")
fi
