#!/usr/bin/env bash
# bench-http.sh: HTTP throughput of tilelayer against nginx serving the same tile files.
#
# Builds tilelayer (release), starts it and a real nginx on free loopback ports with generated
# configs in a temp dir, checks both answer every benchmarked path with 200 and the same bytes,
# then runs wrk against them in turns (A/B, alternating the order each round) over the same list
# of tile paths, and prints a table, the medians and the median ratio tilelayer/nginx.
#
# Environment (defaults in brackets):
#   DURATION=10      seconds of each measured wrk run
#   WARMUP=5         seconds of the warm-up run of each server (0: none)
#   ROUNDS=3         A/B rounds (each round measures both servers once)
#   CONNECTIONS=64   wrk connections
#   THREADS=2        wrk threads
#   TARGET=1.0       PASS when the median ratio tilelayer/nginx requests/s is >= this
#   PATHS_MODE=all   all: every tile of tiles/world zoom 0-3 (85); hot: zoom 0-1 only (5 tiles)
#   URL_STYLE=plain  plain: /{z}/{x}/{y}.png; layer: /world/{z}/{x}/{y}.png; mixed: both
#   SKIP_BUILD=0     1: do not run `swift build`, use the existing release binary
#   BUILD_TIMEOUT=3600  seconds the release build may take
#   TRANSPORT=epoll  tilelayer's server.transport: epoll or dispatch
#   ACCESS_LOG=0     1: access logs on at both sides (tilelayer's batched log to its log file,
#                    nginx's default access_log to a file)
#   KEEP=0           1: keep the temp dir (configs, logs, raw wrk output) and print its path
#   OPEN_FILE_SECONDS=60  how long both servers use an opened tile file before they look at its
#                    path again: tilelayer's layer cache.openFileSeconds and nginx's
#                    open_file_cache_valid (whole seconds); empty: tilelayer's default (1 s)
#                    against nginx's 60 s
#
# Exit status: 0 whether or not the target is met; non-zero when the build fails, a server does
# not start or dies, the two servers disagree on a tile, or any request failed (socket errors,
# non-2xx/3xx answers).
set -euo pipefail

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-5}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
TARGET=${TARGET:-1.0}
PATHS_MODE=${PATHS_MODE:-all}
URL_STYLE=${URL_STYLE:-plain}
SKIP_BUILD=${SKIP_BUILD:-0}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-3600}
KEEP=${KEEP:-0}
TRANSPORT=${TRANSPORT:-epoll}
ACCESS_LOG=${ACCESS_LOG:-0}
export OPEN_FILE_SECONDS=${OPEN_FILE_SECONDS-60}

die() { echo "bench-http: $*" >&2; exit 2; }

for name in DURATION WARMUP ROUNDS CONNECTIONS THREADS BUILD_TIMEOUT; do
    [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number (got '${!name}')"
done
(( DURATION >= 1 )) || die "DURATION must be at least 1"
(( ROUNDS >= 1 )) || die "ROUNDS must be at least 1"
(( THREADS >= 1 && CONNECTIONS >= THREADS )) || die "need THREADS >= 1 and CONNECTIONS >= THREADS"
[[ $TARGET =~ ^[0-9]+([.][0-9]+)?$ ]] || die "TARGET must be a number (got '$TARGET')"
case $PATHS_MODE in all|hot) ;; *) die "PATHS_MODE must be all or hot (got '$PATHS_MODE')" ;; esac
case $URL_STYLE in plain|layer|mixed) ;; *) die "URL_STYLE must be plain, layer or mixed (got '$URL_STYLE')" ;; esac

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
TILES="$REPO/tiles/world"
LUA="$SCRIPT_DIR/bench/paths.lua"
[[ -d $TILES ]] || die "no tile pyramid at $TILES"
[[ -f $LUA && -f $SCRIPT_DIR/bench/nginx.conf.template ]] || die "missing helper files in $SCRIPT_DIR/bench"

# --- processes and cleanup -------------------------------------------------------------------

TMP=""
TL_PID=""
NG_PID=""
WRK_PID=""

stop_pid() { # stop_pid PID: TERM, up to 5 s of grace, then KILL
    local pid=$1 i
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for (( i = 0; i < 50; i++ )); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    trap - EXIT INT TERM
    stop_pid "$WRK_PID"
    stop_pid "$TL_PID"
    # nginx: the master stops its workers on TERM (fast shutdown).
    stop_pid "$NG_PID"
    if [[ -n $TMP && -d $TMP ]]; then
        if [[ $KEEP == 1 ]]; then echo "bench-http: kept $TMP" >&2; else rm -rf "$TMP"; fi
    fi
}
trap cleanup EXIT
trap 'echo "bench-http: interrupted" >&2; cleanup; exit 130' INT
trap 'echo "bench-http: terminated" >&2; cleanup; exit 143' TERM

