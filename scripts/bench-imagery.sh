#!/usr/bin/env bash
# bench-imagery.sh: tilelayer's geotiff layer against titiler (FastAPI + rio-tiler, uvicorn with one
# worker per core) on the same COG, the same tiles and the same resampling (bilinear), PNG.
#
#   cold   every request a tile not asked before (scripts/bench/imagery-cold.lua over a list of
#          distinct random tiles, zooms COLD_ZOOMS), 256 px and @2x, each server started fresh:
#          tiles a CPU-second of the server (utime+stime of it and its children, /proc) and req/s
#          under `wrk -c64`; the ratios tilelayer/titiler are printed (target: 3x or more).
#   warm   the same tiles again from tilelayer's memory cache, against the directory layer of the
#          shipped world tiles from the same cache (the hot-tile bar), and titiler asked again.
#   walk   tilelayer alone, a random cold walk (random zoom 0-9, random tile over the raster,
#          memory cache off for the layer) for WALK_SECONDS under wrk -c8: the largest RSS seen
#          (sampled each second) against GDAL's cache cap (GDAL_CACHE_MB) + 150 MB.
#
# The COG (~1 GB, uncompressed RGB, EPSG:4326, 256 px blocks, overviews) is made once in $WORK
# from tiles/world.tif upsampled (gdal_translate), never committed.
# Environment (defaults in brackets): WORK [/tmp/tilelayer-bench-imagery]  DURATION [20] seconds
# of each wrk run  TILES [30000] distinct tiles a list  COLD_ZOOMS [5-9]  WALK_SECONDS [600]
# GDAL_CACHE_MB [128]  BUILD [1] (0: use the release binary as built)  PARTS [cold,warm,walk]
# SERVERS ["tilelayer titiler"] (one alone: no ratios)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
WORK=${WORK:-/tmp/tilelayer-bench-imagery}; DURATION=${DURATION:-20}; TILES=${TILES:-30000}
COLD_ZOOMS=${COLD_ZOOMS:-5-9}; WALK_SECONDS=${WALK_SECONDS:-600}; GDAL_CACHE_MB=${GDAL_CACHE_MB:-128}
PARTS=${PARTS:-cold,warm,walk}
source "$root/scripts/bench/cpu-ticks.sh"
for tool in wrk uvicorn gdal_translate; do
    command -v "$tool" >/dev/null || { echo "bench-imagery.sh: $tool not found (wrk, gdal-bin: Debian; uvicorn, titiler: pip)" >&2; exit 1; }
done
python3 -c "import titiler.application, mercantile" || { echo "bench-imagery.sh: pip install titiler uvicorn mercantile" >&2; exit 1; }
mkdir -p "$WORK"
cog="$WORK/bench.tif"
if [ ! -f "$cog" ]; then
    echo "making $cog (~1 GB) from tiles/world.tif"
    gdal_translate -q -of COG -co COMPRESS=NONE -co BLOCKSIZE=256 -co BIGTIFF=YES -outsize 23168 11584 -r bilinear \
        "$root/tiles/world.tif" "$cog"
fi
if [ "${BUILD:-1}" = 1 ]; then (cd "$root" && swift build -c release 2>&1 | tail -1); fi
binary="$root/.build/release/tilelayer"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "COG: $(du -h "$cog" | cut -f1), $(gdalinfo "$cog" | grep 'Size is')"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
tree_pids() { local pid=$1; echo "$pid"; for child in $(pgrep -P "$pid" || true); do tree_pids "$child"; done; }
tree_ticks() { local -a pids; mapfile -t pids < <(tree_pids "$1"); cpu_ticks "${pids[@]}"; }
hz=$(getconf CLK_TCK)
server_pid=""
stop_server() { [ -n "$server_pid" ] && { kill $(tree_pids "$server_pid") 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }; server_pid=""; }
trap stop_server EXIT
wait_http() { for _ in $(seq 1 600); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done; echo "server at $1 did not answer" >&2; exit 1; }

