#!/usr/bin/env bash
# pull.sh [RUNS]: `forge image pull` against `crane pull`, side by side in
# one hyperfine run per image, to a tarball and to an OCI layout, for the
# 192 MiB (3 × 64 MiB) and 1 GiB (8 × 128 MiB) images of run.sh. The output
# is removed before each run. Uses run.sh's settings.
set -euo pipefail
cd "$(dirname "$0")/../.."
export BENCH_DIR=${BENCH_DIR:-/tmp/forge-bench}
export BENCH_ADDR=${BENCH_ADDR:-127.0.0.1:28417}
export FORGE=${FORGE:-$BENCH_DIR/forge}
mkdir -p "$BENCH_DIR"
[ -x "$FORGE" ] || go build -o "$FORGE" ./cmd/forge
[ -f "$BENCH_DIR/push.tar" ] || go run ./bench/registry/mkimage -layers 3 -size $((64 << 20)) -o "$BENCH_DIR/push.tar"
[ -f "$BENCH_DIR/big.tar" ] || go run ./bench/registry/mkimage -layers 8 -size $((128 << 20)) -o "$BENCH_DIR/big.tar"
export FORGE_CONFIG_DIR=$BENCH_DIR/config XDG_CACHE_HOME=$BENCH_DIR/cache
export FORGE_REGISTRY_URL=http://$BENCH_ADDR FORGE_USERNAME=admin FORGE_PASSWORD=bench-password-1234
export DOCKER_CONFIG=$BENCH_DIR/docker
mkdir -p "$DOCKER_CONFIG"
printf '{"auths": {"%s": {"auth": "%s"}}}\n' "$BENCH_ADDR" "$(printf admin:bench-password-1234 | base64)" >"$DOCKER_CONFIG/config.json"
crane=$(command -v crane || echo "$(go env GOPATH)/bin/crane")
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
kill "$(cat "$BENCH_DIR/serve.pid")" 2>/dev/null || true
