#!/usr/bin/env bash
# tags.sh: `forge image tags` against `crane ls` on a repository of 301
# tags (one small image; every tag names it), side by side in one run:
# on the reference registry (the service's own path: /api/tags gives the
# digests) and on Debian's docker-registry reached through
# FORGE_REGISTRY_URL (tags/list gives names only: one manifest request per
# tag for SIZE). forge's manifest-size cache is warm (the cost of every
# listing after the first); `cold` runs empty it first. `headfloor` is the
# least any client showing digests must ask of docker-registry: the
# tags/list and one bare HEAD per tag, 16 at a time. Uses run.sh's
# settings; needs hyperfine, crane and docker-registry.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/registry/env.sh
DIST_ADDR=${DIST_ADDR:-127.0.0.1:28418}
go build -o "$BENCH_DIR/headfloor" ./bench/registry/headfloor
[ -f "$BENCH_DIR/small.tar" ] || go run ./bench/registry/mkimage -layers 2 -size 4096 -o "$BENCH_DIR/small.tar" >/dev/null

bench/registry/serve.sh
dist=$BENCH_DIR/dist
rm -rf "$dist" && mkdir -p "$dist"
printf 'version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: %s\nhttp:\n  addr: %s\n' "$dist/data" "$DIST_ADDR" >"$dist/config.yml"
docker-registry serve "$dist/config.yml" >"$dist/log" 2>&1 &
dist_pid=$!
trap 'kill $dist_pid 2>/dev/null || true' EXIT
until curl -sf "http://$DIST_ADDR/v2/" >/dev/null; do sleep 0.05; done

for reg in "$BENCH_ADDR" "$DIST_ADDR"; do
  "$crane" push --insecure "$BENCH_DIR/small.tar" "$reg/admin/tags:0" >/dev/null 2>&1
  for i in $(seq 1 300); do "$crane" tag --insecure "$reg/admin/tags:0" "$i" 2>/dev/null; done
done
# The service's own path is the profile's registry (forge asks its
# /api/tags, with digests); FORGE_REGISTRY_URL elsewhere names another one.
"$FORGE" profile add bench --force --base-url "http://$BENCH_ADDR" >/dev/null 2>&1
export FORGE_PROFILE=bench
echo "load before: $(uptime | sed 's/.*load/load/')"
"$FORGE" image tags tags >/dev/null # warm the cache
FORGE_REGISTRY_URL=http://$DIST_ADDR "$FORGE" image tags admin/tags >/dev/null
FORGE_REGISTRY_URL=http://$BENCH_ADDR "$FORGE" image tags admin/tags >/dev/null
hyperfine -N -w 3 -r "${RUNS:-30}" \
  -n "crane ls (own)" "$crane ls --insecure $BENCH_ADDR/admin/tags" \
  -n "forge image tags (own)" "$FORGE image tags tags" \
  -n "forge image tags --json name (own)" "$FORGE image tags tags --json name" \
  -n "forge image tags (reference registry as a foreign one)" "env FORGE_REGISTRY_URL=http://$BENCH_ADDR $FORGE image tags admin/tags" \
  -n "crane ls (docker-registry)" "$crane ls --insecure $DIST_ADDR/admin/tags" \
  -n "headfloor (docker-registry)" "$BENCH_DIR/headfloor http://$DIST_ADDR/v2/admin/tags" \
  -n "forge image tags (docker-registry)" "env FORGE_REGISTRY_URL=http://$DIST_ADDR $FORGE image tags admin/tags" \
  -n "forge image tags --json name (docker-registry)" "env FORGE_REGISTRY_URL=http://$DIST_ADDR $FORGE image tags admin/tags --json name"
hyperfine -w 1 -r "${RUNS:-30}" --prepare "rm -rf $XDG_CACHE_HOME/forge/manifest-sizes" \
  -n "forge image tags, cold cache (own)" "$FORGE image tags tags" \
  -n "forge image tags, cold cache (docker-registry)" "env FORGE_REGISTRY_URL=http://$DIST_ADDR $FORGE image tags admin/tags"
echo "load after: $(uptime | sed 's/.*load/load/')"
