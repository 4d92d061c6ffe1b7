#!/usr/bin/env python3
"""idle-conns.py PORT COUNT PATH [HOLD_SECONDS]: opens COUNT keep-alive connections to
127.0.0.1:PORT, makes one GET PATH on each (reading the whole answer), then holds them all
open and idle. Prints "READY ok=N failed=M" once every connection has its answer, then waits
until stdin closes (or HOLD_SECONDS pass; only those when stdin is neither a pipe nor a
terminal: /dev/null, say, reads as closed at once), then closes everything. Loopback only; used by
scripts/bench-paths.sh to measure the server's RSS with many idle connections.
"""
import os, resource, select, selectors, socket, stat, sys, time

port, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
hold = float(sys.argv[4]) if len(sys.argv) > 4 else 120.0
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 100)), hard))

request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
sel = selectors.DefaultSelector()
socks, state = [], {}
ok = failed = 0
deadline = time.monotonic() + 120
opened = 0
BATCH = 200  # connections in flight at once (the listen backlog is finite)

def parse_done(buf):
    head_end = buf.find(b"\r\n\r\n")
    if head_end < 0:
        return False
    length = 0
    for line in buf[:head_end].split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v.strip())
    return len(buf) >= head_end + 4 + length

def open_one():
    global opened, failed
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    except OSError:
        failed += 1; s.close(); opened += 1; return
    state[s] = [b"", False]
    sel.register(s, selectors.EVENT_WRITE)
    opened += 1

while (ok + failed) < count and time.monotonic() < deadline:
    while opened < count and (opened - ok - failed) < BATCH:
        open_one()
    for key, ev in sel.select(timeout=1.0):
        s = key.fileobj
        st = state[s]
        try:
            if ev & selectors.EVENT_WRITE and not st[1]:
                err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    raise OSError(err, os.strerror(err))
                s.send(request)
                st[1] = True
                sel.modify(s, selectors.EVENT_READ)
                continue
            data = s.recv(65536)
            if not data:
                raise OSError("closed")
            st[0] += data
            if parse_done(st[0]):
                if not st[0].startswith(b"HTTP/1.1 200"):
                    raise OSError("status " + st[0][:20].decode(errors="replace"))
                ok += 1
                st[0] = b""
                sel.unregister(s)
                socks.append(s)
        except OSError as e:
            failed += 1
            if failed <= 3:
                print(f"connection failed: {e}", file=sys.stderr)
            sel.unregister(s); s.close(); del state[s]

print(f"READY ok={ok} failed={failed}", flush=True)
end = time.monotonic() + hold
watch = [sys.stdin] if stat.S_ISFIFO(os.fstat(0).st_mode) or os.isatty(0) else []
while time.monotonic() < end:
    r, _, _ = select.select(watch, [], [], 0.5)
    if r and not sys.stdin.readline():
        break
# Still open? (the server must not have dropped idle connections during the hold)
alive = 0
for s in socks:
    try:
        data = s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        if data:
            alive += 1
    except BlockingIOError:
        alive += 1
    except OSError:
        pass
print(f"HELD alive={alive}", flush=True)
for s in socks:
    s.close()
