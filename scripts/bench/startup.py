#!/usr/bin/env python3
"""startup.py PORT PATH RUNS -- COMMAND...: RUNS times, starts COMMAND and measures the time
from just before exec to the first "200" answer to GET PATH on 127.0.0.1:PORT, polling in a
tight loop (connect + request, retried at once on refusal); then stops it (SIGTERM, then
SIGKILL after 5 s). Prints one "START ms=..." line per run and "STARTUP median_ms=.. min_ms=..
max_ms=..". Loopback only."""
import os, signal, socket, statistics, subprocess, sys, time

port, path, runs = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
cmd = sys.argv[sys.argv.index("--") + 1:]
req = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()

def wait_port_free():
    for _ in range(200):
        s = socket.socket()
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            return
        finally:
            s.close()
        time.sleep(0.05)

times = []
for run in range(runs):
    wait_port_free()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    got = None
    while time.perf_counter() - t0 < 30:
        if proc.poll() is not None:
            sys.exit(f"server exited with {proc.returncode} during start")
        s = socket.socket()
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(req)
            data = b""
            while b"\r\n" not in data:
                d = s.recv(4096)
                if not d:
                    break
                data += d
            if data.startswith(b"HTTP/1.1 200"):
                got = time.perf_counter() - t0
                break
        except OSError:
            pass
        finally:
            s.close()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill(); proc.wait()
    if got is None:
        sys.exit("no 200 within 30 s")
    times.append(got * 1000)
    print(f"START run={run + 1} ms={got * 1000:.1f}", flush=True)
print(f"STARTUP median_ms={statistics.median(times):.1f} min_ms={min(times):.1f} max_ms={max(times):.1f}")
