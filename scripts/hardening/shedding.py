"""Load shedding under a flood of cold composites (issue 56): a release server with the default
configuration (server.workers.maxWaitSeconds 2) and an `overlay` composite of `world` and
`debug`; its tiles at zoom 16-20 are cold and costly (a debug tile drawn, a composite drawn).

1. Hot tiles unloaded: wrk on one memory hit (/world/1/0/0.png), HOT_CONNECTIONS connections,
   before the flood and again after it (the baseline is the mean: the machine's pace drifts).
2. The flood: wrk -c FLOOD_CONNECTIONS on random cold overlay tiles, for the whole phase.
   Meanwhile a probe asks for one new cold overlay tile at a time on a connection of its own
   and times each answer, by status (a refusal is a 503); and wrk measures the hot tile again.
Prints the figures and the targets: refused answers' p99 under 50 ms, hot tiles at 80 % or more
of their unloaded req/s. The machine's load average is printed before and after."""

import argparse
import http.client
import os
import random
import re
import subprocess
import threading
import time

import common

parser = argparse.ArgumentParser()
parser.add_argument("--flood-connections", type=int, default=1000)
parser.add_argument("--hot-connections", type=int, default=16)
parser.add_argument("--seconds", type=int, default=10, help="each wrk measurement of the hot tile")
args = parser.parse_args()
common.raise_nofile(args.flood_connections + 4096)

OVERLAY = """
  - name: overlay        # a composite: world under debug at half opacity
    source:
      type: composite
      layers: [{layer: world, zIndex: 0}, {layer: debug, zIndex: 1, opacity: 0.5}]
    maxZoom: 22
"""
HOT = "/world/1/0/0.png"
OUT = os.path.join(common.OUT, "shedding")
os.makedirs(OUT, exist_ok=True)
COLD_LUA = os.path.join(OUT, "cold.lua")
with open(COLD_LUA, "w") as f:
    f.write("""math.randomseed(os.time())
request = function()
  local z = math.random(16, 20)
  local n = 2 ^ z
  return wrk.format("GET", string.format("/overlay/%d/%d/%d.png", z, math.random(0, n - 1), math.random(0, n - 1)))
end
""")


def wrk(target, connections, seconds, script=None):
    """Requests/s, p99 latency (ms) and non-2xx count of one wrk run."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "30s"]
    if script:
        command += ["-s", script]
    text = subprocess.run(command + [target], capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
    scale = {"us": 0.001, "ms": 1, "s": 1000}
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    total = re.search(r"(\d+) requests in", text)
    return rate, float(p99.group(1)) * scale[p99.group(2)] if p99 else float("nan"), \
        int(non2xx.group(1)) if non2xx else 0, int(total.group(1)) if total else 0


class Probe(threading.Thread):
    """One new cold overlay tile at a time, each on a fresh connection: latency by status."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.stop_event, self.timings = port, threading.Event(), {}

    def run(self):
        while not self.stop_event.is_set():
            z = random.randint(16, 20)
            path = f"/overlay/{z}/{random.randrange(2 ** z)}/{random.randrange(2 ** z)}.png"
            started = time.monotonic()
            try:
                connection = http.client.HTTPConnection(common.HOST, self.port, timeout=30)
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                status = response.status
                connection.close()
            except OSError:
                status = "error"
            self.timings.setdefault(status, []).append((time.monotonic() - started) * 1000)
            time.sleep(0.02)


def metric(port, name):
    _, _, body = common.get(port, "/metrics")
    total = 0.0
    for line in body.decode().splitlines():
        if line.startswith(name) and not line.startswith("#"):
            total += float(line.rsplit(" ", 1)[1])
    return total


load_before = os.getloadavg()
config = common.write_config("shedding", extra_layers=OVERLAY)
server = common.Server("shedding", config)
base = f"http://{common.HOST}:{server.port}"
try:
    common.get(server.port, HOT)
    unloaded, unloaded_p99, _, _ = wrk(base + HOT, args.hot_connections, args.seconds)
    flood_seconds = args.seconds + 8
    flood = threading.Thread(target=lambda: results.update(flood=wrk(base, args.flood_connections, flood_seconds, COLD_LUA)))
    results = {}
    flood.start()
    time.sleep(3)  # the queues fill, the pace is measured
    probe = Probe(server.port)
    probe.start()
    loaded, loaded_p99, _, _ = wrk(base + HOT, args.hot_connections, args.seconds)
    probe.stop_event.set()
    flood.join()
    probe.join(timeout=35)
    flood_rate, flood_p99, flood_non2xx, flood_total = results["flood"]
    load_after = os.getloadavg()
    shed, renders = metric(server.port, "tilelayer_requests_shed_total"), metric(server.port, "tilelayer_renders_total")
    time.sleep(5)  # what the flood queued is drawn
    after, after_p99, _, _ = wrk(base + HOT, args.hot_connections, args.seconds)
    alive = server.alive()
finally:
    server.stop()

refused = probe.timings.get(503, [])
served = probe.timings.get(200, [])
print(f"machine: {os.cpu_count()} cores; load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
      f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
print(f"hot tile unloaded: {unloaded:.0f} req/s before the flood (p99 {unloaded_p99:.1f} ms), {after:.0f} after "
      f"(p99 {after_p99:.1f} ms), {args.hot_connections} connections")
print(f"flood: {flood_total} answers in {flood_seconds} s ({flood_rate:.0f}/s, {flood_non2xx} not 2xx, wrk p99 {flood_p99:.0f} ms), "
      f"{args.flood_connections} connections on random overlay tiles at zoom 16-20")
print(f"server counters: {shed:.0f} shed, {renders:.0f} renders; alive after: {alive}")
print(f"probe of cold tiles during the flood: {len(refused)} refused (503), p50 {common.percentile(refused, 50):.1f} ms, "
      f"p99 {common.percentile(refused, 99):.1f} ms, max {max(refused, default=float('nan')):.1f} ms; "
      f"{len(served)} served (200), p50 {common.percentile(served, 50):.0f} ms, p99 {common.percentile(served, 99):.0f} ms; "
      f"other {dict((k, len(v)) for k, v in probe.timings.items() if k not in (200, 503))}")
baseline = (unloaded + after) / 2  # the machine's pace drifts: the mean of before and after
ratio = loaded / baseline if baseline else float("nan")
print(f"hot tile during the flood: {loaded:.0f} req/s (p99 {loaded_p99:.1f} ms): {ratio * 100:.0f} % of unloaded (the mean)")
refused_ok = bool(refused) and common.percentile(refused, 99) < 50
print(f"TARGET refused p99 < 50 ms: {'met' if refused_ok else 'NOT met'}; hot >= 80 %: {'met' if ratio >= 0.8 else 'NOT met'}")
