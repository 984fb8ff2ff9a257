#!/bin/bash
# Peak RSS of forge serve --data reading a 300 MB file of zeros (a pack of
# about 300 KB, pushed with git): inline, then three raw downloads at once.
# Usage: bench/hold/bigfile.sh ./forge PORT
set -u
F=$1; PORT=$2; D=$(mktemp -d); W=$(mktemp -d)
B=http://127.0.0.1:$PORT/api/v2
start() { $F serve --data $D/data --addr 127.0.0.1:$PORT --admin-password admin-password-1234 >/dev/null 2>&1 & P=$!; for i in $(seq 100); do curl -s $B/me >/dev/null 2>&1 && break; sleep 0.1; done; }
hwm() { grep VmHWM /proc/$P/status | awk '{print $2/1024 " MiB"}'; }
C=""; start
T=$(curl -s -X POST $B/auth/login -d '{"username":"admin","password":"admin-password-1234"}' | sed -n 's/.*"token": *"\([^"]*\)".*/\1/p')
H="Authorization: token $T"
curl -s -H "$H" -X POST $B/repos -d '{"name":"big"}' >/dev/null
cd $W && git init -q -b main && truncate -s 300M zeros.bin && git add . && git -c user.name=a -c user.email=a@x commit -qm zeros && git push -q http://x:$T@127.0.0.1:$PORT/admin/big.git main 2>&1 | tail -2
kill -INT $P; wait $P; start
echo "after start: $(hwm)"
curl -s -H "$H" $B/repos/admin/big/contents/zeros.bin -o /tmp/inline.out -w "inline: %{http_code} %{size_download} bytes; "; echo "peak $(hwm)"
for i in 1 2 3; do curl -s -H "$H" "$B/repos/admin/big/raw/zeros.bin" -o /dev/null -w "raw: %{http_code} %{size_download} bytes\n" & C="$C $!"; done; wait $C
echo "after 3 concurrent raw reads: peak $(hwm)"
kill -INT $P; wait $P; rm -rf $D $W
