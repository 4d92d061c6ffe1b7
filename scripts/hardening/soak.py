"""Soak: a million tile requests at 256 connections (wrk + soak.lua) over a mix of path classes,
in four quarters with the server's RSS after each; before and after, a checker fetches a sample
of tiles twice and compares bodies with the files on disk and ETags across fetches."""

import argparse
import collections
import os
import re
import signal
import subprocess
import sys
import time

import common

parser = argparse.ArgumentParser()
parser.add_argument("--requests", type=int, default=1_000_000)
parser.add_argument("--connections", type=int, default=256)
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--cache-bytes", type=int, default=32 << 20)
args = parser.parse_args()
common.raise_nofile(8192)

config = common.write_config("soak", cache_bytes=args.cache_bytes)
server = common.Server("soak", config)
port = server.port
folder = os.path.join(common.OUT, "soak")

world = [(z, x, y) for z in range(4) for x in range(2 ** z) for y in range(2 ** z)]


def check_tiles(label):
    """Fetches every native world tile, some @2x and debug tiles twice: same ETag, same body, the
    body equals the file on disk for native tiles, Content-Length equals the body."""
    etags, problems = {}, []
    paths = [(f"/world/{z}/{x}/{y}.png", os.path.join(common.TILES, "world", str(z), str(x), f"{y}.png"))
             for z, x, y in world]
    paths += [(f"/world/{z}/{x}/{y}@2x.png", None) for z, x, y in world[::7]]
    paths += [(f"/debug/{z}/{z * 7}/{z * 3}.png", None) for z in range(5, 22, 4)]
    for path, disk in paths:
        first = common.get(port, path)
        second = common.get(port, path)
        for status, headers, body in (first, second):
            if status != 200:
                problems.append(f"{path}: status {status}")
            if int(headers.get("content-length", -1)) != len(body):
                problems.append(f"{path}: Content-Length {headers.get('content-length')} != body {len(body)}")
        if first[1].get("etag") != second[1].get("etag") or not first[1].get("etag"):
            problems.append(f"{path}: ETag changed or missing: {first[1].get('etag')} / {second[1].get('etag')}")
        if first[2] != second[2]:
            problems.append(f"{path}: body changed between fetches")
        if disk and first[2] != open(disk, "rb").read():
            problems.append(f"{path}: body differs from {disk}")
        etags[path] = first[1].get("etag")
    print(f"tile check ({label}): {len(paths)} paths fetched twice, {len(problems)} problems")
    for problem in problems[:10]:
        print("  " + problem)
    return etags, problems


def signature(status, headers, body):
    age = re.search(r"max-age=(\d+)", headers.get("cache-control", ""))
    width = "-"
    if status == 200 and body[1:4] == b"PNG":
        width = str(int.from_bytes(body[16:20], "big"))
    return f"{status}|{age.group(1) if age else '-'}|{width}"


etags_before, problems_before = check_tiles("before")

# Path classes, their expected status and share of the requests.
classes = {
    "hit": (200, 50, [f"/world/{z}/{x}/{y}.png" for z, x, y in world] + [f"/{z}/{x}/{y}.png" for z, x, y in world]),
    "retina": (200, 15, [f"/world/{z}/{x}/{y}@2x.png" for z, x, y in world]),
    "notmodified": (304, 15, [f"/world/{z}/{x}/{y}.png" for z, x, y in world]),
    "miss": (200, 3, ["DEBUG"]),
    "notile": (404, 7, [f"/sparse/4/{x}/{y}.png" for x in range(0, 16, 3) for y in range(0, 16, 5)]),
    "bad400": (400, 5, ["/world/1/a/0.png", "/1/0/x.png", "/world/one/0/0.png"]),
    "bad404": (404, 5, ["/nosuch/1/0/0.png", "/world/9/0/0.png", "/world/1/0/5.png", "/world/1/0/0.jpg"]),
}
lines, expected, problems = [], {}, []
for name, (status, weight, paths) in classes.items():
    seen = set()
    for path in paths:
        probe = path if path != "DEBUG" else "/debug/15/100/200.png"
        etag = etags_before.get(path, "-") if name == "notmodified" else "-"
        answer = common.get(port, probe, headers={"If-None-Match": etag} if etag != "-" else {})
        sig = signature(*answer)
        if answer[0] != status:
            problems.append(f"probe {name} {probe}: status {answer[0]}, expected {status}")
        seen.add(sig)
        expected.setdefault(sig, set()).add(name)
    if len(seen) != 1:
        problems.append(f"class {name} answers with several signatures {seen}")
    sig = seen.pop()
    for i in range(weight * 10):
        path = paths[i % len(paths)]
        etag = etags_before.get(path, "-") if name == "notmodified" else "-"
        lines.append(f"{name}\t{path}\t{etag}\t{sig}")
for sig, names in expected.items():
    if len(names) > 1:
        problems.append(f"signature {sig} is shared by {names}: classes cannot be told apart")
