#!/usr/bin/env bash
# Every store design (`durasim stores-list`) against the scenario files:
# every file is as expected on each design (a file that names its `store:`
# keeps it), and the seed's regressions, the two-restore one and the
# upstream one-restore test, fail by `once` on each design with the legacy
# end-offset marker (neither rewind nor rewrite). With BACKEND mock, each
# design's files also tell the model's story on librdkafka's mock cluster.
#   store_designs_check.sh DURASIM SCENARIOS_DIR [mock]
set -euo pipefail
if (($# < 2)); then
  echo "usage: $0 DURASIM SCENARIOS_DIR [mock]" >&2
  exit 2
fi
durasim=$1 scenarios=$2 backend=${3:-model}
mapfile -t designs < <("$durasim" stores-list | awk '{print $1}')
if ((${#designs[@]} < 2)); then
  echo "stores-list names ${#designs[@]} designs; expected at least 2" >&2
  exit 1
fi
for design in "${designs[@]}"; do
  echo "== $design"
  if [[ $backend == mock ]]; then
    "$durasim" run --store "$design" --backend mock --compare-model "$scenarios" | tail -1
    continue
  fi
  "$durasim" run --store "$design" "$scenarios" | tail -1
  for file in regressions/kafka_queued_action_reuse.yaml regressions/upstream_checkpoint_mid_action.yaml; do
    out=$("$durasim" run --store "$design" --mutant legacy-end-offset-marker "$scenarios/$file" || true)
    if ! grep -q 'violation \[once\]' <<<"$out"; then
      echo "$file on $design with legacy-end-offset-marker: no once violation" >&2
      echo "$out" >&2
      exit 1
    fi
    echo "$file: legacy-end-offset-marker caught by once"
  done
done
