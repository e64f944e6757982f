#!/usr/bin/env bash
# Runs every scenario file the fluss store design can run on a real Apache
# Fluss cluster (through the gateway named by DURASIM_FLUSS_GATEWAY) and on
# the model, and fails on any different observation; files on another design
# are left out, each with its line. Exits 77 (ctest's "skipped") when no
# gateway was given: ci/test.sh runs it under ci/fluss/with-cluster.sh.
#   differential.sh DURASIM SCENARIOS_DIR
set -euo pipefail
if [[ -z ${DURASIM_FLUSS_GATEWAY:-} ]]; then
  echo "skipped: DURASIM_FLUSS_GATEWAY is not set (run under ci/fluss/with-cluster.sh)"
  exit 77
fi
exec "$1" run --store fluss --backend fluss --bootstrap-servers "$DURASIM_FLUSS_GATEWAY" --compare-model "$2"