start_tilelayer() {  # start_tilelayer MEMORY(true|false) → $port, $server_pid
    port=$(free_port)
    cat >"$WORK/tilelayer.yml" <<YAML
server: {host: 127.0.0.1, port: $port, log: {level: warning, access: false}, cache: {memoryBytes: 268435456, gdalBytes: $(( GDAL_CACHE_MB << 20 ))}}
layers:
  - {name: bench, source: {type: geotiff, path: $cog, resampling: bilinear}, maxZoom: 12, cache: {memory: $1}}
  - {name: world, source: {type: directory, path: $root/tiles/world}, maxZoom: 3}
YAML
    "$binary" serve --config "$WORK/tilelayer.yml" 2>"$WORK/tilelayer.log" &
    server_pid=$!
    wait_http "http://127.0.0.1:$port/healthz"
}
start_titiler() {
    port=$(free_port)
    # rio-tiler warns on every tile of a raster reaching ±85.06°; the warnings go to a log, not the figures.
    (cd "$WORK" && exec uvicorn titiler.application.main:app --host 127.0.0.1 --port "$port" --workers "$(nproc)" \
        --log-level warning 2>>"$WORK/titiler.log") &
    server_pid=$!
    wait_http "http://127.0.0.1:$port/healthz"
}
paths_for() {  # paths_for SERVER SCALE LIST → the list's tiles as that server's paths
    local suffix="" titiler_scale=""
    [ "$2" = 2 ] && { suffix="@2x"; titiler_scale="@2x"; }
    while read -r z x y; do
        if [ "$1" = tilelayer ]; then echo "/bench/$z/$x/$y$suffix.png"
        else echo "/cog/tiles/WebMercatorQuad/$z/$x/$y$titiler_scale.png?url=$cog&resampling=bilinear&reproject=bilinear"; fi
    done <"$3"
}
run_wrk() {  # run_wrk PATHS CONNECTIONS SECONDS → "rps tiles_per_cpu_s wrapped non2xx cpu_seconds requests"
    local before after requests line
    before=$(tree_ticks "$server_pid")
    line=$(BENCH_PATHS="$1" BENCH_THREADS=2 wrk -t2 -c"$2" -d"$3"s --timeout 30s -s "$root/scripts/bench/imagery-cold.lua" \
        "http://127.0.0.1:$port" | grep '^BENCH')
    after=$(tree_ticks "$server_pid")
    requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$line")
    python3 - "$before" "$after" "$requests" "$line" "$hz" <<'PY'
import sys
b, a = [sum(map(int, s.split())) for s in sys.argv[1:3]]
requests, line, hz = int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
fields = dict(kv.split("=") for kv in line.split()[1:])
cpu = (a - b) / hz
print(f"{float(fields['rps']):.1f} {requests / cpu if cpu else 0:.1f} {fields['wrapped']} {fields['non2xx']} {cpu:.1f} {requests}")
PY
}

