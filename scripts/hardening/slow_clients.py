"""Slow clients: N connections each send one header byte per second (a slowloris) while a normal
client makes a request every 100 ms on a fresh connection. The normal answers must stay fast and
the slow connections must be answered 408 and closed at the header timeout."""

import argparse
import selectors
import socket
import threading
import time

import common

parser = argparse.ArgumentParser()
parser.add_argument("--slow", type=int, default=500)
parser.add_argument("--header-seconds", type=float, default=10)
parser.add_argument("--duration", type=float, default=16, help="seconds of the test after the slow clients connect")
args = parser.parse_args()

common.raise_nofile()
config = common.write_config("slow-clients", header_seconds=args.header_seconds)
server = common.Server("slow-clients", config, nofile=65536 if args.slow > 900 else 4096)
REQUEST = b"GET /world/0/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slowloris\r\n\r\n"

latencies, failures = [], []
stop = threading.Event()


def normal_client():
    while not stop.is_set():
        started = time.monotonic()
        try:
            status, _, body = common.get(server.port, "/world/1/0/1.png", timeout=5)
            if status != 200 or not body:
                failures.append(f"status {status}")
        except OSError as error:
            failures.append(repr(error))
        latencies.append(time.monotonic() - started)
        time.sleep(max(0, 0.1 - (time.monotonic() - started)))


class Slow:
    def __init__(self):
        self.sock = socket.create_connection((common.HOST, server.port))
        self.sock.setblocking(False)
        self.sent = 0
        self.first_byte = None
        self.answer = b""
        self.closed_at = None


slow = []
connect_started = time.monotonic()
for _ in range(args.slow):
    slow.append(Slow())
connect_seconds = time.monotonic() - connect_started
thread = threading.Thread(target=normal_client)
thread.start()

selector = selectors.DefaultSelector()
for connection in slow:
    selector.register(connection.sock, selectors.EVENT_READ, connection)
test_started = time.monotonic()
next_tick = test_started
while time.monotonic() - test_started < args.duration:
    now = time.monotonic()
    if now >= next_tick:
        # One byte a second on every slow connection that is still open (never the full header).
        for connection in slow:
            if connection.closed_at is None and connection.sent < len(REQUEST) - 4:
                try:
                    connection.sock.send(REQUEST[connection.sent:connection.sent + 1])
                    connection.sent += 1
                    connection.first_byte = connection.first_byte or now
                except OSError:
                    pass
        next_tick += 1
    for key, _ in selector.select(timeout=max(0, min(0.05, next_tick - time.monotonic()))):
        connection = key.data
        try:
            data = connection.sock.recv(4096)
        except OSError:
            data = b""
        if data:
            connection.answer += data
        else:
            connection.closed_at = time.monotonic()
            selector.unregister(connection.sock)
stop.set()
thread.join()

got408 = [c for c in slow if c.answer.startswith(b"HTTP/1.1 408")]
closed_without = [c for c in slow if c.closed_at and not c.answer.startswith(b"HTTP/1.1 408")]
still_open = [c for c in slow if c.closed_at is None]
waits = [c.closed_at - c.first_byte for c in got408 if c.closed_at]
rss = server.rss_kb()
alive = server.alive()
for connection in slow:
    connection.sock.close()
server.stop()

print(f"== slow clients: {args.slow} connections, 1 header byte/s, headerSeconds {args.header_seconds}")
print(f"connect time for the slow clients: {connect_seconds:.2f} s")
print(f"normal client: {len(latencies)} requests, {len(failures)} failures, "
      f"p50 {common.percentile(latencies, 50) * 1000:.1f} ms, p99 {common.percentile(latencies, 99) * 1000:.1f} ms, "
      f"max {max(latencies) * 1000:.1f} ms")
print(f"slow connections answered 408 and closed: {len(got408)} / {args.slow}; "
      f"closed without 408: {len(closed_without)}; still open at the end: {len(still_open)}")
if waits:
    print(f"first byte → 408 close: min {min(waits):.2f} s, max {max(waits):.2f} s")
print(f"server RSS at the end: {rss / 1024:.1f} MiB; server alive: {alive}")
ok = (alive and not failures and latencies and max(latencies) < 1.0 and len(got408) == args.slow)
print("RESULT:", "PASS" if ok else "FAIL")
raise SystemExit(0 if ok else 1)
