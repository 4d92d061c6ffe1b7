#!/usr/bin/env python3
"""redis-seq-client.py PORT KEYFILE COUNT: one connection to Redis at 127.0.0.1:PORT, COUNT GETs
walking the keys in KEYFILE round robin, one at a time, as scripts/bench/seq-client.py walks
tile paths over HTTP (the same client work: send, read the whole value). Prints
"SEQ requests=N ok=N seconds=S rps=R p50_us=.. p99_us=.." (ok = a value came back)."""
import socket, sys, time
from seq_summary import print_summary

port, keyfile, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
keys = [l.strip().encode() for l in open(keyfile) if l.strip()]
s = socket.create_connection(("127.0.0.1", port), timeout=60)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buf = b""
lat, ok = [], 0
t0 = time.perf_counter()
for i in range(count):
    key = keys[i % len(keys)]
    t = time.perf_counter()
    s.sendall(b"*2\r\n$3\r\nGET\r\n$%d\r\n%s\r\n" % (len(key), key))
    while b"\r\n" not in buf:
        buf += s.recv(262144)
    line, _, buf = buf.partition(b"\r\n")
    length = int(line[1:]) if line.startswith(b"$") else -1
    if length >= 0:
        while len(buf) < length + 2:
            buf += s.recv(262144)
        buf = buf[length + 2:]
        ok += 1
    lat.append(time.perf_counter() - t)
print_summary(count, ok, time.perf_counter() - t0, lat)
