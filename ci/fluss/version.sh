# Sourced by start-cluster.sh and with-cluster.sh: the Fluss version to run
# and its jar cache.
#   FLUSS_VERSION  the cluster and client version (default: the one tested, below)
#   FLUSS_LIBS     its jar cache and compiled gateway (default: <repo>/build/fluss-libs/<version>)
fluss_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FLUSS_VERSION=${FLUSS_VERSION:-0.9.1-incubating}
FLUSS_LIBS=${FLUSS_LIBS:-$(cd "$fluss_here/../.." && pwd)/build/fluss-libs/$FLUSS_VERSION}
export FLUSS_VERSION FLUSS_LIBS