# run_waited OUTFILE COMMAND...: runs the command in the background with its output in
# OUTFILE and waits for it, so a signal to this script is handled at once (bash runs traps only
# between foreground commands); the pid is in WRK_PID meanwhile. (Redirecting the function call
# instead would also redirect the messages of a trap that fires inside it.)
run_waited() {
    local out=$1
    shift
    "$@" >"$out" 2>&1 &
    WRK_PID=$!
    local status=0
    wait "$WRK_PID" || status=$?
    WRK_PID=""
    return "$status"
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-http.XXXXXX")
mkdir -p "$TMP"/{client_body,proxy,fastcgi,uwsgi,scgi,tl,ng}
chmod 755 "$TMP"

# --- 1. build --------------------------------------------------------------------------------

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null 2>&1 || die "swift not found (add the toolchain to PATH)"

if [[ $SKIP_BUILD != 1 ]]; then
    echo "== building tilelayer (swift build -c release) in $REPO"
    build_log="$TMP/build.log"
    if ! run_waited "$build_log" timeout -k 10 "$BUILD_TIMEOUT" swift build -c release --package-path "$REPO"; then
        tail -n 40 "$build_log" >&2
        die "release build failed"
    fi
    tail -n 1 "$build_log"
fi
BIN_DIR=$(swift build -c release --package-path "$REPO" --show-bin-path)
TILELAYER="$BIN_DIR/tilelayer"
[[ -x $TILELAYER ]] || die "no release binary at $TILELAYER (run without SKIP_BUILD=1)"

# --- 2. nginx and wrk ------------------------------------------------------------------------

find_nginx() { command -v nginx 2>/dev/null || { [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx; } || true; }

apt_install() { # apt_install PACKAGE...: as root, or through sudo without a password prompt
    local -a sudo=()
    if (( EUID != 0 )); then
        command -v sudo >/dev/null 2>&1 || die "need root or sudo to install $*"
        sudo=(sudo -n)
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
}

NGINX=$(find_nginx)
missing=()
[[ -n $NGINX ]] || missing+=(nginx)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
if (( ${#missing[@]} > 0 )); then
    echo "== installing ${missing[*]} with apt-get"
    if (( EUID == 0 )); then apt-get update -q; else sudo -n apt-get update -q; fi
    if [[ -z $NGINX ]]; then apt_install nginx-light || apt_install nginx; fi
    command -v wrk >/dev/null 2>&1 || apt_install wrk
    NGINX=$(find_nginx)
fi
[[ -n $NGINX ]] || die "nginx is not installed"
command -v wrk >/dev/null 2>&1 || die "wrk is not installed"
command -v curl >/dev/null 2>&1 || die "curl is not installed"

# --- machine and versions --------------------------------------------------------------------

cpu_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
[[ -n $cpu_model ]] || cpu_model=$(lscpu 2>/dev/null | awk -F': *' '/Model name/ { print $2; exit }' || true)
nginx_version=$("$NGINX" -v 2>&1 || true)
wrk_version=$(wrk -v 2>&1 || true); wrk_version=${wrk_version%%$'\n'*}
swift_version=$(swift --version 2>/dev/null || true); swift_version=${swift_version%%$'\n'*}
git_rev=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)

echo "== machine"
echo "   nproc:      $(nproc)"
echo "   cpu:        ${cpu_model:-unknown}"
echo "   kernel:     $(uname -sr)"
echo "   loadavg:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
if awk -v n="$(nproc)" '{ exit !($1 > n / 2) }' /proc/loadavg 2>/dev/null; then
    echo "   note:       the machine is busy (load > nproc/2); expect noisy numbers, use more ROUNDS"
fi
echo "== versions"
echo "   nginx:      $nginx_version"
echo "   wrk:        $wrk_version"
echo "   swift:      $swift_version"
echo "   tilelayer:  $git_rev ($TILELAYER)"
echo "== settings"
echo "   DURATION=$DURATION WARMUP=$WARMUP ROUNDS=$ROUNDS CONNECTIONS=$CONNECTIONS THREADS=$THREADS" \
     "TARGET=$TARGET PATHS_MODE=$PATHS_MODE URL_STYLE=$URL_STYLE"

# --- temp dir, ports, path list --------------------------------------------------------------


USED_PORTS=" "
free_port() { # free_port VAR: a loopback port nobody listens on now (and not handed out before)
    local var=$1 port i
    for (( i = 0; i < 200; i++ )); do
        if command -v python3 >/dev/null 2>&1; then
            port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
        else
            port=$(( 20000 + RANDOM % 40000 ))
        fi
        [[ $USED_PORTS == *" $port "* ]] && continue
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            USED_PORTS+="$port "
            printf -v "$var" '%s' "$port"
            return 0
        fi
    done
    die "no free loopback port found"
}

PATHS="$TMP/paths.txt"
case $PATHS_MODE in
    all) max_zoom=3 ;;
    hot) max_zoom=1 ;;
esac
tile_list=$(cd "$TILES" && find . -regextype posix-extended -regex '\./[0-9]+/[0-9]+/[0-9]+\.png' -printf '%P\n' \
            | awk -F/ -v max="$max_zoom" '$1 <= max' | sort -t/ -k1,1n -k2,2n -k3,3n)
[[ -n $tile_list ]] || die "no tiles under $TILES"
{
    while IFS= read -r tile; do
        case $URL_STYLE in
            plain) echo "/$tile" ;;
            layer) echo "/world/$tile" ;;
            mixed) echo "/$tile"; echo "/world/$tile" ;;
        esac
    done <<<"$tile_list"
} >"$PATHS"
path_count=$(wc -l <"$PATHS")
tile_count=$(wc -l <<<"$tile_list")
echo "   paths:      $path_count ($tile_count tiles of $TILES, zoom 0-$max_zoom)"

