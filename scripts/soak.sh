#!/usr/bin/env bash
# Soak: 1,000,000 tile requests at 256 connections (wrk + scripts/hardening/soak.lua) over hits,
# misses (random debug tiles), @2x, 304s (If-None-Match), no-tile 404s and bad paths (400/404),
# checking every status per path class and Content-Length against the body; RSS after each
# quarter (the last within 10 % of the second); tiles checked against the files on disk and
# ETags checked for stability before and after.
#   scripts/soak.sh [--requests N] [--connections N] [--threads N] [--cache-bytes N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ulimit -n 8192 2>/dev/null || true
(cd "$root" && swift build -c release --product tilelayer >/dev/null 2>&1) || { echo "release build failed: run swift build -c release" >&2; exit 1; }
exec python3 "$root/scripts/hardening/soak.py" "$@"
