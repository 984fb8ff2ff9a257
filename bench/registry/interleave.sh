#!/usr/bin/env bash
# interleave.sh [ROUNDS]: push the same tarball with forge and crane in
# turn (forge, crane, forge, crane, ...), each into a fresh empty server
# with forge's digest cache emptied, so a change of the machine's load
# falls on both alike (hyperfine runs all of one command, then all of the
# other). Prints each tool's median, mean and minimum wall time, and the
# load average before and after. Set FORGE2 to time a second forge binary
# (e.g. an older build) in the same rounds. Uses run.sh's settings.
set -euo pipefail
cd "$(dirname "$0")/../.."
export BENCH_DIR=${BENCH_DIR:-/tmp/forge-bench}
export BENCH_ADDR=${BENCH_ADDR:-127.0.0.1:28417}
export FORGE=${FORGE:-$BENCH_DIR/forge}
export FORGE_CONFIG_DIR=$BENCH_DIR/config XDG_CACHE_HOME=$BENCH_DIR/cache
export FORGE_REGISTRY_URL=http://$BENCH_ADDR FORGE_USERNAME=admin FORGE_PASSWORD=bench-password-1234
export DOCKER_CONFIG=$BENCH_DIR/docker
mkdir -p "$DOCKER_CONFIG"
printf '{"auths": {"%s": {"auth": "%s"}}}\n' "$BENCH_ADDR" "$(printf admin:bench-password-1234 | base64)" >"$DOCKER_CONFIG/config.json"
crane=$(command -v crane || echo "$(go env GOPATH)/bin/crane")
[ -f "$BENCH_DIR/push.tar" ] || go run ./bench/registry/mkimage -layers 3 -size $((64 << 20)) -o "$BENCH_DIR/push.tar"

declare -A cmds=(
  [forge]="$FORGE image push $BENCH_DIR/push.tar bench:1"
  [crane]="$crane push $BENCH_DIR/push.tar $BENCH_ADDR/admin/bench:1"
)
order=(forge crane)
if [ -n "${FORGE2:-}" ]; then
  cmds[forge2]="$FORGE2 image push $BENCH_DIR/push.tar bench:1"
  order+=(forge2)
fi
out=$(mktemp)
echo "before: $(uptime | sed 's/.*load/load/')"
for ((i = 0; i < ${1:-20}; i++)); do
  for t in "${order[@]}"; do
    bench/registry/serve.sh
    rm -rf "$XDG_CACHE_HOME"
    s=$(date +%s%N)
    if ${cmds[$t]} >/dev/null 2>"$BENCH_DIR/last.err"; then
      echo "$t $((($(date +%s%N) - s) / 1000000))" >>"$out"
    else
      echo "$t failed (not counted): $(tail -1 "$BENCH_DIR/last.err")" >&2
    fi
  done
done
echo "after:  $(uptime | sed 's/.*load/load/')"
for t in "${order[@]}"; do
  grep "^$t " "$out" | cut -d' ' -f2 | sort -n | awk -v t="$t" \
    '{a[NR]=$1; s+=$1} END {printf "%-7s median %d ms  mean %d ms  min %d ms  (%d runs)\n", t, a[int((NR+1)/2)], s/NR, a[1], NR}'
done
rm -f "$out"
kill "$(cat "$BENCH_DIR/serve.pid")" 2>/dev/null || true