if problems:
    print("\n".join(problems))
    server.stop()
    sys.exit(1)
paths_file = os.path.join(folder, "paths.tsv")
with open(paths_file, "w") as f:
    f.write("\n".join(lines) + "\n")

quarter = args.requests // 4
totals = collections.Counter()
sent, got = collections.Counter(), collections.Counter()
odd = collections.Counter()
rss = []
latencies = []
wall = 0.0
print(f"== soak: {args.requests} requests, {args.connections} connections, {args.threads} wrk threads, "
      f"path mix {', '.join(f'{k} {v[1]} %' for k, v in classes.items())}")
for q in range(4):
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", "-d600s", "--timeout", "10s",
               "-s", os.path.join(os.path.dirname(__file__), "soak.lua"), f"http://{common.HOST}:{port}",
               "--", paths_file, str(quarter // args.threads)]
    # wrk's threads stop at the request count (soak.lua), but its main thread sleeps for the
    # whole -d duration; once wrk is idle, SIGINT makes it print its results at once.
    started = time.monotonic()
    wrk = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    idle_polls, last_cpu = 0, -1.0
    while wrk.poll() is None and time.monotonic() - started < 900:
        time.sleep(0.5)
        try:
            with open(f"/proc/{wrk.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = int(fields[11]) + int(fields[12])
        except OSError:
            break
        idle_polls = idle_polls + 1 if cpu == last_cpu else 0
        last_cpu = cpu
        if idle_polls >= 4 and time.monotonic() - started > 3:
            wrk.send_signal(signal.SIGINT)
            break
    busy_seconds = time.monotonic() - started - 2
    output = wrk.communicate(timeout=60)[0]
    wall += busy_seconds
    with open(os.path.join(folder, f"wrk-q{q + 1}.txt"), "w") as f:
        f.write(output)
    for line in output.splitlines():
        parts = line.split()
        if line.startswith("SOAK class"):
            sent[parts[2]] += int(parts[4])
            got[parts[2]] += int(parts[6])
        elif line.startswith("SOAK odd"):
            odd[parts[2]] += int(parts[3])
        elif line.startswith("SOAK unexpected"):
            totals["unexpected"] += int(parts[2])
        elif line.startswith("SOAK badlength"):
            totals["badlength"] += int(parts[2])
        elif line.startswith("SOAK requests"):
            totals["requests"] += int(parts[2])
            totals["seconds"] += int(parts[4]) / 1e6
            for key, value in zip(parts[6::2], parts[7::2]):
                totals[key] += int(value)
        elif line.startswith("SOAK latency_us"):
            latencies.append((int(parts[3]), int(parts[5]), int(parts[7])))
    rss.append(server.rss_kb())
    answered = sum(int(l.split()[2]) for l in output.splitlines() if l.startswith("SOAK requests"))
    print(f"quarter {q + 1}: {answered} answers in {busy_seconds:.1f} s ({answered / busy_seconds:.0f} req/s), p99 {latencies[-1][1] / 1000 if latencies else '?'} ms, "
          f"server RSS {rss[-1] / 1024:.1f} MiB")

etags_after, problems_after = check_tiles("after")
changed = [p for p in etags_before if etags_before[p] != etags_after.get(p)]
alive = server.alive()
server.stop()

print(f"requests answered: {totals['requests']} in {wall:.0f} s ({totals['requests'] / max(wall, 1):.0f} req/s)")
print(f"socket errors: connect {totals['connect']}, read {totals['read']}, write {totals['write']}, "
      f"timeout {totals['timeout']}; wrk non-2xx/3xx (expected 400/404 classes): {totals['status']}")
for name in classes:
    print(f"  {name:12} sent {sent[name]:8}  answered as expected {got[name]:8}")
lost = sum(sent.values()) - sum(got.values()) - totals["unexpected"]
print(f"unexpected status/signature: {totals['unexpected']} {dict(odd)}; Content-Length != body: {totals['badlength']}; "
      f"requests cut off by wrk's stop (in flight): {lost}")
print(f"latency per quarter (p50/p99/max ms): "
      + ", ".join(f"{a / 1000:.1f}/{b / 1000:.1f}/{c / 1000:.1f}" for a, b, c in latencies))
growth = (rss[3] - rss[1]) / rss[1] * 100
print(f"RSS after each quarter (MiB): {', '.join(f'{r / 1024:.1f}' for r in rss)}; last vs second quarter {growth:+.1f} %")
print(f"ETags changed between before and after: {len(changed)}; server alive: {alive}")
ok = (alive and totals["connect"] + totals["read"] + totals["write"] + totals["timeout"] == 0
      and totals["unexpected"] == 0 and totals["badlength"] == 0 and abs(growth) <= 10
      and not problems_before and not problems_after and not changed
      and 0 <= lost <= 4 * args.connections and totals["requests"] >= args.requests - 4 * args.connections)
print("RESULT:", "PASS" if ok else "FAIL")
raise SystemExit(0 if ok else 1)
