"""Hangs 8 tile reads of a release tilelayer (FIFOs stand in for a hung disk) and times hot,
already cached tiles of another layer meanwhile: each must answer in under a second.
Talks only to 127.0.0.1."""

import argparse
import os
import sys
import tempfile
import threading
import time

import common

parser = argparse.ArgumentParser()
parser.add_argument("--hung", type=int, default=8)
parser.add_argument("--requests", type=int, default=200)
parser.add_argument("--transport", default="epoll")
args = parser.parse_args()

folder = tempfile.mkdtemp(prefix="tilelayer-hung-")
fifos = []
for x in range(args.hung):
    os.makedirs(f"{folder}/3/{x}", exist_ok=True)
    path = f"{folder}/3/{x}/0.png"
    os.mkfifo(path)
    fifos.append(path)

extra = f"""  - name: hung
    source: {{type: directory, path: {folder}}}
    maxZoom: 3
    cache: {{memory: false}}
"""
name = "hung-reads-" + args.transport
server = common.Server(name, common.write_config(name, transport=args.transport, extra_layers=extra))


def release():
    for path in fifos:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass


try:
    hot = [f"/2/{x}/{y}.png" for x in range(4) for y in range(4)]
    for path in hot:
        assert common.get(server.port, path)[0] == 200
    hung_results = []
    threads = [threading.Thread(target=lambda x=x: hung_results.append(
        common.get(server.port, f"/hung/3/{x}/0.png", timeout=60)[0])) for x in range(args.hung)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    times = []
    failures = 0
    for i in range(args.requests):
        started = time.time()
        try:
            status = common.get(server.port, hot[i % len(hot)], timeout=5)[0]
            failures += status != 200
        except OSError:
            failures += 1
        times.append(time.time() - started)
    release()
    for thread in threads:
        thread.join(30)
    print(f"transport:        {args.transport}")
    print(f"hung reads:       {args.hung} (answered after release: {sorted(hung_results)})")
    print(f"hot tiles timed:  {len(times)}, failures {failures}")
    print(f"latency:          p50 {common.percentile(times, 50) * 1000:.2f} ms, "
          f"p99 {common.percentile(times, 99) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms")
    ok = failures == 0 and max(times) < 1.0
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)
finally:
    release()
    server.stop()
