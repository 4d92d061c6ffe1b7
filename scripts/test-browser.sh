#!/usr/bin/env bash
# Browser test of the front page: builds tilelayer, serves the shipped config/tilelayer.yml on a
# free loopback port, opens / in headless Chromium (scripts/browser-check.py over the DevTools
# protocol), and fails unless every layer preview loaded its tiles (at 1x and 2x, and for every
# URL variable) with no network or console error and every request in the access log was 2xx/304.
# Two sessions: the Leaflet page (when libjs-leaflet is installed) and the still-image page
# (TILELAYER_LEAFLET_DIR pointed at an empty folder). Screenshots: scripts/out/*.png.
# Without libjs-leaflet the Leaflet session cannot run: under CI=true that fails the check,
# otherwise it prints "SKIP browser/leaflet: …". Prints "N passed, N failed".
#   scripts/test-browser.sh                 # release build (the shipped flags, no assert)
#   CONFIGURATION=debug scripts/test-browser.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/scripts/out"
configuration="${CONFIGURATION:-release}"
time_limit="${BROWSER_TEST_SECONDS:-240}"   # each browser session; the build is not counted
mkdir -p "$out"
cd "$root"

if ! command -v chromium >/dev/null 2>&1; then
    echo "installing Debian's chromium (large, once)..."
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi

echo "building tilelayer ($configuration)..."
swift build -c "$configuration" --product tilelayer >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
binary="$(swift build -c "$configuration" --show-bin-path)/tilelayer"

server=""
empty="$(mktemp -d)"
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; fi
    rmdir "$empty" 2>/dev/null || true
}
trap cleanup EXIT

passed=0
failed=0
# session NAME LEAFLET_DIR [browser-check flags...]: one server, one browser session.
session() {
    local name="$1" leaflet="$2"
    shift 2
    local port log="$out/server-$name.log" result="$out/result-$name.txt" status=0
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    echo "== $name page"
    # Appending (O_APPEND), so the log can be emptied once the server is up.
    : >"$log"
    TILELAYER_LEAFLET_DIR="$leaflet" "$binary" serve --config config/tilelayer.yml --host 127.0.0.1 --port "$port" >>"$log" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" 2>/dev/null; then
            break
        fi
        kill -0 "$server" 2>/dev/null || { echo "  FAIL  server exited:"; cat "$log"; failed=$((failed + 1)); server=""; return; }
        sleep 0.2
    done
    : >"$log"   # the readiness probe is not part of what the page asked for
    timeout --kill-after=10 "$time_limit" python3 "$root/scripts/browser-check.py" --url "http://127.0.0.1:$port" \
        --out "$out" --name "$name" --access-log "$log" "$@" >"$result" 2>&1 || status=$?
    sed '$d' "$result"
    kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    server=""
    local counts
    counts="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$result" || true)"
    if [ -z "$counts" ]; then
        echo "  FAIL  browser session ended without a result (status $status; timed out after ${time_limit}s?)"
        failed=$((failed + 1))
        return
    fi
    passed=$((passed + $(echo "$counts" | cut -d' ' -f1)))
    failed=$((failed + $(echo "$counts" | cut -d' ' -f3)))
}

if [ -f /usr/share/javascript/leaflet/leaflet.js ]; then
    session leaflet /usr/share/javascript/leaflet --expect-mode leaflet
elif [ "${CI:-}" = true ]; then
    echo "  FAIL  /usr/share/javascript/leaflet is missing (apt-get install libjs-leaflet): the Leaflet page cannot be tested"
    failed=$((failed + 1))
else
    echo "SKIP browser/leaflet: /usr/share/javascript/leaflet is missing (apt-get install libjs-leaflet)"
fi
session still "$empty" --expect-mode image

echo "screenshots in $out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
