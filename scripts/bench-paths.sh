#!/usr/bin/env bash
# bench-paths.sh: tilelayer's performance on each kind of tile, side by side with the closest
# peer in the same run (issue "Performance"). Everything runs on 127.0.0.1 only.
#
# Sections (SECTIONS picks some; each A/B section alternates the order of the servers every
# round and prints medians; ratios are tilelayer / peer):
#   1  directory tiles not in tilelayer's memory cache: a layer with `cache: {memory: false}` and a
#      second tilelayer with a 1 MB cache (the 85-tile list is 5.2 MB) vs nginx (open_file_cache)
#   2  MBTiles tiles, hot (memory cache), uncached (`cache.memory: false`) and uncached from a file
#      declared `immutable` (sent by reference) vs nginx serving the same tiles extracted to files
#      (TMS rows flipped to XYZ)
#   3  derived @2x tiles, hot (cached) and cold (`cache.memory: false`: every request renders);
#      peer: nginx serving the @2x bytes tilelayer rendered, as files (a peer for "hot" only;
#      for the cold render cost compare scripts/bench-imaging.sh, Pillow)
#   4  composites (/overlay/...), hot and cold, same peer as 3
#   5  upstream-proxied tiles: a tilelayer `url` layer over an nginx upstream on loopback vs nginx
#      as a caching proxy (proxy_pass + proxy_cache) over the same upstream; both caches warm
#   6  memory: VmRSS with IDLE_CONNS idle connections (each made one request) and an empty cache
#      vs nginx; RSS growth while filling a 64 MB cache past its size under load
#   7  start-up: exec to the first 200 for /0/0/0.png, median of STARTS starts (nginx alongside)
#   P  profile of the hot path: perf stat (context switches, CPU per request), strace -c
#      (syscalls per request), perf record -g on one hot tile
#   C  instructions (callgrind) and system calls (strace) per request, tilelayer and nginx:
#      scripts/bench-instructions.sh
#   8  hot tiles: scripts/bench-http.sh with ROUNDS=$HTTP_ROUNDS DURATION=$HTTP_DURATION
#
# Environment (defaults in brackets):
#   SECTIONS="1 2 3 4 5 6 7 P C 8"   which sections, in this order
#   DURATION=5  WARMUP=2  ROUNDS=3   seconds per measured wrk run, per warm-up, A/B rounds
#   CONNECTIONS=64  THREADS=2        wrk
#   IDLE_CONNS=10000  STARTS=10      section 6 and 7
#   CALLGRIND_REQUESTS=2000          section C
#   HTTP_ROUNDS=5  HTTP_DURATION=10  section 8
#   SKIP_BUILD=0  KEEP=0             as in bench-http.sh
set -euo pipefail

SECTIONS=${SECTIONS:-"1 2 3 4 5 6 7 P C 8"}
DURATION=${DURATION:-5}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
IDLE_CONNS=${IDLE_CONNS:-10000}
STARTS=${STARTS:-10}
CALLGRIND_REQUESTS=${CALLGRIND_REQUESTS:-2000}
HTTP_ROUNDS=${HTTP_ROUNDS:-5}
HTTP_DURATION=${HTTP_DURATION:-10}
SKIP_BUILD=${SKIP_BUILD:-0}
KEEP=${KEEP:-0}

die() { echo "bench-paths: $*" >&2; exit 2; }
for name in DURATION WARMUP ROUNDS CONNECTIONS THREADS IDLE_CONNS STARTS CALLGRIND_REQUESTS HTTP_ROUNDS HTTP_DURATION; do
    [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number (got '${!name}')"
done
(( ROUNDS >= 1 && DURATION >= 1 )) || die "need ROUNDS >= 1 and DURATION >= 1"
want() { [[ " $SECTIONS " == *" $1 "* ]]; }

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
BENCH="$SCRIPT_DIR/bench"
WORLD="$REPO/tiles/world"
MBTILES="$REPO/tiles/bluemarble.mbtiles"
LUA="$BENCH/paths.lua"
[[ -d $WORLD && -f $MBTILES && -f $LUA ]] || die "missing tiles or $LUA"

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then PATH="/opt/swift/usr/bin:$PATH"; fi
NGINX=$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)
for tool in swift wrk curl python3 "$NGINX"; do command -v "$tool" >/dev/null 2>&1 || die "$tool not found"; done

