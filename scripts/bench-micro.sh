#!/usr/bin/env bash
# bench-micro.sh: the in-process micro benchmarks of Benchmarks/ (package-benchmark), release build.
#
# Runs `swift package benchmark` in Benchmarks/, which builds the suites in release mode and
# prints one table per benchmark (p0-p100 of wall clock, throughput and mallocs). The suites,
# in Benchmarks/Benchmarks/<Name>/<Name>.swift:
#   HTTPParsing  TileHTTP's HTTPRequestParser: a browser's tile GET; 16 pipelined in one read
#   Imaging      TilePNG on tiles/world: decode / encode a 256 px tile; an @2x tile (4 decodes,
#                mosaic, 512 px encode)
#   Service      TileServer: Router.match, the ETag hash of 20 and 64 KB, a hot (cached) tile
#                through TileService.respond with and without parsing, a 1024x768 static view
#   Validation   TileFormat.defect(in:), the check of every tile before it is kept: PNG 52 and
#                125 KB, JPEG, WebP, a 50 KB vector tile; a PNG decode for comparison
# docs/performance.md ("Micro benchmarks") has figures from this machine.
#
# Needs only what the main build needs (libpng-dev, libsqlite3-dev), no jemalloc: with Swift
# 6.3+ malloc counts come from the malloc-interposer package (the "MallocInterposer" trait of
# package-benchmark, set in Benchmarks/Package.swift). Instructions need hardware perf counters;
# where the kernel has none (this VM) that metric is left out of the tables.
#
# Arguments go to `swift package benchmark` after the defaults (--no-progress), e.g.
#   scripts/bench-micro.sh --target Imaging
#   scripts/bench-micro.sh --filter 'Hot tile.*'     (a regex that must match the whole name)
#   scripts/bench-micro.sh --grouping metric
#   scripts/bench-micro.sh list
# Baselines are written into Benchmarks/ and so need swift package's permission flag:
#   cd Benchmarks && swift package --allow-writing-to-package-directory benchmark baseline update main
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)

echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
cd "$REPO/Benchmarks"
swift package benchmark --no-progress "$@"
