#!/usr/bin/env bash
# Connection floods against a release server: 10,000 idle keep-alive connections (RSS with them,
# a normal client keeps working), EMFILE back-off with the server's descriptor limit at 256 (CPU
# time, log, recovery), and 503 beyond limits.maxConnections 100.
#   scripts/flood.sh [--idle N] [--low-nofile N] [--max-connections N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
(cd "$root" && swift build -c release --product tilelayer >/dev/null 2>&1) || { echo "release build failed: run swift build -c release" >&2; exit 1; }
exec python3 "$root/scripts/hardening/flood.py" "$@"
