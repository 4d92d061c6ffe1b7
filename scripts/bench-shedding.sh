#!/usr/bin/env bash
# Load shedding under wrk -c1000 on cold composites (issue 56): refused answers' latency, and a
# hot tile's req/s with and without the flood. Needs wrk and a release build (made here).
#   scripts/bench-shedding.sh [--flood-connections N] [--hot-connections N] [--seconds N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command -v wrk >/dev/null || { echo "wrk is needed (Debian: apt-get install wrk)" >&2; exit 1; }
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
(cd "$root" && swift build -c release --product tilelayer >/dev/null 2>&1) || { echo "release build failed: run swift build -c release" >&2; exit 1; }
exec python3 "$root/scripts/hardening/shedding.py" "$@"
