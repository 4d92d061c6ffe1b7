"""Fault injection against a release tilelayer (issue 56), one fault after another:
A. a misbehaving upstream of ours (truncated under a consistent Content-Length, a
   close-delimited body cut off, noise after the PNG signature, a byte every 0.3 s, a reset);
   then healed, and the server restarted over the same disk tier;
B. libfiu on the worker paths (fiu-run -x, then fiu-ctrl): pread and read failing with EIO,
   open failing with EIO, ESTALE and EMFILE — SQLite's MBTiles reads, tile files read on the
   workers, disk-tier reads;
C. the descriptor limit lowered to 64 under 200 clients, three rounds;
D. the disk tier on a full filesystem (a 64 KiB tmpfs: ENOSPC), then on a read-only one (EROFS);
E. Redis killed under a layer that uses the shared tier, then started again.
Every answer is checked: a 200 carries exactly a source tile's bytes (where the source's
bytes are known: the world folder, the MBTiles file, the upstream's good tile), an existing
tile is never a 404, no error is long-cacheable (every 5xx says no-store), and after each fault
the server is alive and answers again. Prints PASS/FAIL lines; exit 1 on any FAIL."""

import http.client
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import common

common.raise_nofile(8192)
WORLD = os.path.join(common.TILES, "world")
MBTILES = os.path.join(common.TILES, "bluemarble.mbtiles")
GOOD = open(os.path.join(WORLD, "1", "1", "0.png"), "rb").read()
failures = []
checked = {"answers": 0}


