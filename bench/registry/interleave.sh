#!/usr/bin/env bash
# interleave.sh [ROUNDS]: push the same tarball with forge and crane in
# turn (forge, crane, forge, crane, ...), each into a fresh empty server
# with forge's digest cache emptied, so a change of the machine's load
# falls on both alike (hyperfine runs all of one command, then all of the
# other). Prints each tool's median, mean and minimum wall time, and the
# load average before and after. Set FORGE2 to time a second forge binary
# (e.g. an older build) in the same rounds. Settings: env.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/registry/env.sh
bench_images
export FORGE_REGISTRY_URL=http://$BENCH_ADDR

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
