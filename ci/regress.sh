#!/usr/bin/env bash
# Quick start 1: install what is missing, build, run the regression suite
# (every scenario file under scenarios/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
./build/durasim run scenarios/
