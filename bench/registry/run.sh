#!/usr/bin/env bash
# The registry benchmarks of bench/README.md, by hand (they move gigabytes,
# so go test ./... never runs them). Needs hyperfine, crane and GNU time.
#   bench/registry/run.sh [push|repush|pull|all]
set -euo pipefail
cd "$(dirname "$0")/../.."
export FORGE=${BENCH_DIR:-/tmp/forge-bench}/forge
rm -f "$FORGE" # env.sh builds this tree's forge
source bench/registry/env.sh
bench_images
export FORGE_REGISTRY_URL=http://$BENCH_ADDR

what=${1:-all}
if [ "$what" = push ] || [ "$what" = all ]; then
  # Each run pushes into a fresh, empty server, with forge's digest cache
  # emptied: both tools hash and upload all 192 MiB every time.
  hyperfine --prepare "bench/registry/serve.sh && rm -rf $XDG_CACHE_HOME" -r "${RUNS:-10}" \
    "$FORGE image push $BENCH_DIR/push.tar bench:1" \
    "$crane push $BENCH_DIR/push.tar $BENCH_ADDR/admin/bench:1"
fi
if [ "$what" = repush ] || [ "$what" = all ]; then
  bench/registry/serve.sh
  "$FORGE" image push "$BENCH_DIR/push.tar" bench:1 >/dev/null 2>&1
  echo "blob uploads in a re-push (PATCH/PUT of /blobs/): $("$FORGE" --debug image push "$BENCH_DIR/push.tar" bench:1 2>&1 | grep -cE '^> (PATCH|PUT|POST) .*/blobs/' || true)"
  hyperfine -N --warmup 3 -r "${RUNS:-30}" \
    "$FORGE image push $BENCH_DIR/push.tar bench:1" \
    "$crane push $BENCH_DIR/push.tar $BENCH_ADDR/admin/bench:1"
fi
if [ "$what" = pull ] || [ "$what" = all ]; then
  bench/registry/serve.sh
  "$FORGE" image push "$BENCH_DIR/big.tar" big:1 >/dev/null 2>&1
  for format in tarball oci; do
    rm -rf "$BENCH_DIR/pulled"
    /usr/bin/time -f "forge pull --format $format: %e s, peak RSS %M KiB" "$FORGE" image pull big:1 "$BENCH_DIR/pulled" --format $format 2>&1 | tail -1
  done
  rm -rf "$BENCH_DIR/pulled"
  /usr/bin/time -f "crane pull: %e s, peak RSS %M KiB" "$crane" pull "$BENCH_ADDR/admin/big:1" "$BENCH_DIR/pulled" 2>&1 | tail -1
  rm -rf "$BENCH_DIR/pulled"
fi
kill "$(cat "$BENCH_DIR/serve.pid")" 2>/dev/null || true