# --- processes, cleanup ----------------------------------------------------------------------

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-paths.XXXXXX")
chmod 755 "$TMP"
PIDS=()          # every server this script started (stopped on exit)
stop_pid() {     # TERM, up to 5 s, then KILL
    local pid=$1 i
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for (( i = 0; i < 50; i++ )); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    trap - EXIT INT TERM
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    if [[ $KEEP == 1 ]]; then echo "bench-paths: kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'echo "bench-paths: interrupted" >&2; exit 130' INT
trap 'echo "bench-paths: terminated" >&2; exit 143' TERM

USED_PORTS=" "
free_port() {
    local var=$1 port
    while :; do
        port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        [[ $USED_PORTS == *" $port "* ]] && continue
        USED_PORTS+="$port "; printf -v "$var" '%s' "$port"; return 0
    done
}

wait_ready() { # wait_ready NAME PID URL [SECONDS]
    local name=$1 pid=$2 url=$3 limit=${4:-30} i
    for (( i = 0; i < limit * 10; i++ )); do
        kill -0 "$pid" 2>/dev/null || { tail -n 30 "$TMP/$name.log" >&2 || true; die "$name exited during start"; }
        curl -fs -o /dev/null --max-time 2 "$url" && return 0
        sleep 0.1
    done
    tail -n 30 "$TMP/$name.log" >&2 || true
    die "$name did not answer $url within $limit s"
}

rss_kb() { local t=0 p; for p in "$@"; do t=$(( t + $(awk '/^VmRSS/ { print $2 }' "/proc/$p/status" 2>/dev/null || echo 0) )); done; echo "$t"; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) exit 1; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
SUMMARY="$TMP/summary.txt"
: >"$SUMMARY"
note() { echo "$*" >>"$SUMMARY"; }

# --- build, machine --------------------------------------------------------------------------

if [[ $SKIP_BUILD != 1 ]]; then
    echo "== building tilelayer (swift build -c release)"
    swift build -c release --package-path "$REPO" >"$TMP/build.log" 2>&1 || { tail -n 40 "$TMP/build.log" >&2; die "build failed"; }
    tail -n 1 "$TMP/build.log"
fi
TILELAYER="$(swift build -c release --package-path "$REPO" --show-bin-path)/tilelayer"
[[ -x $TILELAYER ]] || die "no release binary at $TILELAYER"

echo "== machine"
echo "   nproc $(nproc); cpu $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo); kernel $(uname -r)"
echo "   loadavg at start: $(loadavg) (other agents share these cores: figures are noisy; medians of alternating rounds)"
echo "   tilelayer $(git -C "$REPO" rev-parse --short HEAD); $("$NGINX" -v 2>&1); $(wrk -v 2>&1 | head -n 1)"
echo "   DURATION=$DURATION WARMUP=$WARMUP ROUNDS=$ROUNDS CONNECTIONS=$CONNECTIONS THREADS=$THREADS"

# --- tiles and path lists --------------------------------------------------------------------

PRE="$TMP/pre"                      # nginx's root: same URL paths as tilelayer's layers
mkdir -p "$PRE" "$TMP/nginx"/{client_body,proxy,fastcgi,uwsgi,scgi,cache} "$TMP/paths"
cp -r "$WORLD" "$PRE/world"
bm_count=$(python3 "$BENCH/extract-mbtiles.py" "$MBTILES" "$PRE/bluemarble")
ln -s world "$PRE/worldnc"; ln -s bluemarble "$PRE/bluemarblenc"; ln -s bluemarble "$PRE/bluemarbleim"
mkdir -p "$PRE/overlay"; ln -s overlay "$PRE/overlaync"
WORLD_TILES=$(cd "$WORLD" && find . -name '*.png' -printf '%P\n' | sort -t/ -k1,1n -k2,2n -k3,3n)
BM_TILES=$(cd "$PRE/bluemarble" && find . -name '*.png' -printf '%P\n' | sort -t/ -k1,1n -k2,2n -k3,3n)
P="$TMP/paths"
paths() { # paths FILE PREFIX SUFFIX LIST
    local tile; while IFS= read -r tile; do echo "$1/${tile%.png}$2.png"; done <<<"$3"
}
paths /world "" "$WORLD_TILES" >"$P/world"
paths /worldnc "" "$WORLD_TILES" >"$P/worldnc"
paths /bluemarble "" "$BM_TILES" >"$P/bm"
paths /bluemarblenc "" "$BM_TILES" >"$P/bmnc"
paths /bluemarbleim "" "$BM_TILES" >"$P/bmim"
paths /world "@2x" "$WORLD_TILES" >"$P/x2"
paths /worldnc "@2x" "$WORLD_TILES" >"$P/x2nc"
paths /overlay "" "$WORLD_TILES" >"$P/ov"
paths /overlaync "" "$WORLD_TILES" >"$P/ovnc"
paths /upstream "" "$WORLD_TILES" >"$P/up-tl"
paths "" "" "$WORLD_TILES" >"$P/up-ng"
echo "/world/0/0/0.png" >"$P/one"
echo "   tiles: world $(wc -l <"$P/world") ($(du -sh "$WORLD" | cut -f1)), bluemarble $bm_count extracted from MBTiles (TMS → XYZ)"

# --- servers ---------------------------------------------------------------------------------

free_port TL; free_port TL1; free_port NG; free_port NG_UP; free_port NG_PROXY

tl_config() { # tl_config FILE PORT CACHE_BYTES
    cat >"$1" <<EOF
server:
  host: 127.0.0.1
  port: $2
  cache: {memoryBytes: $3}
  limits: {maxConnections: 20000}
  log: {level: notice, access: false}
layers:
  - {name: world, default: true, source: {type: directory, path: "$WORLD"}, minZoom: 0, maxZoom: 3}
  - {name: worldnc, source: {type: directory, path: "$WORLD"}, minZoom: 0, maxZoom: 3, cache: {memory: false}}
  - {name: bluemarble, source: {type: mbtiles, path: "$MBTILES"}}
  - {name: bluemarblenc, source: {type: mbtiles, path: "$MBTILES"}, cache: {memory: false}}
  - {name: bluemarbleim, source: {type: mbtiles, path: "$MBTILES", immutable: true}, cache: {memory: false}}
  - {name: debug, source: {type: debug}, maxZoom: 22}
  - name: overlay
    source: {type: composite, layers: [{layer: world, zIndex: 0}, {layer: debug, zIndex: 100, opacity: 0.5}]}
    maxZoom: 3
  - name: overlaync
    source: {type: composite, layers: [{layer: world, zIndex: 0}, {layer: debug, zIndex: 100, opacity: 0.5}]}
    maxZoom: 3
    cache: {memory: false}
  - name: upstream
    source: {type: url, template: "http://127.0.0.1:$NG_UP/{z}/{x}/{y}.png", maxConcurrency: 64}
    minZoom: 0
    maxZoom: 3
EOF
}
tl_config "$TMP/tl.yml" "$TL" 268435456
tl_config "$TMP/tl1.yml" "$TL1" 1048576

user_line=""; (( EUID == 0 )) && user_line="user $(id -un) $(id -gn);"
cat >"$TMP/nginx.conf" <<EOF
$user_line
worker_processes auto;
worker_rlimit_nofile 20000;
daemon off;
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx-error.log warn;
events { worker_connections 16384; }
http {
    access_log off;
    client_body_temp_path $TMP/nginx/client_body; proxy_temp_path $TMP/nginx/proxy;
    fastcgi_temp_path $TMP/nginx/fastcgi; uwsgi_temp_path $TMP/nginx/uwsgi; scgi_temp_path $TMP/nginx/scgi;
    types { image/png png; }
    default_type application/octet-stream;
    sendfile on; tcp_nopush on; tcp_nodelay on;
    keepalive_timeout 65; keepalive_requests 100000;
    open_file_cache max=16384 inactive=60s; open_file_cache_valid 60s;
    etag on;
    proxy_cache_path $TMP/nginx/cache levels=1:2 keys_zone=tiles:10m max_size=256m inactive=1h use_temp_path=off;
    upstream up { server 127.0.0.1:$NG_UP; keepalive 64; }

    # The peer for sections 1-4 (and 6): files under the same URL paths as tilelayer's layers.
    server {
        listen 127.0.0.1:$NG backlog=4096;
        root $PRE;
        location / { add_header Access-Control-Allow-Origin * always; try_files \$uri =404; }
    }
    # The upstream both proxies fetch from (section 5): world at /{z}/{x}/{y}.png.
    server {
        listen 127.0.0.1:$NG_UP backlog=4096;
        root $WORLD;
        location / { try_files \$uri =404; }
    }
    # nginx as a caching proxy over that upstream (section 5).
    server {
        listen 127.0.0.1:$NG_PROXY backlog=4096;
        # tcp_nopush (TCP_CORK) with sendfile of a proxy_cache hit stalls each answer ~40 ms
        # (measured: 2.0k req/s, p50 44 ms with it; 25k req/s without); off for a fair peer.
        tcp_nopush off;
        location / {
            proxy_pass http://up;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_cache tiles;
            proxy_cache_valid 200 1h;
            proxy_cache_lock on;
            add_header X-Cache-Status \$upstream_cache_status;
            add_header Access-Control-Allow-Origin * always;
        }
    }
}
EOF
"$NGINX" -t -q -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/nginx-error.log" || die "nginx rejected $TMP/nginx.conf"
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/nginx-error.log" >"$TMP/nginx.log" 2>&1 &
NG_PID=$!; PIDS+=("$NG_PID")

start_tl() { # start_tl NAME CONFIG PORT: sets STARTED_PID (ulimit -n raised for idle connections)
    (ulimit -n "$(ulimit -Hn)"; exec "$TILELAYER" serve --config "$2" --port "$3") >"$TMP/$1.log" 2>&1 &
    STARTED_PID=$!; PIDS+=("$STARTED_PID")
    wait_ready "$1" "$STARTED_PID" "http://127.0.0.1:$3/world/0/0/0.png"
}
start_tl tilelayer "$TMP/tl.yml" "$TL"; TL_PID=$STARTED_PID
start_tl tilelayer-1mb "$TMP/tl1.yml" "$TL1"; TL1_PID=$STARTED_PID
wait_ready nginx "$NG_PID" "http://127.0.0.1:$NG/world/0/0/0.png"
NG_WORKERS=$(pgrep -P "$NG_PID" | paste -sd' ' -)
echo "== servers: tilelayer :$TL (pid $TL_PID, 256 MB cache), tilelayer :$TL1 (pid $TL1_PID, 1 MB cache)," \
     "nginx :$NG files, :$NG_UP upstream, :$NG_PROXY caching proxy (pid $NG_PID, workers $NG_WORKERS)"

# Pre-rendered peers for sections 3-4: the bytes tilelayer derives, saved as files for nginx.
save_rendered() { # save_rendered PATHFILE
    local path
    while IFS= read -r path; do
        mkdir -p "$(dirname "$PRE$path")"
        curl -fs -o "$PRE$path" --max-time 30 "http://127.0.0.1:$TL$path" || die "tilelayer failed $path"
    done <"$1"
}
if want 3 || want 4; then
    echo "== rendering the @2x and overlay tiles once through tilelayer, saved as files for nginx"
    t0=$(date +%s.%N); save_rendered "$P/x2"; save_rendered "$P/ov"; t1=$(date +%s.%N)
    echo "   170 derived tiles (85 @2x + 85 overlay), first request each on a fresh cache, one curl at a time:" \
         "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f s", b - a }')" \
         "(@2x $(du -sch $(sed "s|^|$PRE|" "$P/x2") | tail -n 1 | cut -f1), overlay $(du -sch $(sed "s|^|$PRE|" "$P/ov") | tail -n 1 | cut -f1))"
