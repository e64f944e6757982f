#!/usr/bin/env bash
# stop-broker.sh BOOTSTRAP_FILE
#
# Stops the broker that start-broker.sh BOOTSTRAP_FILE started: SIGTERM (a
# controlled shutdown), then SIGKILL if it is still alive after
# KAFKA_STOP_TIMEOUT seconds (default 20). Removes its temp dir and the
# BOOTSTRAP_FILE(.workdir) files. Safe to run twice or with nothing running.
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BOOTSTRAP_FILE" >&2
  exit 2
fi
bootstrap_file=$1
timeout_s=${KAFKA_STOP_TIMEOUT:-20}

workdir=$(cat "$bootstrap_file.workdir" 2>/dev/null || true)
# Only touch a dir that start-broker.sh made (it leaves this marker).
if [[ -z $workdir || ! -f $workdir/.durasim-kafka ]]; then
  rm -f "$bootstrap_file" "$bootstrap_file.workdir"
  exit 0
fi

# Alive = exists, is not a zombie, and is still our broker (not a reused pid).
alive() {
  local cmdline
  cmdline=$(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline") || return 1
  [[ $cmdline == *"kafka.Kafka $workdir/"* ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

pid=$(cat "$workdir/broker.pid" 2>/dev/null || true)
if [[ -n $pid ]] && alive "$pid"; then
  t0=$EPOCHREALTIME
  deadline=$((SECONDS + timeout_s))
  kill -TERM "$pid" 2>/dev/null || true
  while alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
  if alive "$pid"; then
    echo "stop-broker: no exit ${timeout_s} s after SIGTERM, sending SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  else
    echo "kafka broker pid $pid stopped in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
  fi
fi
rm -rf "$workdir"
rm -f "$bootstrap_file" "$bootstrap_file.workdir"
