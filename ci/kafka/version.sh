# Sourced by start-broker.sh and with-broker.sh: the broker version to run and
# its jar cache.
#   KAFKA_VERSION  the broker version (default: the last line of ci/kafka/versions)
#   KAFKA_LIBS     its jar cache (default: <repo>/build/kafka-libs/<version>)
# Sets and exports both; a version that is not X.Y.Z is an error here, one the
# registry does not serve fails the jar fetch, naming the version.
kafka_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -z ${KAFKA_VERSION:-} ]]; then
  KAFKA_VERSION=$(grep -v '^#' "$kafka_here/versions" | grep . | tail -n 1)
fi
if [[ ! $KAFKA_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "KAFKA_VERSION='$KAFKA_VERSION' is not a version such as 4.0.2 (tested ones: ci/kafka/versions)" >&2
  exit 2
fi
KAFKA_LIBS=${KAFKA_LIBS:-$(cd "$kafka_here/../.." && pwd)/build/kafka-libs/$KAFKA_VERSION}
export KAFKA_VERSION KAFKA_LIBS
