#!/usr/bin/env bash
# Slowloris check: 500 connections send one header byte per second against a release server with
# timeouts.headerSeconds 10 while a normal client requests a tile every 100 ms; prints the normal
# client's p50/p99/max latency (must stay under 1 s) and how many slow connections got 408.
#   scripts/slow-clients.sh [--slow N] [--header-seconds S] [--duration S]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ulimit -n "$(ulimit -Hn)"
(cd "$root" && swift build -c release --product tilelayer >/dev/null 2>&1) || { echo "release build failed: run swift build -c release" >&2; exit 1; }
exec python3 "$root/scripts/hardening/slow_clients.py" "$@"
