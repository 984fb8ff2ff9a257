#!/bin/bash
# Peak RSS and time of forge serve --data receiving a git push of a 300 MB
# file of zeros (a pack of about 300 KB, inflated to index it).
# Usage: bench/hold/bigpush.sh ./forge PORT
set -u
F=$1; PORT=$2; D=$(mktemp -d); W=$(mktemp -d)
B=http://127.0.0.1:$PORT/api/v2
$F serve --data $D/data --addr 127.0.0.1:$PORT --admin-password admin-password-1234 >/dev/null 2>&1 & P=$!
for i in $(seq 100); do curl -s $B/me >/dev/null 2>&1 && break; sleep 0.1; done
T=$(curl -s -X POST $B/auth/login -d '{"username":"admin","password":"admin-password-1234"}' | sed -n 's/.*"token": *"\([^"]*\)".*/\1/p')
curl -s -H "Authorization: token $T" -X POST $B/repos -d '{"name":"big"}' >/dev/null
echo "before push: $(grep VmHWM /proc/$P/status | awk '{print $2/1024 " MiB"}')"
cd $W && git init -q -b main && truncate -s 300M zeros.bin && git add . && git -c user.name=a -c user.email=a@x commit -qm zeros && /usr/bin/time -f "push %e s" git push -q http://x:$T@127.0.0.1:$PORT/admin/big.git main 2>&1 | tail -2
echo "after push: $(grep VmHWM /proc/$P/status | awk '{print $2/1024 " MiB"}')"
kill -INT $P; wait $P; rm -rf $D $W
