#!/usr/bin/env bash
# (Re)start an empty in-memory reference server for the registry
# benchmarks (bench/README.md), on $BENCH_ADDR (default 127.0.0.1:28417),
# and wait until it answers. The previous one, if any, is stopped by the
# PID this script wrote.
set -euo pipefail
addr=${BENCH_ADDR:-127.0.0.1:28417}
dir=${BENCH_DIR:-/tmp/forge-bench}
forge=${FORGE:-$dir/forge}
mkdir -p "$dir"
if [ -f "$dir/serve.pid" ]; then
  kill "$(cat "$dir/serve.pid")" 2>/dev/null || true
  while kill -0 "$(cat "$dir/serve.pid")" 2>/dev/null; do sleep 0.01; done
fi
"$forge" serve --memory --addr "$addr" --admin-password bench-password-1234 ${BENCH_SERVE_FLAGS:-} >"$dir/serve.out" 2>"$dir/serve.err" &
echo $! >"$dir/serve.pid"
# serve prints its settings once it listens.
until grep -q FORGE_REGISTRY_URL "$dir/serve.out" 2>/dev/null; do
  kill -0 "$(cat "$dir/serve.pid")" 2>/dev/null || { cat "$dir/serve.err" >&2; exit 1; }
  sleep 0.01
done
