"""Connection floods against a release server, three phases:
A. 10,000 idle keep-alive connections (each made one request) held open while a normal client
   keeps requesting; the server's RSS with them.
B. The server's descriptor limit set low (256) and more clients than that: accept backs off on
   EMFILE (logged), the process does not spin (CPU time measured) or crash, and serves again
   once the clients close.
C. limits.maxConnections 100: clients beyond it are answered 503."""

import argparse
import selectors
import socket
import threading
import time

import common

parser = argparse.ArgumentParser()
parser.add_argument("--idle", type=int, default=10000)
parser.add_argument("--low-nofile", type=int, default=256)
parser.add_argument("--max-connections", type=int, default=100)
args = parser.parse_args()
common.raise_nofile(args.idle + 4096)
REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
results = {}


class NormalClient(threading.Thread):
    def __init__(self, port):
        super().__init__()
        self.port, self.latencies, self.failures = port, [], []
        self.stop_event = threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            started = time.monotonic()
            try:
                status, _, body = common.get(self.port, "/world/1/1/0.png", timeout=5)
                if status != 200 or not body:
                    self.failures.append(f"status {status}")
            except OSError as error:
                self.failures.append(repr(error))
            self.latencies.append(time.monotonic() - started)
            time.sleep(max(0, 0.1 - (time.monotonic() - started)))

    def stop(self):
        self.stop_event.set()
        self.join()

    def summary(self):
        lat = self.latencies
        return (f"{len(lat)} requests, {len(self.failures)} failures, p50 {common.percentile(lat, 50) * 1000:.1f} ms, "
                f"p99 {common.percentile(lat, 99) * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms")


def read_answers(socks, timeout):
    """Reads until every socket has a complete head (and body by Content-Length); returns answers."""
    answers = {s: b"" for s in socks}
    pending = set(socks)
    selector = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while pending and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            s = key.fileobj
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            answers[s] += data
            head, sep, body = answers[s].partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not data or (sep and len(body) >= length):
                pending.discard(s)
                selector.unregister(s)
    selector.close()
    return answers


def open_with_request(port, count, batch=250):
    """Opens `count` connections, each sends one request and reads its answer; returns them."""
    held, bad = [], 0
    for start in range(0, count, batch):
        socks = [socket.create_connection((common.HOST, port), timeout=10) for _ in range(min(batch, count - start))]
        for s in socks:
            s.sendall(REQUEST)
        answers = read_answers(socks, timeout=30)
        bad += sum(1 for a in answers.values() if not a.startswith(b"HTTP/1.1 200"))
        held.extend(socks)
    return held, bad


# --- A: 10,000 idle keep-alive connections
config = common.write_config("flood-idle", idle_seconds=600, max_connections=args.idle + 1000)
server = common.Server("flood-idle", config, nofile=args.idle + 4096)
rss_start = server.rss_kb()
normal = NormalClient(server.port)
normal.start()
started = time.monotonic()
held, bad = open_with_request(server.port, args.idle)
open_seconds = time.monotonic() - started
time.sleep(3)
rss_held = server.rss_kb()
fds_held = server.open_fds()
time.sleep(3)
normal.stop()
for s in held:
    s.close()
time.sleep(3)
after = common.get(server.port, "/healthz")[0]
rss_after = server.rss_kb()
alive = server.alive()
server.stop()
print(f"== A. {args.idle} idle keep-alive connections (each made one request)")
print(f"opened in {open_seconds:.1f} s; first answers not 200: {bad}; server descriptors with them: {fds_held}")
print(f"server RSS: {rss_start / 1024:.1f} MiB before, {rss_held / 1024:.1f} MiB with {len(held)} connections "
      f"({(rss_held - rss_start) / max(1, len(held)):.2f} KiB each), {rss_after / 1024:.1f} MiB after they closed")
print(f"normal client meanwhile: {normal.summary()}")
print(f"after: /healthz {after}; server alive: {alive}")
results["A"] = alive and bad == 0 and not normal.failures and after == 200

# --- B: EMFILE back-off with a low descriptor limit
config = common.write_config("flood-emfile", idle_seconds=120)
server = common.Server("flood-emfile", config, nofile=args.low_nofile)
clients = []
for _ in range(args.low_nofile + 150):
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex((common.HOST, server.port))
    clients.append(s)
time.sleep(2)
cpu_before, wall_before = server.cpu_seconds(), time.monotonic()
time.sleep(5)
cpu_used = server.cpu_seconds() - cpu_before
wall = time.monotonic() - wall_before
fds_full = server.open_fds()
try:
    during = common.get(server.port, "/healthz", timeout=1)[0]
except OSError as error:
    during = type(error).__name__
for s in clients:
    s.close()
close_time = time.monotonic()
recovered = None
while time.monotonic() - close_time < 15:
    try:
        if common.get(server.port, "/healthz", timeout=1)[0] == 200:
            recovered = time.monotonic() - close_time
            break
    except OSError:
        time.sleep(0.1)
log = server.log_text()
backoffs = log.count("out of file descriptors")
alive = server.alive()
server.stop()
print(f"== B. server RLIMIT_NOFILE {args.low_nofile}, {len(clients)} clients connect and hold")
print(f"server descriptors in use: {fds_full}; back-off log lines: {backoffs}; "
      f"CPU over {wall:.1f} s at the limit: {cpu_used:.2f} s ({100 * cpu_used / wall:.1f} % of a core)")
print(f"a request while out of descriptors: {during}")
print(f"after the clients closed: served again after {recovered if recovered is None else f'{recovered:.2f} s'}; "
      f"server alive: {alive}")
results["B"] = alive and backoffs > 0 and cpu_used / wall < 0.2 and recovered is not None

# --- C: the connection limit
config = common.write_config("flood-limit", max_connections=args.max_connections)
server = common.Server("flood-limit", config)
held, bad = open_with_request(server.port, args.max_connections, batch=args.max_connections)
extra = [socket.create_connection((common.HOST, server.port), timeout=10) for _ in range(20)]
for s in extra:
    try:
        s.sendall(REQUEST)
    except OSError:
        pass
answers = read_answers(extra, timeout=10)
got503 = sum(1 for a in answers.values() if a.startswith(b"HTTP/1.1 503"))
for s in held + extra:
    s.close()
time.sleep(1)
after = common.get(server.port, "/healthz")[0]
limit_logs = server.log_text().count("connection limit reached")
alive = server.alive()
server.stop()
print(f"== C. limits.maxConnections {args.max_connections}: {len(held)} held ({bad} first answers not 200), "
      f"20 more clients")
print(f"answered 503: {got503} / 20; limit log lines: {limit_logs}; after closing: /healthz {after}; alive: {alive}")
results["C"] = alive and bad == 0 and got503 == 20 and after == 200

print("RESULT:", " ".join(f"{k}={'PASS' if v else 'FAIL'}" for k, v in results.items()))
raise SystemExit(0 if all(results.values()) else 1)