fi

# Same bytes: tilelayer and nginx agree on every native tile; the proxy answers with the upstream's.
check_same() { # check_same PORT_A PATHS_A PORT_B PATHS_B
    local a b bad=0; exec 7<"$2" 8<"$4"
    while IFS= read -r a <&7 && IFS= read -r b <&8; do
        curl -fs -o "$TMP/a.bin" --max-time 10 "http://127.0.0.1:$1$a" || { echo "   FAIL :$1$a" >&2; bad=1; continue; }
        curl -fs -o "$TMP/b.bin" --max-time 10 "http://127.0.0.1:$3$b" || { echo "   FAIL :$3$b" >&2; bad=1; continue; }
        cmp -s "$TMP/a.bin" "$TMP/b.bin" || { echo "   FAIL $a: bodies differ" >&2; bad=1; }
    done
    exec 7<&- 8<&-
    (( bad == 0 )) || die "servers disagree; not benchmarking unlike things"
}
echo "== checking identical bodies (world, worldnc, bluemarble, bluemarblenc, bluemarbleim, upstream vs nginx and its proxy)"
check_same "$TL" "$P/world" "$NG" "$P/world"
check_same "$TL" "$P/worldnc" "$NG" "$P/world"
check_same "$TL1" "$P/world" "$NG" "$P/world"
check_same "$TL" "$P/bm" "$NG" "$P/bm"
check_same "$TL" "$P/bmnc" "$NG" "$P/bm"
check_same "$TL" "$P/bmim" "$NG" "$P/bm"
check_same "$TL" "$P/up-tl" "$NG_PROXY" "$P/up-ng"
echo "   ok; proxy cache now: $(curl -s -D - -o /dev/null "http://127.0.0.1:$NG_PROXY/0/0/0.png" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache-status" { print $2 }') on a repeat"