def report(ok, what):
    print(("PASS  " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def world_tile(z, x, y):
    with open(os.path.join(WORLD, str(z), str(x), f"{y}.png"), "rb") as f:
        return f.read()


def mbtiles_tile(z, x, y):
    with sqlite3.connect(f"file:{MBTILES}?mode=ro", uri=True) as db:  # MBTiles 1.3: rows are TMS
        row = db.execute("select tile_data from tiles where zoom_level=? and tile_column=? and tile_row=?",
                         (z, x, (1 << z) - 1 - y)).fetchone()
    return bytes(row[0])


def violation(status, headers, body, expected):
    """What is wrong with an answer to a request for an existing tile whose bytes are `expected`
    (None: generated, unknown), or None."""
    caching = headers.get("cache-control", "")
    if status == 200:
        if expected is not None and body != expected:
            return f"200 with {len(body)} bytes that are not the source tile's {len(expected)}"
    elif status == 404:
        return "404 for a tile that exists"
    elif status >= 500 and caching != "no-store":
        return f"{status} with Cache-Control {caching!r}"
    elif status not in (200, 304) and "max-age" in caching and not caching.endswith("max-age=0"):
        return f"{status} long-cacheable ({caching!r})"
    return None


def fetch(port, path, expected, timeout=20, headers=None):
    """One request, checked; (status, headers, body, seconds); status None on a connection error."""
    started = time.monotonic()
    try:
        status, answer_headers, body = common.get(port, path, timeout=timeout, headers=headers)
    except OSError:
        return None, {}, b"", time.monotonic() - started
    checked["answers"] += 1
    problem = violation(status, answer_headers, body, expected)
    if problem:
        report(False, f"{path}: {problem}")
    return status, answer_headers, body, time.monotonic() - started


def alive_and_serving(server, what, seconds=10):
    """The server lives, and within `seconds` answers /healthz and a world tile right."""
    deadline = time.monotonic() + seconds
    ok = False
    while not ok and server.alive() and time.monotonic() < deadline:
        try:
            ok = common.get(server.port, "/healthz", timeout=5)[0] == 200
            ok = ok and common.get(server.port, "/world/1/1/0.png", timeout=5)[2] == GOOD
        except OSError:
            ok = False
        if not ok:
            time.sleep(0.2)
    report(ok and server.alive(), f"{what}: the server is alive and serves again")


def metric(port, name, **labels):
    _, _, body = common.get(port, "/metrics")
    total = 0.0
    for line in body.decode().splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            if all(f'{k}="{v}"' in line for k, v in labels.items()):
                total += float(line.rsplit(" ", 1)[1])
    return total


class Upstream(threading.Thread):
    """An upstream of ours, on raw sockets: the first path segment says how to misbehave."""

    def __init__(self):
        super().__init__(daemon=True)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((common.HOST, 0))
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        self.healed = False
        self.drips_open = 0
        self.lock = threading.Lock()

    def run(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(client,), daemon=True).start()

    @staticmethod
    def head(length=None):
        framing = f"Content-Length: {length}\r\n" if length is not None else ""
        return f"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n{framing}Connection: close\r\n\r\n".encode()

    def answer(self, client):
        try:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = client.recv(4096)
                if not chunk:
                    return
                data += chunk
            kind = data.split(b" ")[1].split(b"/")[1].decode()
            kind = "good" if self.healed else kind
            half = GOOD[: len(GOOD) // 2]
            if kind == "truncated":
                client.sendall(self.head(len(half)) + half)
            elif kind == "cut":
                client.sendall(self.head() + half)
            elif kind == "noise":
                noise = GOOD[:8] + os.urandom(len(GOOD) - 8)
                client.sendall(self.head(len(noise)) + noise)
            elif kind == "reset":
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            elif kind == "drip":
                with self.lock:
                    self.drips_open += 1
                try:
                    client.sendall(self.head(len(GOOD)))
                    for byte in GOOD:
                        time.sleep(0.3)
                        client.sendall(bytes([byte]))
                except OSError:
                    pass
                finally:
                    with self.lock:
                        self.drips_open -= 1
            else:
                client.sendall(self.head(len(GOOD)) + GOOD)
        except OSError:
            pass
        finally:
            client.close()


def start(name, layers, server_yaml="", nofile=None, wrapper=()):
    path = os.path.join(common.OUT, name, "tilelayer.yml")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"server:\n  host: 127.0.0.1\n  log: {{level: warning, access: false}}\n{server_yaml}layers:\n{layers}")
    return common.Server(name, path, nofile=nofile, wrapper=wrapper)


def upstream_faults(work):
    """A. A misbehaving upstream: damaged tiles 502, drip and reset 503, never kept.

    All no-store; healed, the good tile; restarted over the disk tier, the good tile."""
    upstream = Upstream()
    upstream.start()
    layers = f"""  - name: up
    source:
      type: url
      template: "http://127.0.0.1:{upstream.port}/{{kind}}/{{z}}/{{x}}/{{y}}.png"
      variables: {{kind: {{values: [good, truncated, cut, noise, drip, reset], default: good}}}}
      timeoutSeconds: 2
    maxZoom: 5
    cache: {{memory: true, disk: {work}/up-disk}}
  - name: world
    source: {{type: directory, path: {WORLD}}}
"""
    server = start("faults-upstream", layers)
    try:
        expected = {"truncated": 502, "cut": 502, "noise": 502, "reset": 503, "drip": 503}
        for kind, want in expected.items():
            status, headers, body, seconds = fetch(server.port, f"/up/2/1/1.png?kind={kind}", GOOD)
            report(status == want and headers.get("cache-control") == "no-store",
                   f"upstream {kind}: {status} {headers.get('cache-control')!r} in {seconds:.2f} s "
                   f"({body[:90].decode(errors='replace')!r})")
        deadline = time.monotonic() + 5
        while upstream.drips_open and time.monotonic() < deadline:
            time.sleep(0.1)
        report(upstream.drips_open == 0, "upstream drip: the abandoned fetch was cancelled (the upstream saw its client go)")
        again = [fetch(server.port, f"/up/2/1/1.png?kind={kind}", GOOD)[0] for kind in expected]
        report(again == [expected[kind] for kind in expected], f"asked again, the same answers (nothing kept): {again}")
        upstream.healed = True
        healed = [fetch(server.port, f"/up/2/1/1.png?kind={kind}", GOOD) for kind in expected]
        report(all(status == 200 and body == GOOD for status, _, body, _ in healed),
               "upstream healed: every tile is the good one")
        alive_and_serving(server, "upstream faults")
    finally:
        server.stop()
    upstream.healed = False
    server = start("faults-upstream", layers)
    try:
        restarted = [fetch(server.port, f"/up/2/1/1.png?kind={kind}", GOOD) for kind in expected]
        report(all(status == 200 and body == GOOD for status, _, body, _ in restarted),
               "restarted over the same disk tier, upstream damaged again: the good tile from disk")
    finally:
        server.stop()
        upstream.listener.close()


def libfiu_faults(work):
    """B. libfiu on the worker paths: EIO from read and pread, EIO/ESTALE/EMFILE from open."""
    # `files` reads its tiles on the workers (a layer with a disk tier goes through the pipeline:
    # the tier's file, else the tile file opened and read there); `world` on the event loops
    # (openat2 and preadv2, which libfiu does not wrap).
    layers = f"""  - name: world
    source: {{type: directory, path: {WORLD}}}
  - name: files
    source: {{type: directory, path: {WORLD}}}
    cache: {{memory: false, disk: {work}/fiu-files}}
  - name: marble
    source: {{type: mbtiles, path: {MBTILES}}}
    cache: {{memory: false}}
  - name: debug
    source: {{type: debug}}
    maxZoom: 22
    cache: {{memory: false, disk: {work}/fiu-disk}}
"""
    server = start("faults-libfiu", layers, wrapper=("fiu-run", "-x"))
    targets = [(f"/files/{z}/{x}/{y}.png", world_tile(z, x, y)) for z, x, y in [(1, 0, 0), (2, 3, 1), (3, 5, 6), (2, 1, 2)]]
    targets += [(f"/marble/{z}/{x}/{y}.png", mbtiles_tile(z, x, y)) for z, x, y in [(0, 0, 0), (1, 1, 0), (2, 2, 3)]]
    targets += [(f"/debug/{z}/{x}/7.png", None) for z, x in [(12, 5), (13, 9), (14, 11)]]
    try:
        for target, expected in targets:  # the disk tier holds the debug tiles, the page cache the files
            fetch(server.port, target, expected)
        # read first: the disk tier fails and turns itself off, so the tile files are read (pread).
        for point, errnos in [("posix/io/rw/read", [5]), ("posix/io/rw/pread", [5]), ("posix/io/oc/open", [5, 116, 24])]:
            for code in errnos:
                control = f"enable_random name={point},probability=0.5,failinfo={code}"
                subprocess.run(["fiu-ctrl", "-c", control, str(server.pid)], check=True)
                statuses = {}
                for _ in range(60):
                    target, expected = random.choice(targets)
                    status = fetch(server.port, target, expected)[0]
                    statuses[status] = statuses.get(status, 0) + 1
                subprocess.run(["fiu-ctrl", "-c", f"disable name={point}", str(server.pid)], check=True)
                report(server.alive(), f"libfiu {point} errno {code} at 50 %: answers {statuses}")
        report(metric(server.port, "tilelayer_disk_failures_total", kind="read") > 0,
               "libfiu: the disk tier's failed reads are counted")
        time.sleep(1)
        recovered = [fetch(server.port, target, expected)[0] for target, expected in targets]
        report(all(status == 200 for status in recovered), f"libfiu off: every tile 200 again ({recovered})")
        alive_and_serving(server, "libfiu")
    finally:
        server.stop()


def descriptor_faults(work):
    """C. RLIMIT_NOFILE 64 and 200 clients holding their connections, three rounds."""
    upstream = Upstream()  # good tiles: fetches whose deadline timers run on Dispatch's global queues
    upstream.start()
    layers = f"""  - name: world
    source: {{type: directory, path: {WORLD}}}
    cache: {{memory: false}}
  - name: debug
    source: {{type: debug}}
    maxZoom: 22
  - name: up
    source: {{type: url, template: "http://127.0.0.1:{upstream.port}/good/{{z}}/{{x}}/{{y}}.png", timeoutSeconds: 5}}
    maxZoom: 22
    cache: {{memory: false}}
"""
    server = start("faults-nofile", layers, nofile=64)
    try:
        statuses = {}
        for round in range(3):
            answers = []

            def client(index):
                z, x, y = [(1, 0, 0), (2, 3, 1), (3, 5, 6)][index % 3]
                path, expected = f"/world/{z}/{x}/{y}.png", world_tile(z, x, y)
                if index % 4 == 3:
                    path, expected = f"/debug/18/{round * 1000 + index}/7.png", None
                elif index % 4 == 2:
                    path, expected = f"/up/18/{round * 1000 + index}/7.png", GOOD
                connection = None
                try:
                    connection = socket.create_connection((common.HOST, server.port), timeout=1)
                    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                    answers.append((path, expected, read_answer(connection)))
                    time.sleep(2.5)
                except OSError:
                    answers.append((path, expected, None))
                finally:
                    if connection:
                        connection.close()

            threads = [threading.Thread(target=client, args=(index,)) for index in range(200)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for path, expected, answer in answers:
                status = answer[0] if answer else None
                statuses[status] = statuses.get(status, 0) + 1
                if answer:
                    checked["answers"] += 1
                    problem = violation(*answer, expected)
                    if problem or (answer[0] == 503 and "retry-after" not in answer[1]):
                        report(False, f"nofile 64: {path}: {problem or '503 without Retry-After'}")
            if not server.alive():
                break
        report(server.alive(), f"nofile 64, 200 clients x 3 rounds: alive; answers {statuses} (None: left in the backlog)")
        alive_and_serving(server, "nofile 64")
        report(metric(server.port, "tilelayer_descriptor_refusals_total") + metric(server.port, "tilelayer_accept_pauses_total") > 0,
               "descriptor pressure is counted in /metrics")
    finally:
        server.stop()
        upstream.listener.close()


def read_answer(connection):
    """(status, headers, body) of one Content-Length-framed answer, or None."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode(errors="replace").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split(" ")[1]), headers, body


def disk_faults(work):
    """D. The disk tier on a full tmpfs (ENOSPC), then on a read-only one (EROFS)."""
    for mode, options, kind in [("full", "size=64k", "ENOSPC"), ("read-only", "size=1m,ro", "EROFS")]:
        folder = os.path.join(work, f"disk-{mode}")
        os.makedirs(folder, exist_ok=True)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", folder], capture_output=True, text=True)
        if mounted.returncode != 0:
            report(False, f"disk {mode}: cannot mount a tmpfs ({mounted.stderr.strip()}): run as root")
            continue
        try:
            if mode == "full":  # fill it to the last block
                with open(os.path.join(folder, "filler"), "wb") as f:
                    try:
                        f.write(b"\0" * (1 << 20))
                    except OSError:
                        pass
            layers = f"""  - name: world
    source: {{type: directory, path: {WORLD}}}
  - name: debug
    source: {{type: debug}}
    maxZoom: 22
    cache: {{memory: true, disk: {folder}}}
"""
            server = start(f"faults-disk-{mode}", layers)
            try:
                statuses = {}
                for index in range(40):
                    status = fetch(server.port, f"/debug/15/{index}/9.png", None)[0]
                    statuses[status] = statuses.get(status, 0) + 1
                time.sleep(0.5)
                writes = metric(server.port, "tilelayer_disk_failures_total", layer="debug", kind="write")
                report(statuses == {200: 40} and writes >= 1,
                       f"disk tier {mode} ({kind}): answers {statuses}, disk write failures counted: {writes:.0f}")
                alive_and_serving(server, f"disk {mode}")
            finally:
                server.stop()
        finally:
            subprocess.run(["umount", folder], capture_output=True)


def redis_faults(work):
    """E. Redis killed under a layer on the shared tier, then started again."""
    port = common.free_port()
    redis_command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                     "--dir", work]
    redis = subprocess.Popen(redis_command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    layers = f"""  - name: world
    source: {{type: directory, path: {WORLD}}}
  - name: debug
    source: {{type: debug}}
    maxZoom: 22
    cache: {{memory: false, redis: true}}
"""
    server = start("faults-redis", layers, server_yaml=f"  cache: {{redis: {{url: \"redis://127.0.0.1:{port}/0\", timeoutMs: 200}}}}\n")
    try:
        before = [fetch(server.port, f"/debug/14/{index}/3.png", None)[0] for index in range(10)]
        redis.send_signal(signal.SIGKILL)
        redis.wait()
        during = [fetch(server.port, f"/debug/14/{index}/3.png", None)[0] for index in range(20)]
        errors = metric(server.port, "tilelayer_redis_errors_total")
        report(set(before) == {200} and set(during) == {200} and errors > 0,
               f"Redis killed: answers {before + during} all 200, Redis errors counted: {errors:.0f}")
        redis = subprocess.Popen(redis_command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.5)
        after = [fetch(server.port, f"/debug/14/{index}/3.png", None)[0] for index in range(10)]
        report(set(after) == {200}, f"Redis back: answers {after}")
        alive_and_serving(server, "Redis killed")
    finally:
        server.stop()
        redis.kill()
        redis.wait()


PHASES = {"upstream": upstream_faults, "libfiu": libfiu_faults, "nofile": descriptor_faults, "disk": disk_faults,
          "redis": redis_faults}
chosen = sys.argv[1:] or list(PHASES)  # faults.py [upstream] [libfiu] [nofile] [disk] [redis]
with tempfile.TemporaryDirectory(prefix="tilelayer-faults-") as work:
    for phase in [PHASES[name] for name in chosen]:
        print(f"== {phase.__doc__.strip().splitlines()[0]}", flush=True)
        phase(work)
print(f"answers checked: {checked['answers']}; failures: {len(failures)}")
sys.exit(1 if failures else 0)