read -r west south east north < <(gdalinfo -json "$cog" | python3 -c "
import json,sys; c=json.load(sys.stdin)['wgs84Extent']['coordinates'][0]; xs=[p[0] for p in c]; ys=[p[1] for p in c]
print(min(xs), max(-80,min(ys)), max(xs), min(80,max(ys)))")
declare -A results
if [[ $PARTS == *cold* || $PARTS == *warm* ]]; then
    for scale in 1 2; do
        python3 "$root/scripts/bench/imagery-tiles.py" "$TILES" "${COLD_ZOOMS%-*}" "${COLD_ZOOMS#*-}" "$west" "$south" "$east" "$north" "$scale" >"$WORK/tiles-$scale.txt"
        for server in ${SERVERS:-tilelayer titiler}; do
            paths_for "$server" "$scale" "$WORK/tiles-$scale.txt" >"$WORK/paths-$server-$scale.txt"
            "start_$server" true
            read -r rps per_cpu wrapped non2xx cpu asked < <(run_wrk "$WORK/paths-$server-$scale.txt" 64 "$DURATION")
            results[cold-$server-$scale]="$rps $per_cpu"
            echo "cold @${scale}x $server: $rps req/s, $per_cpu tiles/CPU-s ($cpu CPU-s; wrapped past the list: $wrapped; non-2xx: $non2xx)"
            if [[ $PARTS == *warm* ]]; then
                # The tiles just made, again (the head of the list that the cold run asked for).
                head -"$(( asked < 2000 ? asked : 2000 ))" "$WORK/paths-$server-$scale.txt" >"$WORK/warm-$server-$scale.txt"
                BENCH_PATHS="$WORK/warm-$server-$scale.txt" wrk -t2 -c64 -d3s -s "$root/scripts/bench/imagery-cold.lua" "http://127.0.0.1:$port" >/dev/null
                read -r rps per_cpu _ < <(run_wrk "$WORK/warm-$server-$scale.txt" 64 "$DURATION")
                echo "warm @${scale}x $server: $rps req/s, $per_cpu tiles/CPU-s"
                results[warm-$server-$scale]="$rps"
                if [ "$server" = tilelayer ]; then
                    suffix=$([ "$scale" = 2 ] && echo @2x || true)
                    (cd "$root/tiles" && find world -name '*.png') | sed "s|^|/|; s|\.png\$|$suffix.png|" >"$WORK/world-$scale.txt"
                    read -r rps _ < <(run_wrk "$WORK/world-$scale.txt" 64 "$DURATION")
                    echo "warm @${scale}x tilelayer directory layer (the hot-tile bar): $rps req/s"
                    results[warm-world-$scale]="$rps"
                fi
            fi
            stop_server
        done
        [ -n "${results[cold-titiler-$scale]:-}" ] || continue
        read -r t_rps t_cpu <<<"${results[cold-tilelayer-$scale]}"
        read -r p_rps p_cpu <<<"${results[cold-titiler-$scale]}"
        python3 -c "print(f'RATIO cold @${scale}x tilelayer/titiler: req/s {$t_rps/$p_rps:.2f}x, tiles per CPU-s {$t_cpu/$p_cpu:.2f}x')"
        if [[ $PARTS == *warm* ]]; then
            python3 -c "print(f'RATIO warm @${scale}x geotiff/directory layer (memory cache): {${results[warm-tilelayer-$scale]}/${results[warm-world-$scale]}:.2f}x; tilelayer/titiler: {${results[warm-tilelayer-$scale]}/${results[warm-titiler-$scale]}:.2f}x')"
        fi
    done
fi
if [[ $PARTS == *walk* ]]; then
    python3 "$root/scripts/bench/imagery-tiles.py" 200000 0 9 "$west" "$south" "$east" "$north" 7 >"$WORK/walk.txt"
    shuf --random-source=<(yes) "$WORK/walk.txt" | awk '{print "/bench/" $1 "/" $2 "/" $3 ".png"}' >"$WORK/walk-paths.txt"
    start_tilelayer false
    peak=0
    BENCH_PATHS="$WORK/walk-paths.txt" wrk -t2 -c8 -d"${WALK_SECONDS}"s --timeout 30s -s "$root/scripts/bench/imagery-cold.lua" \
        "http://127.0.0.1:$port" >"$WORK/walk-wrk.txt" &
    wrk_pid=$!
    while kill -0 "$wrk_pid" 2>/dev/null; do
        rss=$(awk '/VmRSS/ {print $2}' "/proc/$server_pid/status")
        (( rss > peak )) && peak=$rss
        sleep 1
    done
    grep '^BENCH' "$WORK/walk-wrk.txt" || true
    echo "walk: ${WALK_SECONDS}s random cold walk, peak RSS $(( peak / 1024 )) MB; bound: GDAL cache $GDAL_CACHE_MB MB + 150 MB = $(( GDAL_CACHE_MB + 150 )) MB: $([ $(( peak / 1024 )) -le $(( GDAL_CACHE_MB + 150 )) ] && echo within || echo OVER)"
    stop_server
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
