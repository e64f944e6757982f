#!/usr/bin/env bash
# with-broker.sh CMD [ARGS...]
#
# Runs CMD with a fresh single-node Kafka broker on loopback and
# DURASIM_KAFKA_BOOTSTRAP=127.0.0.1:PORT in its environment, plus
# DURASIM_KAFKA_LIBS (the jar dir, for tools such as kafka-topics),
# DURASIM_KAFKA_VERSION and DURASIM_KAFKA_PID (the broker JVM). KAFKA_VERSION
# picks the broker (default: the last of ci/kafka/versions). The broker is always stopped
# afterwards; the exit status is CMD's.
#
# Without java, mvn or kcat the broker tests are skipped (exit 0) on a
# developer machine, but fail in CI (CI=true), where skipping would hide that
# nothing was tested.
set -euo pipefail

if (($# == 0)); then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ci/kafka/version.sh
source "$here/version.sh"

missing=()
for tool in java mvn kcat; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]} > 0)); then
  if [[ ${CI:-} == true ]]; then
    echo "kafka broker tests failed: ${missing[*]} not installed (CI=true)" >&2
    exit 1
  fi
  echo "kafka broker tests skipped: ${missing[*]} not installed"
  exit 0
fi

state=$(mktemp -d "${TMPDIR:-/tmp}/durasim-kafka-state.XXXXXX")
# shellcheck disable=SC2317  # only called through the EXIT trap
cleanup() {
  bash "$here/stop-broker.sh" "$state/bootstrap" || true
  rm -rf "$state"
}
trap cleanup EXIT
# Make Ctrl-C and a CI cancel (SIGTERM) exit through the EXIT trap too.
trap 'exit 130' INT
trap 'exit 143' TERM

bash "$here/start-broker.sh" "$state/bootstrap"
DURASIM_KAFKA_BOOTSTRAP=$(cat "$state/bootstrap")
DURASIM_KAFKA_LIBS=$KAFKA_LIBS
DURASIM_KAFKA_VERSION=$KAFKA_VERSION
DURASIM_KAFKA_PID=$(cat "$(cat "$state/bootstrap.workdir")/broker.pid")
export DURASIM_KAFKA_BOOTSTRAP DURASIM_KAFKA_LIBS DURASIM_KAFKA_VERSION DURASIM_KAFKA_PID

status=0
"$@" || status=$?
if ((status != 0)); then
  # The broker log is deleted with its temp dir, so show its end now.
  echo "with-broker: '$*' exited with $status on Kafka $KAFKA_VERSION; last lines of the broker log:" >&2
  tail -n 40 "$(cat "$state/bootstrap.workdir")/broker.log" >&2 || true
fi
exit "$status"
