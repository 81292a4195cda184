#!/bin/sh
# approx-tune's held-out evaluation command for the kernel benchmarks when the
# frontier is to be measured as it deploys (--holdout-eval):
#   evaluate-baked.sh APPROX_CC SOURCE CACHE APPROX_QOS REFDIR SIZE METRIC...
# Bakes the configuration in APPROX_CONFIG into SOURCE with
# `APPROX_CC -O3 --approx-config=` (once per configuration: the executable is
# kept in CACHE under the hash of the configuration file, written to a
# temporary name and renamed when complete), then runs evaluate.sh on it: the
# time and QoS are those of the build that would be deployed, not of the
# runtime-table build the search measures.
cc=$1 src=$2 cache=$3
shift 3
if [ -z "$APPROX_CONFIG" ] || [ ! -r "$APPROX_CONFIG" ]; then
  echo "evaluate-baked.sh: APPROX_CONFIG does not name a readable file" >&2
  exit 2
fi
mkdir -p "$cache" || exit 1
key=$(sha256sum <"$APPROX_CONFIG" | cut -c1-24) || exit 1
exe="$cache/baked-$key"
if [ ! -x "$exe" ]; then
  tmp=$(mktemp "$cache/.baked-XXXXXX") || exit 1
  if ! "$cc" -O3 --approx-config="$APPROX_CONFIG" "$src" -o "$tmp" >&2; then
    rm -f "$tmp"
    exit 1
  fi
  mv -f "$tmp" "$exe" || exit 1
fi
qos_tool=$1 refdir=$2 size=$3
shift 3
exec "$(dirname "$0")/evaluate.sh" "$qos_tool" "$refdir" "$exe" "$size" "$@"
