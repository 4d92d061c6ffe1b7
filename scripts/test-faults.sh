#!/usr/bin/env bash
# Fault injection against the release server (issue 56): a misbehaving upstream of ours
# (truncated, cut, noise, drip, reset), libfiu on the worker paths (pread, read and open
# failing), the descriptor limit at 64 under 200 clients, a full and a read-only disk tier
# (tmpfs mounts), and Redis killed. Every answer is checked — a 200 carries exactly a source
# tile, no error is long-cacheable (5xx: no-store), an existing tile is never 404 — and the
# server must be alive and serving after each fault. Prints PASS/FAIL lines, exits 1 on a FAIL.
#
# It installs nothing. It needs: root (mount -t tmpfs), python3, redis-server (Debian
# redis-server), fiu-run and fiu-ctrl (Debian fiu-utils), and the release build (made here).
#   scripts/test-faults.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
missing=()
for tool in python3 redis-server fiu-run fiu-ctrl mount; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "FAIL  missing: ${missing[*]} (Debian: apt-get install redis-server fiu-utils)" >&2
    exit 1
fi
[ "$(id -u)" = 0 ] || { echo "FAIL  run as root (the disk-tier faults mount tmpfs filesystems)" >&2; exit 1; }
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "building tilelayer (release)..."
mkdir -p "$root/scripts/out"
(cd "$root" && swift build -c release --product tilelayer >"$root/scripts/out/faults-build.log" 2>&1) \
    || { tail -30 "$root/scripts/out/faults-build.log"; echo "FAIL  release build" >&2; exit 1; }
exec python3 "$root/scripts/hardening/faults.py"
