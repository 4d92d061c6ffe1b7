#!/usr/bin/env bash
# bench-static.sh: /static map views per second, tilelayer against the Python `staticmap` package.
#
# Builds tilelayer (release), serves tiles/world on a free loopback port, and renders the same
# 1024×768 view both ways from the same running server:
#   - tilelayer: GET /static/world/{lon},{lat},{zoom}/{W}x{H}.png, measured with wrk over one
#     connection (one view at a time, as the Python loop does) and, for information, over two;
#   - staticmap: StaticMap(W, H, url_template="http://127.0.0.1:PORT/world/{z}/{x}/{y}.png")
#     .render(zoom, center) then .save() as PNG (Pillow's default level), N times in a loop.
# The tiles are cached by a warm-up on both sides first. The view is at an integer zoom and
# centred on a pixel corner (staticmap only pastes whole tiles), so both images must be the same
# pixels; the script checks that. It prints both views/s and the ratio (TARGET: tilelayer ≥ 5×).
#
# Environment (defaults in brackets):
#   VIEW=0,0,3       lon,lat,zoom of the view (integer zoom; world has zoom 0-3)
#   WIDTH=1024 HEIGHT=768
#   DURATION=10      seconds of each wrk run
#   N=30             staticmap renders timed
#   TARGET=5         PASS when tilelayer/staticmap views/s is at least this
#   SKIP_BUILD=0     1: use the existing release binary
#   KEEP=0           1: keep the temp dir (config, server log, images)
# Needs wrk, curl and python3; installs staticmap (and Pillow) with pip when missing.
set -euo pipefail

VIEW=${VIEW:-0,0,3}
WIDTH=${WIDTH:-1024}
HEIGHT=${HEIGHT:-768}
DURATION=${DURATION:-10}
N=${N:-30}
TARGET=${TARGET:-5}
SKIP_BUILD=${SKIP_BUILD:-0}
KEEP=${KEEP:-0}

