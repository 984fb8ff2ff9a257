#!/bin/bash
# A push and a read of a repository while a clone of it stalls (asks for a
# 32 MB pack, reads the status line, then nothing). Usage:
# bench/hold/stalled.sh ./forge PORT
set -u
F=$1; PORT=$2; D=$(mktemp -d); W=$(mktemp -d)
B=http://127.0.0.1:$PORT/api/v2
$F serve --data $D/data --addr 127.0.0.1:$PORT --admin-password admin-password-1234 >/dev/null 2>&1 & P=$!
for i in $(seq 100); do curl -s $B/me >/dev/null 2>&1 && break; sleep 0.1; done
T=$(curl -s -X POST $B/auth/login -d '{"username":"admin","password":"admin-password-1234"}' | sed -n 's/.*"token": *"\([^"]*\)".*/\1/p')
H="Authorization: token $T"; U=http://x:$T@127.0.0.1:$PORT/admin/big.git
curl -s -H "$H" -X POST $B/repos -d '{"name":"big"}' >/dev/null
cd $W && git init -q -b main && head -c 32M /dev/urandom > big.bin && git add . && git -c user.name=a -c user.email=a@x commit -qm big && git -c http.postBuffer=100M push -q $U main
HEAD=$(git rev-parse HEAD)
# The stalled clone: asks for the pack, reads the status line, then nothing.
python3 - "$PORT" "$T" "$HEAD" <<'PY' &
import socket, sys, base64, time
port, tok, head = sys.argv[1], sys.argv[2], sys.argv[3]
def pkt(s): return "%04x%s" % (len(s) + 4, s)
body = pkt("want " + head + "\n") + "0000" + pkt("done\n")
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096); s.connect(("127.0.0.1", int(port)))
auth = base64.b64encode(("x:" + tok).encode()).decode()
s.sendall(("POST /admin/big.git/git-upload-pack HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nContent-Type: application/x-git-upload-pack-request\r\nContent-Length: %d\r\n\r\n%s" % (auth, len(body), body)).encode())
print("stalled clone got:", s.recv(20).decode().split("\r\n")[0], flush=True)
time.sleep(60)
PY
S=$!; sleep 2
echo second > b.txt && git add b.txt && git -c user.name=a -c user.email=a@x commit -qm second
start=$(date +%s.%N); timeout 30 git push -q $U main; rc=$?; end=$(date +%s.%N)
echo "push while the clone stalls: exit $rc after $(echo "$end - $start" | bc) s"
curl -s -m 30 -H "$H" $B/repos/admin/big/commits -o /dev/null -w "commits read: %{http_code} after %{time_total} s\n"
kill $S; kill -INT $P; wait $P; rm -rf $D $W
