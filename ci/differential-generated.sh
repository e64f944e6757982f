#!/usr/bin/env bash
# Explores seeds 1..COUNT on BACKEND next to the model (`durasim explore
# --compare-model`): any different observation, down to the trace, fails the
# seed, and the failing scenario is written (and shrunk) under FAILURES_DIR.
# For BACKEND kafka the broker is DURASIM_KAFKA_BOOTSTRAP; for BACKEND fluss
# the Fluss gateway is DURASIM_FLUSS_GATEWAY and the store design fluss;
# without either, exits 77 (ctest's "skipped"): ci/test.sh runs those tests
# under ci/kafka/with-broker.sh and ci/fluss/with-cluster.sh.
#   differential-generated.sh DURASIM COUNT mock|kafka|fluss FAILURES_DIR
set -euo pipefail
if (($# != 4)); then
  echo "usage: $0 DURASIM COUNT mock|kafka|fluss FAILURES_DIR" >&2
  exit 2
fi
durasim=$1 count=$2 backend=$3 failures=$4
backend_flags=(--backend "$backend")
if [[ $backend == kafka ]]; then
  if [[ -z ${DURASIM_KAFKA_BOOTSTRAP:-} ]]; then
    echo "skipped: DURASIM_KAFKA_BOOTSTRAP is not set (run under ci/kafka/with-broker.sh)"
    exit 77
  fi
  backend_flags+=(--bootstrap-servers "$DURASIM_KAFKA_BOOTSTRAP")
fi
if [[ $backend == fluss ]]; then
  if [[ -z ${DURASIM_FLUSS_GATEWAY:-} ]]; then
    echo "skipped: DURASIM_FLUSS_GATEWAY is not set (run under ci/fluss/with-cluster.sh)"
    exit 77
  fi
  backend_flags+=(--bootstrap-servers "$DURASIM_FLUSS_GATEWAY" --store fluss)
fi
exec "$durasim" explore --seeds "$count" --jobs 2 "${backend_flags[@]}" --compare-model --failures-dir "$failures"
