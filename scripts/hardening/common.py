"""Shared helpers for the hardening scripts: start a release tilelayer on a loopback port with a
generated configuration, read its memory and CPU from /proc, and make plain HTTP requests.
Every client here talks only to 127.0.0.1."""

import http.client
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TILES = os.path.join(ROOT, "tiles")
OUT = os.path.join(ROOT, "scripts", "out")
HOST = "127.0.0.1"


def binary():
    path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(path, "tilelayer")


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def layers_yaml(cache_bytes=268435456):
    """The test layers; each has its own maxAge so a response tells which layer answered."""
    world = os.path.join(TILES, "world")
    return f"""
layers:
  - name: world          # native 256 px tiles, zoom 0-3; @2x made from the next zoom
    default: true
    source: {{type: directory, path: {world}}}
    maxZoom: 3
    maxAge: 86400
  - name: sparse         # the same folder with zoom 4-5 allowed: those tiles are missing (404 no tile)
    source: {{type: directory, path: {world}}}
    maxZoom: 5
    maxAge: 600
  - name: debug          # generated tiles: random coordinates are cache misses
    source: {{type: debug}}
    maxZoom: 22
    maxAge: 3600
"""


def write_config(name, header_seconds=10, idle_seconds=60, max_connections=20000, cache_bytes=268435456,
                 access_log=False, transport="epoll", extra_layers="", workers=""):
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "tilelayer.yml")
    with open(path, "w") as f:
        f.write(f"""server:
  host: 127.0.0.1
  cache: {{memoryBytes: {cache_bytes}}}
  limits: {{maxConnections: {max_connections}}}
  timeouts: {{headerSeconds: {header_seconds}, idleSeconds: {idle_seconds}}}
  log: {{level: info, access: {str(access_log).lower()}}}
  transport: {transport}
{workers}""" + layers_yaml(cache_bytes) + extra_layers)
    return path


class Server:
    """A tilelayer process; its log goes to scripts/out/NAME/server.log."""

    def __init__(self, name, config, nofile=None, wrapper=()):
        """`wrapper`: a command the server runs under (fiu-run -x, say)."""
        self.port = free_port()
        self.log_path = os.path.join(OUT, name, "server.log")
        self.log = open(self.log_path, "w")

        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.process = subprocess.Popen([*wrapper, binary(), "serve", "--config", config, "--port", str(self.port)],
                                        stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=limit)
        self.pid = self.process.pid
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.process.poll() is not None:
                sys.exit(f"server exited at start (status {self.process.returncode}); see {self.log_path}")
            try:
                if get(self.port, "/healthz", timeout=1)[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        sys.exit("server did not answer /healthz within 30 s")

    def alive(self):
        return self.process.poll() is None

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """utime + stime of the server process, seconds."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def open_fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def log_text(self):
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def get(port, path, method="GET", headers=None, timeout=5):
    """One request on a fresh connection: (status, headers dict lower-cased, body)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()


def raise_nofile(want=65536):
    """Raises this process's descriptor limit (root may raise the hard limit too)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, soft), max(want, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
