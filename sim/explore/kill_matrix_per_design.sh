#!/usr/bin/env bash
# The kill matrix on each store design (`durasim stores-list`): with every
# seed on that design, the production code is clean and every mutant that
# applies to it is caught by the invariant it is registered with on it
# (`durasim mutants --store DESIGN`).
#   kill_matrix_per_design.sh DURASIM SEEDS OUT_DIR
set -euo pipefail
if (($# != 3)); then
  echo "usage: $0 DURASIM SEEDS OUT_DIR" >&2
  exit 2
fi
durasim=$1 seeds=$2 out=$3
mapfile -t designs < <("$durasim" stores-list | awk '{print $1}')
status=0
for design in "${designs[@]}"; do
  echo "== kill matrix on $design"
  "$durasim" mutants --store "$design" --seeds "$seeds" --jobs 2 --shrink-budget-s 5 \
    --failures-dir "$out/$design" --report-json "$out/$design.json" | sed -n '/^kill matrix/,/^  /p' || status=1
done
exit "$status"
