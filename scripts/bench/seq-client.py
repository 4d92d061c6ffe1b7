#!/usr/bin/env python3
"""seq-client.py PORT PATHFILE COUNT [START [WARMUP]]: one keep-alive connection to 127.0.0.1:PORT,
COUNT GET requests walking the paths in PATHFILE round robin from index START (0), one at a time.
Prints "SEQ requests=N ok=N seconds=S rps=R p50_us=.. p99_us=.." (ok = status 200). With WARMUP,
first sends WARMUP requests on the same connection (the server's loop, and what it remembers per
loop, stay the same), prints "PAUSE", and waits for a line on standard input before the COUNT.
With SEQ_HEADERS=browser in the environment, each request carries the header section a
browser sends with an image (Chromium: browser-headers.txt) instead of Host alone."""
import os, socket, sys, time
from seq_summary import print_summary

port, pathfile, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
warmup = int(sys.argv[5]) if len(sys.argv) > 5 else 0
paths = [l.strip() for l in open(pathfile) if l.startswith("/")]
# The fields Chromium sends with an image (after Host), one a line.
BROWSER = "".join(line.rstrip("\n") + "\r\n"
                  for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "browser-headers.txt")))
headers = os.environ.get("SEQ_HEADERS", "")
if headers not in ("", "browser"):
    sys.exit("seq-client: SEQ_HEADERS must be empty or browser")
extra = BROWSER if headers == "browser" else ""
s = socket.create_connection(("127.0.0.1", port), timeout=60)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buf = b""
lat = []
ok = 0
t0 = time.perf_counter()
for i in range(warmup + count):
    if warmup and i == warmup:
        print("PAUSE", flush=True)
        sys.stdin.readline()
        lat, ok, t0 = [], 0, time.perf_counter()
    p = paths[(start + i) % len(paths)]
    t = time.perf_counter()
    s.sendall(f"GET {p} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
    while True:
        h = buf.find(b"\r\n\r\n")
        if h >= 0:
            break
        d = s.recv(262144)
        if not d:
            sys.exit("connection closed")
        buf += d
    head = buf[:h].split(b"\r\n")
    length = 0
    for line in head[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v)
    while len(buf) < h + 4 + length:
        d = s.recv(262144)
        if not d:
            sys.exit("connection closed")
        buf += d
    buf = buf[h + 4 + length:]
    if head[0].startswith(b"HTTP/1.1 200"):
        ok += 1
    lat.append(time.perf_counter() - t)
print_summary(count, ok, time.perf_counter() - t0, lat)
