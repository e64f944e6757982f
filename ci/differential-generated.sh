#!/usr/bin/env bash
# Writes the scenarios of explore seeds 1..COUNT to files (`durasim replay
# --write`) and runs them on BACKEND next to the model (`--compare-model`):
# any different observation, down to the trace, fails. For BACKEND kafka the
# broker is DURASIM_KAFKA_BOOTSTRAP; without it, exits 77 (ctest's
# "skipped"): ci/test.sh runs the kafka tests under ci/kafka/with-broker.sh.
#   differential-generated.sh DURASIM COUNT mock|kafka
set -euo pipefail
if (($# != 3)); then
  echo "usage: $0 DURASIM COUNT mock|kafka" >&2
  exit 2
fi
durasim=$1 count=$2 backend=$3
backend_flags=(--backend "$backend")
if [[ $backend == kafka ]]; then
  if [[ -z ${DURASIM_KAFKA_BOOTSTRAP:-} ]]; then
    echo "skipped: DURASIM_KAFKA_BOOTSTRAP is not set (run under ci/kafka/with-broker.sh)"
    exit 77
  fi
  backend_flags+=(--bootstrap-servers "$DURASIM_KAFKA_BOOTSTRAP")
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/durasim-generated.XXXXXX")
trap 'rm -rf "$dir"' EXIT
for ((seed = 1; seed <= count; seed++)); do
  "$durasim" replay --seed "$seed" --write "$dir/seed_$seed.yaml" >/dev/null
done
exec "$durasim" run "${backend_flags[@]}" --compare-model "$dir"
