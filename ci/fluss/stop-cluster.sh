#!/usr/bin/env bash
# stop-cluster.sh STATE_FILE
#
# Stops what start-cluster.sh STATE_FILE started, the gateway first and
# ZooKeeper last: SIGTERM, then SIGKILL for a process still alive after
# FLUSS_STOP_TIMEOUT seconds (default 20). Removes the temp dir and the
# STATE_FILE files. Safe to run twice or with nothing running.
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 STATE_FILE" >&2
  exit 2
fi
state_file=$1
timeout_s=${FLUSS_STOP_TIMEOUT:-20}

workdir=$(cat "$state_file.workdir" 2>/dev/null || true)
# Only touch a dir that start-cluster.sh made (it leaves this marker).
if [[ -z $workdir || ! -f $workdir/.durasim-fluss ]]; then
  rm -f "$state_file" "$state_file.workdir" "$state_file.bootstrap"
  exit 0
fi

# Alive = exists, is not a zombie, and still runs with our work dir (not a reused pid).
alive() {
  local cmdline
  cmdline=$(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline") || return 1
  [[ $cmdline == *"$workdir"* ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

for name in gateway tablet coordinator zookeeper; do
  pid=$(cat "$workdir/$name.pid" 2>/dev/null || true)
  [[ -n $pid ]] && alive "$pid" || continue
  deadline=$((SECONDS + timeout_s))
  kill -TERM "$pid" 2>/dev/null || true
  while alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
  if alive "$pid"; then
    echo "stop-cluster: the $name did not exit ${timeout_s} s after SIGTERM, sending SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
done
rm -rf "$workdir"
rm -f "$state_file" "$state_file.workdir" "$state_file.bootstrap"
echo "fluss cluster stopped"