# --- 3. servers ------------------------------------------------------------------------------

free_port TL_PORT
free_port NG_PORT

# shellcheck source=bench/configs.sh
source "$SCRIPT_DIR/bench/configs.sh"
write_tilelayer_config "$TMP/tilelayer.yml" "$TL_PORT" "$TRANSPORT"
write_nginx_config "$TMP/nginx.conf" "$NG_PORT"

wait_ready() { # wait_ready NAME PID PORT LOG: until the first path answers, up to 30 s
    local name=$1 pid=$2 port=$3 log=$4 i first
    first=$(head -n 1 "$PATHS")
    for (( i = 0; i < 300; i++ )); do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "bench-http: $name exited during startup; its log:" >&2
            tail -n 30 "$log" >&2 || true
            exit 3
        fi
        if curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$port$first"; then return 0; fi
        sleep 0.1
    done
    echo "bench-http: $name did not answer on port $port within 30 s; its log:" >&2
    tail -n 30 "$log" >&2 || true
    exit 3
}

echo "== starting servers"
"$TILELAYER" serve --config "$TMP/tilelayer.yml" --port "$TL_PORT" >"$TMP/tilelayer.log" 2>&1 &
TL_PID=$!
"$NGINX" -t -q -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >"$TMP/nginx-start.log" 2>&1 || {
    cat "$TMP/nginx-start.log" >&2; die "nginx rejected its generated config ($TMP/nginx.conf)"; }
"$NGINX" -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >>"$TMP/nginx-start.log" 2>&1 &
NG_PID=$!
wait_ready tilelayer "$TL_PID" "$TL_PORT" "$TMP/tilelayer.log"
wait_ready nginx "$NG_PID" "$NG_PORT" "$TMP/nginx-error.log"
echo "   tilelayer:  http://127.0.0.1:$TL_PORT/ (pid $TL_PID)"
echo "   nginx:      http://127.0.0.1:$NG_PORT/ (pid $NG_PID, workers: $(pgrep -P "$NG_PID" 2>/dev/null | wc -l))"

# --- 7. same bytes, status 200 everywhere ----------------------------------------------------

echo "== checking that both servers answer every path with 200 and the file's bytes"
sample=$(sed -n "$(( (path_count + 1) / 2 ))p" "$PATHS")
for server in tilelayer nginx; do
    if [[ $server == tilelayer ]]; then port=$TL_PORT; else port=$NG_PORT; fi
    echo "   $server, GET $sample:"
    curl -s -D - -o /dev/null --max-time 5 "http://127.0.0.1:$port$sample" | tr -d '\r' \
        | grep -iE '^(HTTP/|content-type|content-length|etag|cache-control|access-control-allow-origin|last-modified)' \
        | sed 's/^/      /'
