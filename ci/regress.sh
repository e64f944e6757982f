#!/usr/bin/env bash
# Quick start 1: install what is missing, build, run the regression suite
# (every scenario file under scenarios/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
# The simulator alone: the tests and benchmarks (about 40% of the compile
# time) come with quick start 2.
bash ci/build.sh --target durasim
./build/durasim run scenarios/
