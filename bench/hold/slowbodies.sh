#!/bin/bash
# Slow bodies: N connections from 127.0.0.1 each promise a 1 MB login body
# and send one byte, under a 1024 open-files limit; meanwhile a login from
# 127.0.0.2 is timed. Usage: FORGE=./forge N=2000 bash bench/hold/slowbodies.sh
set -u
F=${FORGE:-forge}; N=${N:-2000}; PORT=${PORT:-18961}; D=$(mktemp -d)
B=http://127.0.0.1:$PORT/api/v2
(ulimit -n 1024; exec $F serve --memory --addr 127.0.0.1:$PORT --admin-password admin-password-1234 >/dev/null 2>$D/err) & P=$!
for i in $(seq 100); do curl -s $B/me >/dev/null 2>&1 && break; sleep 0.1; done
python3 - "$PORT" "$N" <<'PY' &
import socket, sys, time, resource
resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
port, n = int(sys.argv[1]), int(sys.argv[2])
head = b"POST /api/v2/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"
conns, refused, failed = [], 0, 0
for i in range(n):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5); s.sendall(head); conns.append(s)
    except OSError:
        failed += 1
time.sleep(1)
for s in conns:
    s.setblocking(False)
    try:
        if s.recv(64).startswith(b"HTTP/1.1 503"): refused += 1
    except OSError:
        pass
print("slow connections: %d opened, %d answered 503 at once, %d failed to connect" % (len(conns), refused, failed), flush=True)
time.sleep(20)
PY
S=$!; sleep 4
for i in 1 2 3; do
  curl -s -m 30 --interface 127.0.0.2 -X POST $B/auth/login -d '{"username":"admin","password":"admin-password-1234"}' -o /dev/null -w "login from 127.0.0.2: %{http_code} in %{time_total} s\n"
done
echo "server open files: $(ls /proc/$P/fd | wc -l); 'too many open files' in its log: $(grep -c 'too many open files' $D/err)"
kill $S; kill -INT $P; wait $P; rm -rf $D
