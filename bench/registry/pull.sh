#!/usr/bin/env bash
# pull.sh [RUNS]: `forge image pull` against `crane pull`, side by side in
# one hyperfine run per image, to a tarball and to an OCI layout, for the
# 192 MiB (3 × 64 MiB) and 1 GiB (8 × 128 MiB) images of run.sh. The output
# is removed before each run; KEEP_SERVER=1 leaves the server running
# afterwards. Settings: env.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/registry/env.sh
bench_images
export FORGE_REGISTRY_URL=http://$BENCH_ADDR
bench/registry/serve.sh
"$FORGE" image push "$BENCH_DIR/push.tar" small:1 >/dev/null 2>&1
"$FORGE" image push "$BENCH_DIR/big.tar" big:1 >/dev/null 2>&1
out=$BENCH_DIR/pulled
for img in small big; do
  runs=${1:-8}
  [ $img = big ] && runs=$(((runs + 1) / 2))
  echo "load before ($img): $(uptime | sed 's/.*load/load/')"
  hyperfine -r "$runs" --prepare "rm -rf $out" \
    -n "forge $img tarball" "$FORGE image pull $img:1 $out" \
    -n "crane $img tarball" "$crane pull $BENCH_ADDR/admin/$img:1 $out" \
    -n "forge $img oci" "$FORGE image pull $img:1 $out --format oci" \
    -n "crane $img oci" "$crane pull --format oci $BENCH_ADDR/admin/$img:1 $out"
done
rm -rf "$out"
echo "load after: $(uptime | sed 's/.*load/load/')"
[ -n "${KEEP_SERVER:-}" ] || kill "$(cat "$BENCH_DIR/serve.pid")" 2>/dev/null || true