done
mismatches=0
checked=0
while IFS= read -r path; do
    file="$TILES${path#/world}"
    for server in tilelayer nginx; do
        if [[ $server == tilelayer ]]; then port=$TL_PORT body="$TMP/tl/body"; else port=$NG_PORT body="$TMP/ng/body"; fi
        rm -f "$body"
        code=$(curl -s -o "$body" -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port$path" || true)
        if [[ $code != 200 ]]; then
            echo "   FAIL $server $path: status $code" >&2; mismatches=$(( mismatches + 1 ))
        elif ! cmp -s "$body" "$file"; then
            echo "   FAIL $server $path: body differs from $file" >&2; mismatches=$(( mismatches + 1 ))
        fi
    done
    if ! cmp -s "$TMP/tl/body" "$TMP/ng/body"; then
        echo "   FAIL $path: tilelayer and nginx bodies differ" >&2; mismatches=$(( mismatches + 1 ))
    fi
    checked=$(( checked + 1 ))
done <"$PATHS"
(( mismatches == 0 )) || { echo "bench-http: $mismatches mismatches; not benchmarking unlike things" >&2; exit 4; }
sample_file="$TILES${sample#/world}"
echo "   ok: $checked paths, each 200 from both with identical bodies (cmp); e.g. $sample = $(wc -c <"$sample_file") bytes, sha256 $(sha256sum "$sample_file" | cut -c1-16)…"

# --- 4/5. wrk runs ---------------------------------------------------------------------------

TOTAL_ERRORS=0
declare -A RPS P50 P99 CPU USR SYS

# bench LABEL SERVER SECONDS: one wrk run; sets R_RPS R_P50 R_P99 (µs) R_ERR.
bench() {
    local label=$1 server=$2 seconds=$3 port out line
    if [[ $server == tilelayer ]]; then port=$TL_PORT; else port=$NG_PORT; fi
    out="$TMP/wrk-$label-$server.txt"
    if ! run_waited "$out" env BENCH_PATHS="$PATHS" timeout -k 5 $(( seconds + 30 )) \
            wrk -t "$THREADS" -c "$CONNECTIONS" -d "${seconds}s" --timeout 5s --latency -s "$LUA" \
            "http://127.0.0.1:$port/"; then
        cat "$out" >&2
        die "wrk failed against $server ($label)"
    fi
    line=$(grep '^BENCH ' "$out" || true)
    [[ -n $line ]] || { cat "$out" >&2; die "no summary from wrk against $server ($label)"; }
    local -A v=()
    local kv
    for kv in ${line#BENCH }; do v[${kv%%=*}]=${kv#*=}; done
    R_RPS=${v[rps]}
    R_P50=${v[p50_us]}
    R_P99=${v[p99_us]}
    R_ERR=$(( v[err_connect] + v[err_read] + v[err_write] + v[err_timeout] + v[err_status] ))
    # wrk's own text, as a cross-check of the Lua numbers.
    local non2xx
    non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$out")
    if [[ -n $non2xx ]] && (( non2xx > v[err_status] )); then R_ERR=$(( R_ERR + non2xx - v[err_status] )); fi
    if (( R_ERR > 0 )); then
        echo "   $server ($label): errors: $(grep -E 'Socket errors|Non-2xx' "$out" | tr -s ' ' | paste -sd';' -)" >&2
    fi
    TOTAL_ERRORS=$(( TOTAL_ERRORS + R_ERR ))
    for pid_name in TL_PID NG_PID; do
        kill -0 "${!pid_name}" 2>/dev/null || die "$server stopped during the run ($label); logs in $TMP"
    done
}

ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }

# CPU seconds used so far by a server (tilelayer's process, or nginx's master and workers):
# "user system", so a run shows where the cost is (the process's code, or the kernel's).
# shellcheck source=bench/cpu-ticks.sh
source "$SCRIPT_DIR/bench/cpu-ticks.sh"
cpu_seconds() {
    local user system
    # shellcheck disable=SC2086 # the pids, one word each
    read -r user system < <(cpu_ticks $1)
    awk -v u="$user" -v s="$system" -v k="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f %.3f", u / k, s / k }'
}
server_pids() { if [[ $1 == tilelayer ]]; then echo "$TL_PID"; else echo "$NG_PID $(pgrep -P "$NG_PID" | tr '\n' ' ')"; fi; }

# per_request BEFORE AFTER: CPU seconds between two readings, in µs per request of the last run.
per_request() { awk -v a="$1" -v b="$2" -v r="$R_RPS" -v d="$DURATION" 'BEGIN { printf "%.1f", (r > 0 ? (b - a) * 1e6 / (r * d) : 0) }'; }

if (( WARMUP > 0 )); then
    echo "== warm-up: ${WARMUP}s each"
    for server in tilelayer nginx; do
        bench warmup "$server" "$WARMUP"
        printf '   %-10s %10.0f req/s  errors %d\n' "$server" "$R_RPS" "$R_ERR"
    done