die() { echo "bench-static: $*" >&2; exit 2; }
for name in WIDTH HEIGHT DURATION N; do
    [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number (got '${!name}')"
done
[[ $VIEW =~ ^-?[0-9.]+,-?[0-9.]+,[0-9]+$ ]] || die "VIEW must be lon,lat,zoom with an integer zoom (got '$VIEW')"
IFS=, read -r LON LAT ZOOM <<<"$VIEW"

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
[[ -d $REPO/tiles/world ]] || die "no tile pyramid at $REPO/tiles/world"
command -v wrk >/dev/null 2>&1 || die "wrk is not installed (apt-get install wrk)"
command -v curl >/dev/null 2>&1 || die "curl is not installed"
command -v python3 >/dev/null 2>&1 || die "python3 is not installed"
if ! python3 -c 'import staticmap, PIL' 2>/dev/null; then
    echo "== installing staticmap with pip"
    python3 -m pip install -q staticmap || die "pip install staticmap failed"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-static.XXXXXX")
TL_PID=""
cleanup() {
    trap - EXIT INT TERM
    if [[ -n $TL_PID ]] && kill -0 "$TL_PID" 2>/dev/null; then
        kill -TERM "$TL_PID" 2>/dev/null || true
        wait "$TL_PID" 2>/dev/null || true
    fi
    if [[ $KEEP == 1 ]]; then echo "bench-static: kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then PATH="/opt/swift/usr/bin:$PATH"; fi
if [[ $SKIP_BUILD != 1 ]]; then
    echo "== building tilelayer (swift build -c release)"
    swift build -c release --package-path "$REPO" >"$TMP/build.log" 2>&1 || { tail -n 40 "$TMP/build.log" >&2; die "release build failed"; }
fi
TILELAYER="$(swift build -c release --package-path "$REPO" --show-bin-path)/tilelayer"
[[ -x $TILELAYER ]] || die "no release binary at $TILELAYER"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
cat >"$TMP/tilelayer.yml" <<YAML
server: {host: 127.0.0.1, port: $PORT, log: {level: warning, access: false}}
layers:
  - {name: world, default: true, source: {type: directory, path: $REPO/tiles/world}, minZoom: 0, maxZoom: 3}
YAML
"$TILELAYER" serve -c "$TMP/tilelayer.yml" >"$TMP/server.log" 2>&1 &
TL_PID=$!
for (( i = 0; i < 100; i++ )); do
    curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    kill -0 "$TL_PID" 2>/dev/null || { cat "$TMP/server.log" >&2; die "tilelayer did not start"; }
    sleep 0.1
done

BASE="http://127.0.0.1:$PORT"
VIEW_PATH="/static/world/$LON,$LAT,$ZOOM/${WIDTH}x${HEIGHT}.png"
TURNED_PATH="/static/world/$LON,$LAT,$(( ZOOM > 0 ? ZOOM - 1 : 0 )).5,30,25/${WIDTH}x${HEIGHT}.png"
echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(python3 -c 'import PIL; print("Pillow", PIL.__version__)'), staticmap $(python3 -m pip show staticmap 2>/dev/null | awk '/^Version/ {print $2}')"
echo "== view: $VIEW_PATH (tiles: $(curl -sf "$BASE${VIEW_PATH%.png}.json" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["tiles"]))'))"
curl -sf -o "$TMP/tilelayer.png" "$BASE$VIEW_PATH" || die "tilelayer did not render $VIEW_PATH"

# staticmap renders from the same server; the first render is the warm-up and the comparison image.
python3 - "$BASE" "$LON" "$LAT" "$ZOOM" "$WIDTH" "$HEIGHT" "$N" "$TMP" >"$TMP/python.txt" <<'PY'
import io, sys, time
from PIL import Image, ImageChops
from staticmap import StaticMap
base, lon, lat, zoom, width, height, n, tmp = sys.argv[1:]
lon, lat, zoom, width, height, n = float(lon), float(lat), int(zoom), int(width), int(height), int(n)
def view():
    m = StaticMap(width, height, url_template=base + "/world/{z}/{x}/{y}.png")
    image = m.render(zoom=zoom, center=[lon, lat])
    out = io.BytesIO()
    image.save(out, "PNG")
    return image, out.getvalue()
image, png = view()
image.save(tmp + "/staticmap.png")
ours = Image.open(tmp + "/tilelayer.png").convert("RGB")
box = ImageChops.difference(ours, image.convert("RGB")).getbbox()
start = time.perf_counter()
for _ in range(n):
    view()
elapsed = time.perf_counter() - start
same = "identical" if box is None else f"differ-in-{box[0]},{box[1]},{box[2]},{box[3]}"
print(f"{n / elapsed:.2f} {same} {ours.size[0]}x{ours.size[1]} {len(png)}")
PY
read -r PY_RATE SAME OUR_SIZE PY_BYTES <"$TMP/python.txt"
OUR_BYTES=$(wc -c <"$TMP/tilelayer.png")

wrk_rate() { # wrk_rate CONNECTIONS PATH: requests/s, failing on any non-2xx answer or socket error
    local out="$TMP/wrk-$1.txt"
    wrk -t"$1" -c"$1" -d"${DURATION}s" "$BASE$2" >"$out" 2>&1 || die "wrk failed: $(cat "$out")"
    if grep -qE 'Non-2xx|Socket errors' "$out"; then cat "$out" >&2; die "wrk saw failed requests"; fi
    awk '/^Requests\/sec/ { print $2 }' "$out"
}
wrk -t1 -c1 -d2s "$BASE$VIEW_PATH" >/dev/null 2>&1  # warm-up
TL_RATE=$(wrk_rate 1 "$VIEW_PATH")
TL_RATE2=$(wrk_rate 2 "$VIEW_PATH")
TL_TURNED=$(wrk_rate 1 "$TURNED_PATH")

echo "== results (${WIDTH}x${HEIGHT}, tiles cached, one view at a time unless noted)"
printf '   %-44s %8s views/s\n' "tilelayer /static (wrk, 1 connection)" "$TL_RATE"
printf '   %-44s %8.2f views/s\n' "staticmap render + PNG save (Python loop)" "$PY_RATE"
printf '   %-44s %8s views/s\n' "tilelayer /static (wrk, 2 connections)" "$TL_RATE2"
printf '   %-44s %8s views/s\n' "tilelayer zoom -0.5, bearing 30, tilt 25" "$TL_TURNED"
echo "   same pixels: $SAME ($OUR_SIZE); PNG bytes: tilelayer $OUR_BYTES, staticmap $PY_BYTES"
ratio=$(awk -v a="$TL_RATE" -v b="$PY_RATE" 'BEGIN { printf "%.1f", a / b }')
verdict=$(awk -v r="$ratio" -v t="$TARGET" 'BEGIN { print (r >= t) ? "PASS" : "BELOW TARGET" }')
echo "== ratio tilelayer/staticmap: ${ratio}x (target ${TARGET}x): $verdict"
