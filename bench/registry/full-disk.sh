#!/usr/bin/env bash
# full-disk.sh [FORGE]: the registry on a full disk, for real. Mounts an
# 8 MiB tmpfs as the registry's directory of `forge serve --data` (root
# only), pushes alice/ok:1 and :2, fills the tmpfs, then tries what issue
# "nothing lost when storage fails" lists: `forge image copy ok:1 ok:3`
# and `forge image delete ok:2` must fail (5xx, no server path in the
# message) and change nothing, in memory (tags) and on disk (after a
# restart). Prints each step; exits 1 if anything changed.
set -uo pipefail
cd "$(dirname "$0")/../.."
FORGE=${1:-}
work=$(mktemp -d)
if [ -z "$FORGE" ]; then
  go build -o "$work/forge" ./cmd/forge || exit 1
  FORGE=$work/forge
fi
data=$work/data
mkdir -p "$data/registry"
mount -t tmpfs -o size=8m tmpfs "$data/registry" || { echo "cannot mount a tmpfs here (root needed)"; exit 1; }
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; umount "$data/registry"; rm -rf "$work"; }
trap cleanup EXIT
serve() {
  rm -f "$work/env"
  "$FORGE" serve --demo --data "$data" --addr 127.0.0.1:0 --env-file "$work/env" >"$work/serve.log" 2>&1 &
  pid=$!
  # The env file appears once it listens (up to a minute on a busy machine).
  for _ in $(seq 600); do
    grep -q '^FORGE_REGISTRY_URL=' "$work/env" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  export FORGE_REGISTRY_URL=$(sed -n 's/^FORGE_REGISTRY_URL=//p' "$work/env" 2>/dev/null)
  [ -n "$FORGE_REGISTRY_URL" ] || { cat "$work/serve.log"; echo "forge serve did not start"; exit 1; }
}
export FORGE_CONFIG_DIR=$work/config XDG_CACHE_HOME=$work/cache FORGE_USERNAME=alice FORGE_PASSWORD=forge-demo-password
serve
go run ./bench/registry/mkimage -layers 2 -size $((512 << 10)) -o "$work/ok.tar" >/dev/null 2>&1
"$FORGE" image push "$work/ok.tar" ok:1 >/dev/null 2>&1 && "$FORGE" image copy ok:1 ok:2 >/dev/null 2>&1 || { echo "setup failed"; exit 1; }
echo "before: tags $("$FORGE" image tags ok --json name --jq '[.[].name] | join(",")')"
dd if=/dev/zero of="$data/registry/fill" bs=64k 2>/dev/null
echo "tmpfs: $(df -h --output=avail "$data/registry" | tail -1 | tr -d ' ') free"
status=0
for cmd in "copy ok:1 ok:3" "delete ok:2 --yes"; do
  echo "\$ forge image $cmd"
  out=$("$FORGE" image $cmd 2>&1)
  echo "$out" | tail -1
  case $out in *"$work"*) echo "  (names a server path)"; status=1 ;; esac
done
tags=$("$FORGE" image tags ok --json name --jq '[.[].name] | join(",")')
echo "after the failures: tags $tags"
[ "$tags" = "1,2" ] || status=1
kill "$pid" 2>/dev/null || { echo "--- the server had ended:"; tail -20 "$work/serve.log"; }; wait "$pid" 2>/dev/null; pid=
serve
tags=$("$FORGE" image tags ok --json name --jq '[.[].name] | join(",")')
echo "after a restart: tags $tags"
[ "$tags" = "1,2" ] || status=1
[ $status = 0 ] && echo "ok: nothing changed" || echo "FAILED: the failed writes changed what the registry holds"
exit $status
