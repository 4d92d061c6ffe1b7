#!/usr/bin/env bash
# The two server-core checks of issue 13 against a release build, on both transports:
#   - 600 MB of empty lines on one connection: answered 431 and closed, RSS grows < 64 MB;
#   - 8 tile reads hung (FIFOs for a hung disk) while hot tiles are timed: each < 1 s.
#   scripts/check-event-loops.sh [MEGABYTES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && swift build -c release --product tilelayer >/dev/null 2>&1) || { echo "release build failed: run swift build -c release" >&2; exit 1; }
status=0
for transport in epoll dispatch; do
    echo "== empty-line flood ($transport)"
    python3 "$root/scripts/hardening/empty_lines.py" --transport "$transport" --megabytes "${1:-600}" || status=1
    echo "== hung reads vs hot tiles ($transport)"
    python3 "$root/scripts/hardening/hung_reads.py" --transport "$transport" || status=1
done
exit $status
