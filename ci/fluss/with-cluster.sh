#!/usr/bin/env bash
# with-cluster.sh CMD [ARGS...]
#
# Runs CMD with a fresh single-node Apache Fluss cluster and durasim's
# gateway on loopback (start-cluster.sh), and in its environment
# DURASIM_FLUSS_GATEWAY=127.0.0.1:PORT (what --backend fluss takes as
# --bootstrap-servers), DURASIM_FLUSS_BOOTSTRAP (the cluster's own
# coordinator address), DURASIM_FLUSS_VERSION and DURASIM_FLUSS_TABLET_PID
# (the tablet server's JVM). The cluster is always stopped afterwards; the
# exit status is CMD's.
#
# Without java, javac or mvn the Fluss tests are skipped (exit 0) on a
# developer machine, but fail in CI (CI=true), where skipping would hide that
# nothing was tested.
set -euo pipefail

if (($# == 0)); then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ci/fluss/version.sh
source "$here/version.sh"

missing=()
for tool in java javac mvn; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]} > 0)); then
  if [[ ${CI:-} == true ]]; then
    echo "fluss cluster tests failed: ${missing[*]} not installed (CI=true)" >&2
    exit 1
  fi
  echo "fluss cluster tests skipped: ${missing[*]} not installed"
  exit 0
fi

state=$(mktemp -d "${TMPDIR:-/tmp}/durasim-fluss-state.XXXXXX")
# shellcheck disable=SC2317  # only called through the EXIT trap
cleanup() {
  bash "$here/stop-cluster.sh" "$state/gateway" >/dev/null || true
  rm -rf "$state"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bash "$here/start-cluster.sh" "$state/gateway"
workdir=$(cat "$state/gateway.workdir")
DURASIM_FLUSS_GATEWAY=$(cat "$state/gateway")
DURASIM_FLUSS_BOOTSTRAP=$(cat "$state/gateway.bootstrap")
DURASIM_FLUSS_VERSION=$FLUSS_VERSION
DURASIM_FLUSS_TABLET_PID=$(cat "$workdir/tablet.pid")
export DURASIM_FLUSS_GATEWAY DURASIM_FLUSS_BOOTSTRAP DURASIM_FLUSS_VERSION DURASIM_FLUSS_TABLET_PID

status=0
"$@" || status=$?
if ((status != 0)); then
  # The logs are deleted with the temp dir, so show their ends now.
  for name in gateway tablet coordinator; do
    echo "with-cluster: '$*' exited with $status; last lines of the $name log:" >&2
    tail -n 25 "$workdir/$name.log" >&2 || true
  done
fi
exit "$status"
