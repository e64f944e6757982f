#!/usr/bin/env bash
# Quick start 2: install what is missing, build, run the regression suite,
# then every test through ctest, the real-broker ones against an Apache
# Kafka broker started from Maven jars (ci/kafka/), the real-Fluss ones
# against an Apache Fluss cluster started the same way (ci/fluss/). With --sanitize, also
# builds and runs the tests under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."

# Runs one step and says how long it took (CI's time, step by step).
step() {
  local name=$1 started=$SECONDS
  shift
  "$@"
  echo "ci/test.sh: $name took $((SECONDS - started)) s"
}

step "quick start 1 (install, build the simulator, regression suite)" bash ci/regress.sh
# What only tests use (a JDK, Maven, kcat, Chromium) and every other
# target (the tests, benchmarks): quick start 1 leaves them out.
step "test tools" bash ci/install-deps.sh --with-test-tools
step "build" bash ci/build.sh
# Everything but the real-broker and real-Fluss tests, then each with its
# cluster running (one at a time: two side by side took about as long, the
# broker and the simulator sharing the two cores).
step "tests" bash -c 'cd build && ctest --output-on-failure -j "$(nproc)" -LE "kafka|fluss"'
step "real-broker tests" bash ci/kafka/with-broker.sh bash -c 'cd build && ctest --output-on-failure -L kafka'
step "real-Fluss tests" bash ci/fluss/with-cluster.sh bash -c 'cd build && ctest --output-on-failure -L fluss'

if [[ ${1:-} == --sanitize ]]; then
  step "sanitizer build" bash ci/build.sh --sanitize
  # The per-design kill matrix and the pair table run in the plain build only
  # (their labels say why).
  step "sanitizer tests" bash -c 'cd build-asan && ctest --output-on-failure -j "$(nproc)" -LE "kafka|fluss|per-design|pairs"'
fi
echo "ci/test.sh: every step passed in $SECONDS s"
