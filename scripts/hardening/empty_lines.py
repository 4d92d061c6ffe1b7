"""Sends 600 MB of empty lines ("\\r\\n") on one connection to a release tilelayer and reports
its RSS: the server must answer 431 and close (or at least not grow past 64 MB).
Talks only to 127.0.0.1."""

import argparse
import socket
import sys
import time

import common

parser = argparse.ArgumentParser()
parser.add_argument("--megabytes", type=int, default=600)
parser.add_argument("--transport", default="epoll")
args = parser.parse_args()

server = common.Server("empty-lines-" + args.transport,
                       common.write_config("empty-lines-" + args.transport, transport=args.transport))
try:
    time.sleep(0.5)
    before = server.rss_kb()
    sock = socket.create_connection((common.HOST, server.port))
    sock.settimeout(10)
    chunk = b"\r\n" * 32768
    sent = 0
    closed_after = None
    peak = before
    started = time.time()
    while sent < args.megabytes << 20:
        try:
            sock.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            closed_after = sent
            break
        sent += len(chunk)
        if sent % (16 << 20) == 0:
            peak = max(peak, server.rss_kb())
    peak = max(peak, server.rss_kb())
    answer = b""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
    except (ConnectionResetError, socket.timeout):
        pass
    sock.close()
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") if answer else "(nothing)"
    growth_mb = (peak - before) / 1024
    print(f"transport:      {args.transport}")
    print(f"sent:           {sent / (1 << 20):.0f} MB of empty lines in {time.time() - started:.1f} s"
          + (f" (the server closed after {closed_after / (1 << 20):.1f} MB)" if closed_after is not None else ""))
    print(f"answer:         {status}")
    print(f"server RSS:     {before / 1024:.1f} MB before, {peak / 1024:.1f} MB peak (+{growth_mb:.1f} MB)")
    print(f"server alive:   {server.alive()}, /healthz {common.get(server.port, '/healthz')[0]}")
    ok = server.alive() and (closed_after is not None or "431" in status) and growth_mb < 64
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)
finally:
    server.stop()
