#!/usr/bin/env bash
# Configures and builds durasim with warnings as errors.
#   ci/build.sh             -> build/ (RelWithDebInfo)
#   ci/build.sh --sanitize  -> build-asan/ (Debug, ASan + UBSan)
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build
options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDURASIM_WERROR=ON)
if [[ ${1:-} == --sanitize ]]; then
  build_dir=build-asan
  options=(-DCMAKE_BUILD_TYPE=Debug -DDURASIM_WERROR=ON -DDURASIM_SANITIZE=ON)
fi

cmake -S . -B "$build_dir" -G Ninja "${options[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
echo "build: $build_dir ready"
