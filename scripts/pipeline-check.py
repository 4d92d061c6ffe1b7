#!/usr/bin/env python3
"""Connection-level correctness against a release tilelayer on loopback:
- many pipelined requests on one connection (GET, HEAD, 200/304/400/404, small and large bodies),
  sent whole and in random small pieces, on several connections at once: every answer comes back
  in order, equal to the answer the same request gets alone (status, Content-Length, body);
- Content-Length always equals the body; HEAD never sends a body (nor do 204/304);
- a `Connection: close` in the middle of a pipeline ends the connection after its answer.
Usage: scripts/pipeline-check.py [--requests N] [--connections N]"""

import argparse
import os
import random
import socket
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "hardening"))
import common  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--requests", type=int, default=2000, help="pipelined requests per connection")
parser.add_argument("--connections", type=int, default=8)
args = parser.parse_args()

server = common.Server("pipeline", common.write_config("pipeline"))
port = server.port
world = [(z, x, y) for z in range(4) for x in range(2 ** z) for y in range(2 ** z)]
etag = common.get(port, "/world/2/1/1.png")[1]["etag"]
catalogue = ([("GET", f"/world/{z}/{x}/{y}.png", {}) for z, x, y in world]
             + [("HEAD", f"/world/{z}/{x}/{y}.png", {}) for z, x, y in world[::5]]
             + [("GET", f"/world/{z}/{x}/{y}@2x.png", {}) for z, x, y in world[::9]]
             + [("GET", f"/debug/{z}/{z}/{z}.png", {}) for z in range(4, 20, 3)]
             + [("GET", "/world/2/1/1.png", {"If-None-Match": etag}), ("HEAD", "/healthz", {}),
                ("GET", "/healthz", {}), ("GET", "/world/1/a/0.png", {}), ("GET", "/nosuch/1/0/0.png", {}),
                ("GET", "/sparse/4/1/1.png", {}), ("HEAD", "/sparse/5/3/3.png", {}), ("GET", "/world.json", {}),
                ("OPTIONS", "/world/0/0/0.png", {"Origin": "http://x", "Access-Control-Request-Method": "GET"}),
                ("DELETE", "/world/0/0/0.png", {})])


def encode(method, path, headers, close=False):
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"] + [f"{k}: {v}" for k, v in headers.items()]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def read_answers(sock, methods):
    """Parses answers strictly in order; a HEAD/204/304 answer has no body, others exactly
    Content-Length bytes. Returns [(status, content_length, body)], leftover bytes, closed flag."""
    buffer, answers, closed = b"", [], False
    while len(answers) < len(methods):
        while b"\r\n\r\n" not in buffer:
            data = sock.recv(1 << 16)
            if not data:
                return answers, buffer, True
            buffer += data
        head, _, buffer = buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers["content-length"]) if "content-length" in headers else None
        method = methods[len(answers)]
        body_length = 0 if method == "HEAD" or status in (204, 304) else length
        if body_length is None:
            raise AssertionError(f"answer {len(answers)} ({status}) to {method} has no Content-Length")
        while len(buffer) < body_length:
            data = sock.recv(1 << 16)
            if not data:
                raise AssertionError(f"connection closed inside a body (answer {len(answers)})")
            buffer += data
        answers.append((status, length, buffer[:body_length]))
        buffer = buffer[body_length:]
    return answers, buffer, closed


# The answer each request gets alone, on its own connection.
reference = []
plain_get = {}
for method, path, headers in catalogue:
    with socket.create_connection((common.HOST, port)) as sock:
        sock.sendall(encode(method, path, headers, close=True))
        answers, _, _ = read_answers(sock, [method])
        reference.append(answers[0])
        if method == "GET" and not headers:
            plain_get[path] = answers[0]

failures = []
totals = {"answers": 0, "bytes": 0}
lock = threading.Lock()


def pipeline(seed):
    rng = random.Random(seed)
    indices = [rng.randrange(len(catalogue)) for _ in range(args.requests)]
    picks = [catalogue[i] for i in indices]
    payload = b"".join(encode(*pick) for pick in picks)
    methods = [pick[0] for pick in picks]
    with socket.create_connection((common.HOST, port), timeout=60) as sock:
        def send():
            if seed % 2 == 0:
                sock.sendall(payload)  # all at once
            else:
                offset = 0
                while offset < len(payload):  # in random pieces of 1-300 bytes
                    size = rng.randint(1, 300)
                    sock.sendall(payload[offset:offset + size])
                    offset += size
        writer = threading.Thread(target=send)
        writer.start()
        try:
            answers, leftover, closed = read_answers(sock, methods)
        except AssertionError as error:
            answers, leftover, closed = [], b"", True
            with lock:
                failures.append(f"connection {seed}: {error}")
        writer.join()
    problems = []
    if len(answers) != len(picks):
        problems.append(f"{len(answers)} answers to {len(picks)} requests")
    for i, (answer, index) in enumerate(zip(answers, indices)):
        method, path, _ = catalogue[index]
        want = reference[index]
        if answer[0] != want[0] or answer[2] != want[2]:
            problems.append(f"answer {i} to {method} {path}: status {answer[0]} ({len(answer[2])} bytes), "
                            f"alone {want[0]} ({len(want[2])} bytes)")
        if method == "HEAD" and path in plain_get and answer[1] != plain_get[path][1]:
            problems.append(f"HEAD {path}: Content-Length {answer[1]} differs from GET")
    if leftover:
        problems.append(f"{len(leftover)} bytes after the last answer")
    with lock:
        failures.extend(f"connection {seed}: {p}" for p in problems[:5])
        totals["answers"] += len(answers)
        totals["bytes"] += sum(len(a[2]) for a in answers)


threads = [threading.Thread(target=pipeline, args=(seed,)) for seed in range(args.connections)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()

# Connection: close in the middle of a pipeline: three answers, then the end of the stream.
with socket.create_connection((common.HOST, port), timeout=10) as sock:
    sock.sendall(encode("GET", "/healthz", {}) + encode("HEAD", "/world/0/0/0.png", {})
                 + encode("GET", "/world/1/0/0.png", {}, close=True) + encode("GET", "/healthz", {}))
    answers, leftover, _ = read_answers(sock, ["GET", "HEAD", "GET"])
    rest = leftover
    while True:
        data = sock.recv(65536)
        if not data:
            break
        rest += data
    close_ok = [a[0] for a in answers] == [200, 200, 200] and rest == b""
    if not close_ok:
        failures.append(f"Connection: close mid-pipeline: {[a[0] for a in answers]}, {len(rest)} bytes after")

# HEAD on every kind of answer: the same head as GET, never a body (checked by the strict parser).
alive = server.alive()
server.stop()
print(f"== pipeline check: {args.connections} connections x {args.requests} pipelined requests "
      f"(even connections send all at once, odd ones in 1-300 byte pieces)")
print(f"answers parsed in order: {totals['answers']} of {args.connections * args.requests}; "
      f"body bytes {totals['bytes']}; catalogue {len(catalogue)} distinct requests")
print(f"mismatches (order, status, body, HEAD body, Content-Length): {len(failures)}")
for failure in failures[:10]:
    print("  " + failure)
print(f"Connection: close mid-pipeline honoured: {close_ok}; server alive: {alive}")
ok = not failures and alive and totals["answers"] == args.connections * args.requests
print("RESULT:", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