fi

echo "== measuring: $ROUNDS rounds x 2 servers x ${DURATION}s, $CONNECTIONS connections, $THREADS threads"
printf '%-6s %-10s %12s %10s %10s %12s %14s %8s\n' round server "requests/s" "p50 ms" "p99 ms" "CPU us/req" "user+sys us" errors
for (( round = 1; round <= ROUNDS; round++ )); do
    # Alternate who goes first, so drift (turbo, neighbours on the CPU) does not favour one.
    if (( round % 2 == 1 )); then order=(tilelayer nginx); else order=(nginx tilelayer); fi
    for server in "${order[@]}"; do
        cpu_before=$(cpu_seconds "$(server_pids "$server")")
        bench "round$round" "$server" "$DURATION"
        cpu_after=$(cpu_seconds "$(server_pids "$server")")
        read -r user_before sys_before <<<"$cpu_before"
        read -r user_after sys_after <<<"$cpu_after"
        USR[$round,$server]=$(per_request "$user_before" "$user_after")
        SYS[$round,$server]=$(per_request "$sys_before" "$sys_after")
        CPU[$round,$server]=$(awk -v u="${USR[$round,$server]}" -v s="${SYS[$round,$server]}" 'BEGIN { printf "%.1f", u + s }')
        RPS[$round,$server]=$R_RPS
        P50[$round,$server]=$R_P50
        P99[$round,$server]=$R_P99
        printf '%-6s %-10s %12.0f %10s %10s %12s %14s %8d\n' "$round" "$server" "$R_RPS" "$(ms "$R_P50")" "$(ms "$R_P99")" \
            "${CPU[$round,$server]}" "${USR[$round,$server]}+${SYS[$round,$server]}" "$R_ERR"
    done
done

# --- summary ---------------------------------------------------------------------------------

# shellcheck source=bench/median.sh
source "$SCRIPT_DIR/bench/median.sh"

tl_list=""; ng_list=""; ratio_list=""
for (( round = 1; round <= ROUNDS; round++ )); do
    tl=${RPS[$round,tilelayer]}; ng=${RPS[$round,nginx]}
    tl_list+="$tl"$'\n'; ng_list+="$ng"$'\n'
    ratio_list+=$(awk -v a="$tl" -v b="$ng" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }')$'\n'
done
tl_median=$(printf '%s' "$tl_list" | median)
ng_median=$(printf '%s' "$ng_list" | median)
ratio_median=$(printf '%s' "$ratio_list" | median)
p50_tl=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${P50[$r,tilelayer]}"; done | median)
p50_ng=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${P50[$r,nginx]}"; done | median)
p99_tl=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${P99[$r,tilelayer]}"; done | median)
p99_ng=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${P99[$r,nginx]}"; done | median)
cpu_tl=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${CPU[$r,tilelayer]}"; done | median)
cpu_ng=$(for (( r = 1; r <= ROUNDS; r++ )); do echo "${CPU[$r,nginx]}"; done | median)

echo "== summary"
printf '   median requests/s   tilelayer %10.0f   nginx %10.0f\n' "$tl_median" "$ng_median"
printf '   median p50 ms       tilelayer %10s   nginx %10s\n' "$(ms "$p50_tl")" "$(ms "$p50_ng")"
printf '   median p99 ms       tilelayer %10s   nginx %10s\n' "$(ms "$p99_tl")" "$(ms "$p99_ng")"
printf '   median CPU us/req   tilelayer %10s   nginx %10s   ratio %.2f\n' "$cpu_tl" "$cpu_ng" \
    "$(awk -v a="$cpu_tl" -v b="$cpu_ng" 'BEGIN { print (b > 0 ? a / b : 0) }')"
printf '   per-round ratios tilelayer/nginx: %s\n' "$(printf '%s' "$ratio_list" | paste -sd' ' -)"
printf '   median ratio tilelayer/nginx: %.3f (target %s)\n' "$ratio_median" "$TARGET"
echo "   loadavg at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
if awk -v r="$ratio_median" -v t="$TARGET" 'BEGIN { exit !(r >= t) }'; then
    echo "PASS: median ratio $(printf '%.3f' "$ratio_median") >= $TARGET"
else
    echo "FAIL: median ratio $(printf '%.3f' "$ratio_median") < $TARGET"
fi
if (( TOTAL_ERRORS > 0 )); then
    echo "ERRORS: $TOTAL_ERRORS failed requests (socket errors or non-2xx/3xx answers); raw output in $TMP" >&2
    KEEP=1
    exit 5
fi
echo "errors: 0"
