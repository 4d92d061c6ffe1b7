#!/usr/bin/env bash
# Browser test of the front page: builds tilelayer, serves the shipped config/tilelayer.yml on a
# free loopback port, opens / in headless Chromium (scripts/browser-check.py over the DevTools
# protocol), and fails unless every layer preview loaded its tiles (at 1x and 2x, and for every
# URL variable) with no network or console error and every request in the access log was 2xx/304.
# Screenshots: scripts/out/browser.png and browser@2x.png. Prints "N passed, N failed".
#   scripts/test-browser.sh                 # debug build
#   CONFIGURATION=release scripts/test-browser.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/scripts/out"
configuration="${CONFIGURATION:-debug}"
time_limit="${BROWSER_TEST_SECONDS:-240}"   # the browser part; the build is not counted
mkdir -p "$out"
cd "$root"

if ! command -v chromium >/dev/null 2>&1; then
    echo "installing Debian's chromium (large, once)..."
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi
leaflet_flag=()
if [ -f /usr/share/javascript/leaflet/leaflet.js ]; then
    leaflet_flag=(--expect-leaflet)
else
    echo "note: /usr/share/javascript/leaflet is missing (apt-get install libjs-leaflet): testing the still-image page"
fi

echo "building tilelayer ($configuration)..."
swift build -c "$configuration" --product tilelayer >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
binary="$(swift build -c "$configuration" --show-bin-path)/tilelayer"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
log="$out/server.log"
# Appending (O_APPEND), so the log can be emptied once the server is up.
: >"$log"
"$binary" serve --config config/tilelayer.yml --host 127.0.0.1 --port "$port" >>"$log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; }
trap cleanup EXIT

for _ in $(seq 100); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" 2>/dev/null; then
        break
    fi
    kill -0 "$server" 2>/dev/null || { echo "server exited:"; cat "$log"; echo "0 passed, 1 failed"; exit 1; }
    sleep 0.2
done
# The readiness probe is not part of what the page asked for.
: >"$log"

status=0
timeout --kill-after=10 "$time_limit" python3 "$root/scripts/browser-check.py" \
    --url "http://127.0.0.1:$port" --out "$out" --access-log "$log" "${leaflet_flag[@]}" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "browser test timed out after ${time_limit}s"
    echo "0 passed, 1 failed"
fi
exit "$status"
