#!/usr/bin/env bash
# Runs every scenario file on the real broker named by DURASIM_KAFKA_BOOTSTRAP
# and on the model, and fails on any different observation. Exits 77 (ctest's
# "skipped") when no broker was given: ci/test.sh runs it under
# ci/kafka/with-broker.sh, which starts one.
#   differential.sh DURASIM SCENARIOS_DIR [RUN_FLAGS...]   (--store kafka-rewrite, say)
set -euo pipefail
if [[ -z ${DURASIM_KAFKA_BOOTSTRAP:-} ]]; then
  echo "skipped: DURASIM_KAFKA_BOOTSTRAP is not set (run under ci/kafka/with-broker.sh)"
  exit 77
fi
exec "$1" run --backend kafka --bootstrap-servers "$DURASIM_KAFKA_BOOTSTRAP" --compare-model "${@:3}" "$2"
