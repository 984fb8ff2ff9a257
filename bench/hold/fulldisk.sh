#!/bin/bash
# A full disk under forge serve --data, on a 2 MiB tmpfs: at $MNT if set
# (mkdir -p /tmp/fdisk && mount -t tmpfs -o size=2m tmpfs /tmp/fdisk), else
# one this script mounts and unmounts (root only).
#   FORGE=./forge bash bench/hold/fulldisk.sh
# Writes until the disk refuses one, then checks that what is listed, and
# what a restart loads, is exactly what was acknowledged; exits 1 if not
# (.ci/run runs it).
set -u
if [ -z "${MNT:-}" ]; then
  MNT=$(mktemp -d)
  mount -t tmpfs -o size=2m tmpfs "$MNT" || { echo "cannot mount a tmpfs here (root needed)"; exit 1; }
  trap 'umount "$MNT"; rm -rf "$MNT" "$MNT".*' EXIT
fi
# up waits for the server to answer (up to a minute on a busy machine, as
# .ci/run waits), or says that it did not start and exits 1.
up() {
  for _ in $(seq 600); do
    curl -s $B/me >/dev/null 2>&1 && return
    kill -0 $P 2>/dev/null || break
    sleep 0.1
  done
  echo "FAILED: forge serve did not start:"; cat $MNT.serve.err; kill $P 2>/dev/null; wait $P; exit 1
}
D=$MNT/data; rm -rf "$MNT"/data "$MNT"/filler; B=http://127.0.0.1:${PORT:-18931}/api/v2
${FORGE:-forge} serve --data $D --addr 127.0.0.1:${PORT:-18931} --admin-password admin-password-1234 >/dev/null 2>$MNT.serve.err & P=$!
up
T=$(curl -s -X POST $B/auth/login -d '{"username":"admin","password":"admin-password-1234"}' | sed -n 's/.*"token": *"\([^"]*\)".*/\1/p')
H="Authorization: token $T"
curl -s -H "$H" -X POST $B/repos -d '{"name":"app","auto_init":true}' -o /dev/null -w 'create repo: %{http_code}\n'
curl -s -H "$H" -X POST $B/repos/admin/app/issues -d '{"title":"First"}' -o /dev/null -w 'issue 1: %{http_code}\n'
dd if=/dev/zero of=$MNT/filler bs=4k 2>/dev/null; df -h $MNT | tail -1
n=1; while :; do c=$(curl -s -H "$H" -X POST $B/repos/admin/app/issues -d '{"title":"More"}' -o $MNT.last.json -w '%{http_code}'); [ "$c" = 201 ] || break; n=$((n+1)); done
echo "issues acknowledged: $n; then $c: $(tr -d '\n' <$MNT.last.json)"
curl -s -H "$H" -X POST $B/repos/admin/app/issues/1/comments -d '{"body":"c"}' -w ' <- comment: %{http_code}' | tr -d '\n'; echo
curl -s -H "$H" -X POST $B/repos -d '{"name":"other"}' -w ' <- repo: %{http_code}' | tr -d '\n'; echo
full=$(curl -s -H "$H" "$B/repos/admin/app/issues?state=all" | grep -c '"title"'); echo "issues listed while full: $full"
rm $MNT/filler
kill -INT $P; wait $P
${FORGE:-forge} serve --data $D --addr 127.0.0.1:${PORT:-18931} --admin-password admin-password-1234 >/dev/null 2>>$MNT.serve.err & P=$!
up
after=$(curl -s -H "$H" "$B/repos/admin/app/issues?state=all" | grep -c '"title"'); echo "issues after restart: $after"
comments=$(curl -s -H "$H" "$B/repos/admin/app/issues/1/comments" | grep -c '"body"'); echo "comments after restart: $comments"
repos=$(curl -s -H "$H" "$B/repos" | grep -c '"full_name"'); echo "repos after restart: $repos"
kill -INT $P; wait $P
if [ "$c" = 507 ] && [ "$full" = "$n" ] && [ "$after" = "$n" ] && [ "$comments" = 0 ] && [ "$repos" = 1 ]; then
  echo "ok: exactly what was acknowledged"
else
  echo "FAILED: what is kept differs from what was acknowledged"; exit 1
fi