# --- wrk A/B ---------------------------------------------------------------------------------

# wrk_run PORT PATHFILE SECONDS OUT [CONNECTIONS]: sets R_RPS R_P50 R_P99 R_ERR R_REQ.
wrk_run() {
    local port=$1 list=$2 secs=$3 out=$4 conns=${5:-$CONNECTIONS} line kv
    BENCH_PATHS="$list" timeout -k 5 $(( secs + 30 )) wrk -t "$THREADS" -c "$conns" -d "${secs}s" --timeout 5s \
        --latency -s "$LUA" "http://127.0.0.1:$port/" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed on :$port"; }
    line=$(grep '^BENCH ' "$out") || { cat "$out" >&2; die "no wrk summary"; }
    local -A v=()
    for kv in ${line#BENCH }; do v[${kv%%=*}]=${kv#*=}; done
    R_RPS=${v[rps]}; R_P50=${v[p50_us]}; R_P99=${v[p99_us]}; R_REQ=${v[requests]}
    R_ERR=$(( v[err_connect] + v[err_read] + v[err_write] + v[err_timeout] + v[err_status] ))
    local non2xx; non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$out")
    [[ -n $non2xx ]] && (( non2xx > v[err_status] )) && R_ERR=$(( R_ERR + non2xx - v[err_status] ))
    return 0
}

# compare TITLE "LABEL PORT PATHFILE" ...: the last contender is the peer; rounds rotate who goes
# first; prints per-round lines, medians and each contender's median per-round ratio to the peer.
compare() {
    local title=$1; shift
    local -a who=("$@"); local n=${#who[@]} r i k label port list
    local -A rps p50 p99
    echo; echo "== $title"
    echo "   loadavg before: $(loadavg)"
    if (( WARMUP > 0 )); then
        for (( i = 0; i < n; i++ )); do read -r label port list <<<"${who[$i]}"; wrk_run "$port" "$list" "$WARMUP" "$TMP/warm.txt"; done
    fi
    printf '   %-5s %-34s %10s %9s %9s %6s\n' round server "req/s" "p50 ms" "p99 ms" errors
    for (( r = 1; r <= ROUNDS; r++ )); do
        for (( k = 0; k < n; k++ )); do
            i=$(( (k + r - 1) % n ))
            (( r % 2 == 0 )) && i=$(( n - 1 - i ))
            read -r label port list <<<"${who[$i]}"
            wrk_run "$port" "$list" "$DURATION" "$TMP/wrk-${label//[^a-zA-Z0-9]/_}-$r.txt"
            rps[$r,$i]=$R_RPS; p50[$r,$i]=$R_P50; p99[$r,$i]=$R_P99
            printf '   %-5s %-34s %10.0f %9s %9s %6d\n' "$r" "$label" "$R_RPS" "$(ms "$R_P50")" "$(ms "$R_P99")" "$R_ERR"
            (( R_ERR == 0 )) || die "$label: $R_ERR failed requests ($TMP/wrk-*)"
        done
    done
    local peer=$(( n - 1 )) m50 m99 mr ratio
    read -r label port list <<<"${who[$peer]}"; local peer_label=$label
    echo "   medians:"
    for (( i = 0; i < n; i++ )); do
        read -r label port list <<<"${who[$i]}"
        mr=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${rps[$r,$i]}"; done | median)
        m50=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${p50[$r,$i]}"; done | median)
        m99=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${p99[$r,$i]}"; done | median)
        ratio=""
        if [[ $label == *cold* ]]; then
            ratio="no peer (renders every request)"
        elif (( i != peer )); then
            ratio=$(for (( r = 1; r <= ROUNDS; r++ )); do awk -v a="${rps[$r,$i]}" -v b="${rps[$r,$peer]}" 'BEGIN { printf "%.4f\n", a / b }'; done | median)
            ratio=$(printf '%.2fx %s' "$ratio" "$peer_label")
        fi
        printf '   %-34s %10.0f req/s  p50 %7s ms  p99 %7s ms  %s\n' "$label" "$mr" "$(ms "$m50")" "$(ms "$m99")" "$ratio"
        note "$(printf '%-28s | %-34s | %8.0f | %6s | %6s | %s' "$title" "$label" "$mr" "$(ms "$m50")" "$(ms "$m99")" "${ratio:-peer}")"
    done
    echo "   loadavg after: $(loadavg)"
}

if want 1; then
    compare "1 directory, not cached" \
        "tilelayer-memory:false $TL $P/worldnc" "tilelayer-1MB-cache $TL1 $P/world" "nginx-files $NG $P/world"
    hits=$(curl -s "http://127.0.0.1:$TL1/metrics" | awk '/^tilelayer_cache_(hits|misses)_total/ { s[$1 ~ /hits/ ? "hits" : "misses"] += $2 } END { printf "hits %d, misses %d", s["hits"], s["misses"] }')
    echo "   1 MB-cache tilelayer: $hits since start (the list is 5.2 MB: mostly misses)"
fi
if want 2; then
    compare "2 MBTiles" \
        "tilelayer-mbtiles-hot $TL $P/bm" "tilelayer-mbtiles-memory:false $TL $P/bmnc" \
        "tilelayer-mbtiles-immutable $TL $P/bmim" "nginx-extracted-files $NG $P/bm"
fi
if want 3; then
    compare "3 derived @2x" \
        "tilelayer-@2x-hot $TL $P/x2" "tilelayer-@2x-cold(memory:false) $TL $P/x2nc" "nginx-prerendered-@2x $NG $P/x2"
    echo "   note: nginx serves files tilelayer rendered: a peer for the hot figure only. Cold = every"
    echo "   request decodes 4 children (or the parent), stitches/upscales and encodes a 512 px PNG;"
    echo "   compare that with Pillow's figures from scripts/bench-imaging.sh."
fi
if want 4; then
    compare "4 composite /overlay" \
        "tilelayer-overlay-hot $TL $P/ov" "tilelayer-overlay-cold(memory:false) $TL $P/ovnc" "nginx-prerendered-overlay $NG $P/ov"
    echo "   note: cold = the composite itself uncached (decode world + debug tiles, blend, encode); its"
    echo "   source layers world and debug keep their cache. nginx is a peer for the hot figure only."
fi
if want 5; then
    compare "5 upstream proxied, hot" \
        "tilelayer-url-layer $TL $P/up-tl" "nginx-proxy_cache $NG_PROXY $P/up-ng"
    echo "   both over the nginx upstream :$NG_UP serving tiles/world; both caches warm (the bodies check filled them)"
fi

# --- P: profile of the hot path --------------------------------------------------------------

if want P; then
    echo; echo "== P profile: one hot tile (/world/0/0/0.png), $CONNECTIONS connections"
    # CPU, context switches per request (perf stat on the server's process while wrk runs).
    for who in "tilelayer $TL_PID $TL" "nginx $NG_PID $NG"; do
        read -r name pid port <<<"$who"
        pids=$pid; [[ $name == nginx ]] && pids=$(pgrep -P "$NG_PID" | paste -sd, -)
        perf stat -e task-clock,context-switches,cpu-migrations -p "$pids" -o "$TMP/stat-$name.txt" -- sleep "$DURATION" &
        spid=$!
        wrk_run "$port" "$P/one" "$DURATION" "$TMP/wrk-stat-$name.txt"
        wait "$spid" || true
        awk -v req="$R_REQ" -v rps="$R_RPS" -v name="$name" '
            /task-clock/ { gsub(",", "", $1); cpu = $1 }
            /context-switches/ { gsub(",", "", $1); cs = $1 }
            /cpu-migrations/ { gsub(",", "", $1); mig = $1 }
            END { printf "   %-9s %8.0f req/s  CPU %.1f us/request  context switches %.3f/request  migrations %.4f/request\n",
                  name, rps, cpu * 1000 / req, cs / req, mig / req }' "$TMP/stat-$name.txt"
    done
    # Syscalls per request (strace slows the server, so the mix is that of a slower server).
    if command -v strace >/dev/null 2>&1; then
        for who in "tilelayer $TL_PID $TL" "nginx $NG_PID $NG"; do
            read -r name pid port <<<"$who"
            args=(-p "$pid"); [[ $name == nginx ]] && { args=(); for w in $(pgrep -P "$NG_PID"); do args+=(-p "$w"); done; }
            strace -f -c -o "$TMP/strace-$name.txt" "${args[@]}" 2>/dev/null &
            spid=$!; sleep 1
            wrk_run "$port" "$P/one" 3 "$TMP/wrk-strace-$name.txt" 16
            kill -INT "$spid"; wait "$spid" 2>/dev/null || true
            echo "   $name under strace -f -c ($R_REQ requests, 16 connections): syscalls per request:"
            awk -v req="$R_REQ" '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { name = $NF; calls = $4; if (calls + 0 > 0 && calls / req >= 0.01) printf "      %-16s %6.3f\n", name, calls / req; tot += calls }
                                 END { printf "      %-16s %6.3f\n", "total", tot / req }' "$TMP/strace-$name.txt"
        done
    fi
    # Where the time goes: perf record -g on tilelayer during a wrk run on the hot tile.
    perf record -g -o "$TMP/perf.data" -p "$TL_PID" -- sleep "$DURATION" >/dev/null 2>&1 &
    spid=$!
    wrk_run "$TL" "$P/one" "$DURATION" "$TMP/wrk-perf.txt"
    wait "$spid" || true
    echo "   perf record -g -p $TL_PID during wrk ($(printf '%.0f' "$R_RPS") req/s); perf report --no-children --sort dso:"
    perf report -i "$TMP/perf.data" --no-children --sort dso --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -n 12 | sed 's/^/     /' || true
    echo "   perf report --no-children --sort dso,symbol (top 45, demangled):"
    perf report -i "$TMP/perf.data" --no-children --sort dso,symbol --stdio -g none 2>/dev/null | grep -E '^ +[0-9]' | head -n 45 \
        | { swift demangle --simplified 2>/dev/null || cat; } | cut -c1-170 | sed 's/^/     /' || true
    cp "$TMP/perf.data" "${PERF_DATA_OUT:-/dev/null}" 2>/dev/null || true
fi

# --- 6: memory -------------------------------------------------------------------------------

if want 6; then
    echo; echo "== 6 memory"
    free_port TLM
    cat >"$TMP/tlm.yml" <<EOF
server:
  host: 127.0.0.1
  port: $TLM
  cache: {memoryBytes: 67108864}
  limits: {maxConnections: 20000}
  timeouts: {idleSeconds: 300}
  log: {level: notice, access: false}
layers:
  - {name: world, default: true, source: {type: directory, path: "$WORLD"}, minZoom: 0, maxZoom: 3}
  - {name: debug, source: {type: debug}, maxZoom: 22}
  - name: overlay
    source: {type: composite, layers: [{layer: world, zIndex: 0}, {layer: debug, zIndex: 100, opacity: 0.5}]}
    maxZoom: 3
EOF
    start_tl tilelayer-mem "$TMP/tlm.yml" "$TLM"; TLM_PID=$STARTED_PID
    sleep 1
    rss0=$(rss_kb "$TLM_PID"); ng_pids="$NG_PID $(pgrep -P "$NG_PID" | paste -sd' ' -)"; ngrss0=$(rss_kb $ng_pids)
    echo "   idle connections: each GET /0/0/0.png once, then held (cache: that one tile, ~100 KB)"
    for who in "tilelayer $TLM" "nginx $NG"; do
        read -r name port <<<"$who"
        [[ $name == nginx ]] && path=/world/0/0/0.png || path=/0/0/0.png
        coproc IDLE { ulimit -n "$(ulimit -Hn)"; exec python3 "$BENCH/idle-conns.py" "$port" "$IDLE_CONNS" "$path" 120; }
        read -r ready <&"${IDLE[0]}" || die "idle-conns.py failed"
        sleep 2
        if [[ $name == tilelayer ]]; then
            rss1=$(rss_kb "$TLM_PID"); conns=$(curl -s "http://127.0.0.1:$TLM/metrics" | awk '/^tilelayer_http_connections(_open)? / { print $2 }' | head -n 1)
            thr=$(awk '/^Threads/ { print $2 }' "/proc/$TLM_PID/status")
            echo "   tilelayer: $ready; VmRSS $(mb "$rss0") MB before → $(mb "$rss1") MB with them open (+$(mb $(( rss1 - rss0 ))) MB," \
                 "$(awk -v d=$(( rss1 - rss0 )) -v n="$IDLE_CONNS" 'BEGIN { printf "%.1f", d * 1024 / n }') bytes/connection); threads $thr; target <= 150 MB"
            note "$(printf '%-28s | %-34s | %s' "6 memory" "tilelayer, $IDLE_CONNS idle conns" "VmRSS $(mb "$rss1") MB (fresh $(mb "$rss0") MB), target <= 150 MB")"
        else
            ngrss1=$(rss_kb $ng_pids)
            echo "   nginx:     $ready; VmRSS (master + workers) $(mb "$ngrss0") MB before → $(mb "$ngrss1") MB (+$(mb $(( ngrss1 - ngrss0 ))) MB)"
            note "$(printf '%-28s | %-34s | %s' "6 memory" "nginx, $IDLE_CONNS idle conns" "VmRSS $(mb "$ngrss1") MB (before $(mb "$ngrss0") MB)")"
        fi
        wfd=${IDLE[1]}; exec {wfd}>&-
        read -r held <&"${IDLE[0]}" || true
        echo "      after the hold: $held"
        wait "$IDLE_PID" 2>/dev/null || true
    done
    sleep 2
    echo "   tilelayer after they closed: VmRSS $(mb "$(rss_kb "$TLM_PID")") MB"
    stop_pid "$TLM_PID"

    # Growth: fresh server with a 64 MB cache, fill it past its size under load.
    start_tl tilelayer-mem "$TMP/tlm.yml" "$TLM"; TLM_PID=$STARTED_PID
    sleep 1
    {
        paths /world "" "$WORLD_TILES"; paths /world "@2x" "$WORLD_TILES"
        paths /overlay "" "$WORLD_TILES"; paths /overlay "@2x" "$WORLD_TILES"
    } >"$P/fill-world"
    python3 - "$P/fill-debug" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    for z in range(0, 9):
        for x in range(1 << z):
            for y in range(1 << z):
                f.write(f"/debug/{z}/{x}/{y}@2x.png\n")
EOF
    metric() { curl -s "http://127.0.0.1:$TLM/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
    rss0=$(rss_kb "$TLM_PID")
    wrk_run "$TLM" "$P/fill-world" 5 "$TMP/wrk-fill1.txt"
    rss1=$(rss_kb "$TLM_PID"); cb1=$(metric tilelayer_cache_bytes)
    echo "   64 MB cache; fresh VmRSS $(mb "$rss0") MB"
    echo "   after the whole world pyramid z0-3 + @2x and overlay z0-3 + @2x (340 paths, wrk 5 s, $(printf '%.0f' "$R_RPS") req/s):" \
         "VmRSS $(mb "$rss1") MB (+$(mb $(( rss1 - rss0 ))) MB), cache $(mb $(( ${cb1%.*} / 1024 ))) MB"
    for pass in 1 2; do
        wrk_run "$TLM" "$P/fill-debug" 15 "$TMP/wrk-fill-debug.txt"
        rss2=$(rss_kb "$TLM_PID"); cb2=$(metric tilelayer_cache_bytes); ev=$(metric tilelayer_cache_evictions_total)
        echo "   after debug @2x z0-8 pass $pass ($(wc -l <"$P/fill-debug") paths, wrk 15 s, $R_REQ requests):" \
             "VmRSS $(mb "$rss2") MB (+$(mb $(( rss2 - rss0 ))) MB over fresh), cache $(mb $(( ${cb2%.*} / 1024 ))) MB, evictions ${ev:-?}"
    done
    # Steady state: in-flight renders done and the server's periodic return of free heap pages
    # (every 10 s) has run.
    sleep 12
    rss3=$(rss_kb "$TLM_PID"); cb3=$(metric tilelayer_cache_bytes)
    echo "   12 s after the load: VmRSS $(mb "$rss3") MB (+$(mb $(( rss3 - rss0 ))) MB over fresh), cache $(mb $(( ${cb3%.*} / 1024 ))) MB"
    note "$(printf '%-28s | %-34s | %s' "6 memory" "tilelayer, 64 MB cache filled" "VmRSS $(mb "$rss0") → $(mb "$rss2") MB under load (+$(mb $(( rss2 - rss0 ))) MB), $(mb "$rss3") MB 12 s later (+$(mb $(( rss3 - rss0 ))) MB); cache $(mb $(( ${cb3%.*} / 1024 ))) MB; target growth <= 64 MB + small")"
    stop_pid "$TLM_PID"
fi

# --- 7: start-up -----------------------------------------------------------------------------

if want 7; then
    echo; echo "== 7 start-up: exec → first 200 for /0/0/0.png, $STARTS starts each"
    free_port TLS; free_port NGS
    sed "s/^  port: .*/  port: $TLS/" "$TMP/tl.yml" >"$TMP/tls.yml"
    python3 "$BENCH/startup.py" "$TLS" /0/0/0.png "$STARTS" -- "$TILELAYER" serve --config "$TMP/tls.yml" --port "$TLS" | sed 's/^/   tilelayer /'
    mkdir -p "$TMP/ngs"
    cat >"$TMP/ngs.conf" <<EOF
$user_line
worker_processes auto; daemon off; pid $TMP/ngs/nginx.pid; error_log $TMP/ngs/error.log warn;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path $TMP/ngs; proxy_temp_path $TMP/ngs; fastcgi_temp_path $TMP/ngs;
       uwsgi_temp_path $TMP/ngs; scgi_temp_path $TMP/ngs;
       server { listen 127.0.0.1:$NGS; root $WORLD; } }
EOF
    python3 "$BENCH/startup.py" "$NGS" /0/0/0.png "$STARTS" -- "$NGINX" -p "$TMP/ngs" -c "$TMP/ngs.conf" -e "$TMP/ngs/error.log" | sed 's/^/   nginx     /'
    note "$(printf '%-28s | %-34s | %s' "7 start-up" "see the STARTUP lines" "target <= 200 ms")"
fi

# --- C: callgrind ----------------------------------------------------------------------------

if want C; then
    echo; echo "== C instructions and system calls per request: scripts/bench-instructions.sh (COUNT=$CALLGRIND_REQUESTS)"
    COUNT=$CALLGRIND_REQUESTS TILELAYER="$TILELAYER" "$SCRIPT_DIR/bench-instructions.sh" 2>&1 | tee "$TMP/instructions.txt" | sed 's/^/   /'
    for name in tilelayer nginx; do
        line=$(awk -v n="$name" '$1 == n && NF == 3 { print $2 " instructions/request, " $3 " syscalls/request" }' "$TMP/instructions.txt")
        note "$(printf '%-28s | %-34s | %s' "C instructions" "$name" "${line:-see the output above}")"
    done
fi

# --- 8: hot tiles (bench-http.sh) ------------------------------------------------------------

if want 8; then
    echo; echo "== 8 hot tiles: scripts/bench-http.sh (ROUNDS=$HTTP_ROUNDS DURATION=$HTTP_DURATION SKIP_BUILD=1)"
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done   # our servers out of the way
    PIDS=()
    ROUNDS=$HTTP_ROUNDS DURATION=$HTTP_DURATION SKIP_BUILD=1 "$SCRIPT_DIR/bench-http.sh" 2>&1 | tee "$TMP/bench-http.txt" | sed 's/^/   /'
    line=$(grep 'median requests/s' "$TMP/bench-http.txt" || true)
    note "$(printf '%-28s | %-34s | %s' "8 hot (bench-http.sh)" "tilelayer vs nginx" "$(echo $line); $(grep -E 'median (p99|ratio)' "$TMP/bench-http.txt" | tr -s ' ' | paste -sd';' -)")"
fi

echo; echo "== summary (section | server | median req/s | p50 ms | p99 ms | median per-round ratio to the peer)"
sed 's/^/   /' "$SUMMARY"
echo "   loadavg at the end: $(loadavg)"
