#!/usr/bin/env bash
# bench-cpu.sh: the server's CPU time and kernel work per request, tilelayer against nginx,
# counted by the kernel rather than sampled.
#
# bench-http.sh and bench-working-set.sh read a server's CPU from /proc (user and system ticks,
# 10 ms each, split between the two by sampling). This script counts it with `perf stat` on the
# server's threads while wrk runs: `task-clock` (nanoseconds on a CPU, exact), system calls
# (`raw_syscalls:sys_enter`), context switches and packets sent (`net:net_dev_xmit`). These are
# software events and tracepoints: they work in a VM without hardware counters. Rounds alternate
# the order of the servers; each figure is a median of the rounds, each ratio the median of
# each round's ratio to nginx.
#
# wrk's own CPU time is counted too (`task-clock`, the client's column): where a server copies a
# body into the socket, it reads the file's bytes itself and the client's copy out of the socket
# reads what was just written; where it sends with sendfile, the client's copy is the first to
# read them. A server's CPU a request and the client's together are what the machine spent.
# (The client's includes wrk's start, which reads the request list: a few ms in seconds.)
# wrk's system calls a request ("client calls") and its `epoll_wait` calls a request ("client
# waits") say how much a server's answers let wrk batch: an `epoll_wait` that returns one ready
# connection costs the client a call for each request.
#
# The user column splits the server's CPU between user space and the kernel: `task-clock` a
# request times the share of the server's user ticks in /proc/PID/stat over the same run (ticks
# of 10 ms, taken by sampling, so a share, not a count; about 500 ticks a 5 s run).
#
# Environment (defaults in brackets):
#   SCENARIO=hot     hot: the 85 tiles of tiles/world (zoom 0-3, memory cache);
#                    uniform, zipf: scripts/bench-working-set.sh's pyramid and request lists
#                    (21,845 tiles, 256 MiB memory cache), the folder layer and the same tiles
#                    as an uncached MBTiles layer ("tilelayer-mbtiles"), and as an MBTiles layer
#                    with the memory cache, in a server of its own ("tilelayer-mbcached"),
#                    against nginx on the folder;
#                    mbtiles: the 21 tiles of tiles/bluemarble.mbtiles (about 100 KB each) from
#                    an MBTiles layer with `cache: {memory: false}`, against nginx on the tiles
#                    extracted to files
#   IMMUTABLE=0      1 (mbtiles, uniform, zipf): the MBTiles file declared `immutable` (uncached
#                    tiles sent by reference)
#   ROUNDS=5  DURATION=5  WARMUP=3   rounds; seconds measured and warmed up per server a round
#   FIRST_WARMUP=15 (uniform, zipf; 0 for hot)  seconds more of each server's list before the
#                    first round: about one pass of wrk's threads through the list, so each tile's
#                    first request is not measured (tilelayer's costs a read and a hash for its
#                    content ETag, once for each event loop's reader of an MBTiles file; nginx's
#                    an open); 0: round 1 measures those too
#   CONNECTIONS=64   wrk connections (2 threads)
#   ACCESS_LOG=0     1: access logs on at both sides
#   HEADERS=         browser: each request also carries the 12 fields Chromium sends with an image
#                    (scripts/bench/browser-headers.txt, captured from Debian's Chromium 156), not Host alone
#   MEMORY=1         0 (hot): tilelayer's layer without a memory cache (sendfile from the files)
#   LOG_SHARE=0      1 (with ACCESS_LOG=0): also run a second tilelayer, the same but with its access
#                    log on ("tilelayer-logged"), in the same rounds, and print the log's share of a
#                    logged request's CPU, (logged - plain) / logged, per round and its median: the
#                    log's cost measured natively, both sides under the same load of the machine
#   OPEN_FILE_SECONDS=60  how long both servers use an opened tile file before they look at its
#                    path again (so how late a replaced file may be sent): the folder layer's
#                    cache.openFileSeconds and nginx's open_file_cache_valid, whole seconds, any
#                    scenario; 1 compares both at tilelayer's default; empty: tilelayer's
#                    default (1 s) against nginx's 60 s
#   SKIP_BUILD=0     1: use the existing release binary
#   DATA=/tmp/tilelayer-working-set
# Needs root (or perf_event_paranoid <= -1) for the tracepoints; perf from linux-perf.
set -euo pipefail

SCENARIO=${SCENARIO:-hot}
export OPEN_FILE_SECONDS=${OPEN_FILE_SECONDS-60}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-5}
WARMUP=${WARMUP:-3}
case $SCENARIO in hot|mbtiles) FIRST_WARMUP=${FIRST_WARMUP:-0} ;; *) FIRST_WARMUP=${FIRST_WARMUP:-15} ;; esac
CONNECTIONS=${CONNECTIONS:-64}
ACCESS_LOG=${ACCESS_LOG:-0}
HEADERS=${HEADERS:-}
[[ -z $HEADERS || $HEADERS == browser ]] || { echo "bench-cpu: HEADERS must be empty or browser" >&2; exit 2; }
export BENCH_HEADERS=$HEADERS
MEMORY=${MEMORY:-1}
IMMUTABLE=${IMMUTABLE:-0}
LOG_SHARE=${LOG_SHARE:-0}
SKIP_BUILD=${SKIP_BUILD:-0}
DATA=${DATA:-/tmp/tilelayer-working-set}

die() { echo "bench-cpu: $*" >&2; exit 2; }
case $SCENARIO in hot|uniform|zipf|mbtiles) ;; *) die "SCENARIO must be hot, uniform, zipf or mbtiles" ;; esac
[[ $IMMUTABLE == 0 || $IMMUTABLE == 1 ]] || die "IMMUTABLE must be 0 or 1"
(( IMMUTABLE )) && [[ $SCENARIO == hot ]] && die "IMMUTABLE=1 is for an MBTiles layer: SCENARIO mbtiles, uniform or zipf"
[[ $LOG_SHARE == 0 || $LOG_SHARE == 1 ]] || die "LOG_SHARE must be 0 or 1"
(( LOG_SHARE && ACCESS_LOG )) && die "LOG_SHARE=1 compares a tilelayer without its log (ACCESS_LOG=0) to one with it"
for name in ROUNDS DURATION WARMUP FIRST_WARMUP CONNECTIONS; do [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number"; done
(( ROUNDS >= 1 && DURATION >= 1 )) || die "ROUNDS and DURATION must be at least 1"
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
PATH="/opt/swift/usr/bin:$PATH"
command -v perf >/dev/null || die "perf is not installed (apt-get install linux-perf)"
perf stat -e raw_syscalls:sys_enter,syscalls:sys_enter_epoll_wait -x, -o /dev/null -- true 2>/dev/null \
    || die "perf cannot read the raw_syscalls and syscalls tracepoints here (run as root, or lower kernel.perf_event_paranoid)"

# shellcheck source=bench/servers.sh
source "$SCRIPT_DIR/bench/servers.sh"
bench_tools
bench_setup bench-cpu

# shellcheck source=bench/configs.sh
source "$SCRIPT_DIR/bench/configs.sh"
if [[ $SCENARIO == hot ]]; then
    TILES="$REPO/tiles/world"
    (cd "$TILES" && find . -name '*.png' -printf '/%P\n' | awk -F/ '$2 <= 3' | sort) >"$TMP/paths.txt"
    (( MEMORY )) || LAYER_CACHE="memory: false"
    write_tilelayer_config "$TMP/tilelayer.yml" "$TL_PORT"
    servers="tilelayer nginx"
elif [[ $SCENARIO == mbtiles ]]; then
    MBTILES="$REPO/tiles/bluemarble.mbtiles"
    TILES="$TMP/extracted"
    python3 "$SCRIPT_DIR/bench/extract-mbtiles.py" "$MBTILES" "$TILES" >/dev/null
    (cd "$TILES" && find . -name '*.png' -printf '/%P\n' | sort) >"$TMP/paths.txt"
    LAYER_SOURCE="{type: mbtiles, path: \"$MBTILES\"$( (( IMMUTABLE )) && echo ", immutable: true" )}" \
        LAYER_CACHE="memory: false" write_tilelayer_config "$TMP/tilelayer.yml" "$TL_PORT"
    servers="tilelayer nginx"
else
    # shellcheck source=bench/working-set.sh
    source "$SCRIPT_DIR/bench/working-set.sh"
    build_working_set "$DATA" 7
    TILES="$DATA/tiles"
    cp "$DATA/$SCENARIO.txt" "$TMP/paths.txt"
    sed 's|^|/mb|' "$DATA/$SCENARIO.txt" >"$TMP/mb-paths.txt"
    write_working_set_config "$TMP/tilelayer.yml" "$TL_PORT" "$DATA" 7 256
    TL3_PORT=$(bench_free_port)
    write_working_set_cached_mbtiles_config "$TMP/tilelayer-mbcached.yml" "$TL3_PORT" "$DATA" 7 256
    servers="tilelayer tilelayer-mbtiles tilelayer-mbcached nginx"
fi
write_nginx_config "$TMP/nginx.conf" "$NG_PORT"

first=$(head -n 1 "$TMP/paths.txt")
bench_start_servers "$first"
if [[ $SCENARIO == uniform || $SCENARIO == zipf ]]; then
    bench_start_tilelayer tilelayer-mbcached "$TL3_PORT" "$first"
    TL3_PID=$BENCH_STARTED_PID
fi
if (( LOG_SHARE )); then
    # The same configuration (any scenario's) on another port, its access log on.
    TL2_PORT=$(bench_free_port)
    sed -e "s/^  port: $TL_PORT\$/  port: $TL2_PORT/" -e 's/access: false}/access: true}/' \
        "$TMP/tilelayer.yml" >"$TMP/tilelayer-logged.yml"
    grep -q "port: $TL2_PORT" "$TMP/tilelayer-logged.yml" && grep -q "access: true" "$TMP/tilelayer-logged.yml" \
        || die "could not make the logged server's configuration from $TMP/tilelayer.yml"
    bench_start_tilelayer tilelayer-logged "$TL2_PORT" "$first"
    TL2_PID=$BENCH_STARTED_PID
    # Right after the plain server, so the two run under the nearest load of the machine.
    servers=${servers/tilelayer /tilelayer tilelayer-logged }
fi
for port in "$TL_PORT" "$NG_PORT"; do
    cmp <(curl -fs "http://127.0.0.1:$port$first") "$TILES$first" || die "the server on $port answers $first with other bytes than the file"
done
if [[ $SCENARIO == uniform || $SCENARIO == zipf ]]; then
    cmp <(curl -fs "http://127.0.0.1:$TL_PORT/mb$first") "$TILES$first" || die "the MBTiles layer's $first differs from the file"
    cmp <(curl -fs "http://127.0.0.1:$TL3_PORT$first") "$TILES$first" || die "the cached MBTiles layer's $first differs from the file"
fi

# Before a working-set run, every file is read again (`warm_working_set`).
warm_page_cache() { [[ $SCENARIO == hot || $SCENARIO == mbtiles ]] || warm_working_set "$DATA"; }

echo "== machine: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) CPUs, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== versions: $("$NGINX" -v 2>&1), $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2), tilelayer $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "== scenario $SCENARIO: $(wc -l <"$TMP/paths.txt") request paths$( [[ -n $HEADERS ]] && echo " with a browser's header fields" ); access logs $( (( ACCESS_LOG )) && echo on || echo off )$( (( LOG_SHARE )) && echo " (tilelayer-logged: on)" ); memory cache $( (( MEMORY )) && [[ $SCENARIO != mbtiles ]] && echo on || echo off )$( (( IMMUTABLE )) && echo ", the MBTiles file immutable" ); tile files used ${OPEN_FILE_SECONDS:-1 (tilelayer) / 60 (nginx)} s before their path is looked at again; $ROUNDS rounds of ${DURATION} s per server after ${WARMUP} s of warm-up (${FIRST_WARMUP} s more before the first); $CONNECTIONS connections"
printf '%-5s %-18s %10s %12s %12s %12s %10s %10s %14s %13s %13s\n' round server "requests/s" "CPU us/req" "user us/req" "syscalls/req" "switches" "packets" "client us/req" "client calls" "client waits"

# shellcheck source=bench/cpu-ticks.sh
source "$SCRIPT_DIR/bench/cpu-ticks.sh"

# shellcheck source=bench/median.sh
source "$SCRIPT_DIR/bench/median.sh"
declare -A cpu_values=() user_values=() rps_values=() calls_values=() client_values=() cpu_ratios=() user_ratios=() rps_ratios=() total_ratios=()
log_shares=""
read -r -a order <<<"$servers"
for (( round = 1; round <= ROUNDS; round++ )); do
    declare -A cpu_of=() user_of=() rps_of=() client_of=()
    # Alternate the order each round, so neither side always runs first after a warm page cache.
    if (( round % 2 == 0 )); then mapfile -t list < <(printf '%s\n' "${order[@]}" | tac); else list=("${order[@]}"); fi
    for server in "${list[@]}"; do
        case $server in
            tilelayer) port=$TL_PORT; paths="$TMP/paths.txt"; pids=$TL_PID ;;
            tilelayer-mbtiles) port=$TL_PORT; paths="$TMP/mb-paths.txt"; pids=$TL_PID ;;
            tilelayer-mbcached) port=$TL3_PORT; paths="$TMP/paths.txt"; pids=$TL3_PID ;;
            tilelayer-logged) port=$TL2_PORT; paths="$TMP/paths.txt"; pids=$TL2_PID ;;
            nginx) port=$NG_PORT; paths="$TMP/paths.txt"; pids=$(pgrep -d, -P "$NG_PID") ;;
        esac
        warm_page_cache
        warmup=$(( WARMUP + (round == 1 ? FIRST_WARMUP : 0) ))
        if (( warmup > 0 )); then
            BENCH_PATHS="$paths" wrk -t 2 -c "$CONNECTIONS" -d "${warmup}s" -s "$SCRIPT_DIR/bench/paths.lua" \
                "http://127.0.0.1:$port/" >/dev/null
        fi
        for (( attempt = 1; ; attempt++ )); do
            read -r user_before system_before < <(cpu_ticks ${pids//,/ })
            # One perf counts the server's threads for as long as wrk runs, the other wrk itself.
            BENCH_PATHS="$paths" perf stat -x, -e task-clock,raw_syscalls:sys_enter,context-switches,net:net_dev_xmit \
                -p "$pids" -o "$TMP/perf.txt" -- perf stat -x, -e task-clock,raw_syscalls:sys_enter,syscalls:sys_enter_epoll_wait \
                -o "$TMP/client.txt" -- \
                wrk -t 2 -c "$CONNECTIONS" -d "${DURATION}s" -s "$SCRIPT_DIR/bench/paths.lua" "http://127.0.0.1:$port/" \
                >"$TMP/wrk.txt" 2>"$TMP/perf.err" && break
            # A server thread that ended between perf's listing of the threads and its opening of
            # their counters (a Dispatch worker idle for a while) fails the start, before wrk runs:
            # measured again.
            (( attempt < 3 )) && grep -q "No such process" "$TMP/perf.err" \
                || die "perf stat or wrk failed: $(cat "$TMP/perf.err" "$TMP/perf.txt" "$TMP/client.txt" 2>/dev/null)"
            echo "   ($server: a thread ended as perf started; measured again)" >&2
        done
        read -r user_after system_after < <(cpu_ticks ${pids//,/ })
        requests=$(awk '/requests in/ { print $1 }' "$TMP/wrk.txt")
        [[ $requests =~ ^[0-9]+$ && $requests -gt 0 ]] || die "$server: wrk made no requests: $(cat "$TMP/wrk.txt")"
        rps=$(awk '/^Requests\/sec/ { printf "%d", $2 }' "$TMP/wrk.txt")
        errors=$(awk '/Non-2xx|Socket errors/ { print }' "$TMP/wrk.txt")
        [[ -z $errors ]] || die "$server: $errors"
        read -r cpu calls switches packets < <(awk -F, -v n="$requests" '
            $3 == "task-clock" { cpu = $1 * 1000 / n }        # msec -> us a request
            $3 == "raw_syscalls:sys_enter" { calls = $1 / n }
            $3 == "context-switches" { sw = $1 / n }
            $3 == "net:net_dev_xmit" { pk = $1 / n }
            END { printf "%.2f %.2f %.3f %.2f\n", cpu, calls, sw, pk }' "$TMP/perf.txt")
        client=$(awk -F, -v n="$requests" '$3 == "task-clock" { printf "%.2f", $1 * 1000 / n }' "$TMP/client.txt")
        read -r client_calls client_waits < <(awk -F, -v n="$requests" '
            $3 == "raw_syscalls:sys_enter" { calls = $1 / n }
            $3 == "syscalls:sys_enter_epoll_wait" { waits = $1 / n }
            END { printf "%.2f %.3f\n", calls, waits }' "$TMP/client.txt")
        awk -v c="$client" 'BEGIN { exit !(c > 0) }' || die "perf stat counted no CPU time for wrk: $(cat "$TMP/client.txt")"
        user=$(awk -v c="$cpu" -v u=$(( user_after - user_before )) -v k=$(( system_after - system_before )) \
            'BEGIN { printf "%.2f", (u + k > 0 ? c * u / (u + k) : 0) }')
        printf '%-5s %-18s %10s %12s %12s %12s %10s %10s %14s %13s %13s\n' "$round" "$server" "$rps" "$cpu" "$user" "$calls" "$switches" \
            "$packets" "$client" "$client_calls" "$client_waits"
        cpu_of[$server]=$cpu; user_of[$server]=$user; rps_of[$server]=$rps; client_of[$server]=$client
        cpu_values[$server]+=" $cpu"; user_values[$server]+=" $user"; rps_values[$server]+=" $rps"; calls_values[$server]+=" $calls"
        client_values[$server]+=" $client"
    done
    for server in "${order[@]}"; do
        [[ $server == nginx ]] && continue
        cpu_ratios[$server]+=" $(awk -v a="${cpu_of[$server]}" -v b="${cpu_of[nginx]}" 'BEGIN { printf "%.3f", a / b }')"
        user_ratios[$server]+=" $(awk -v a="${user_of[$server]}" -v b="${user_of[nginx]}" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
        rps_ratios[$server]+=" $(awk -v a="${rps_of[$server]}" -v b="${rps_of[nginx]}" 'BEGIN { printf "%.3f", a / b }')"
        total_ratios[$server]+=" $(awk -v a="${cpu_of[$server]}" -v ac="${client_of[$server]}" -v b="${cpu_of[nginx]}" \
            -v bc="${client_of[nginx]}" 'BEGIN { printf "%.3f", (a + ac) / (b + bc) }')"
    done
    if (( LOG_SHARE )); then
        log_shares+=" $(awk -v logged="${cpu_of[tilelayer-logged]}" -v plain="${cpu_of[tilelayer]}" \
            'BEGIN { printf "%.3f", (logged - plain) / logged }')"
    fi
    unset cpu_of user_of rps_of client_of
done

echo "== medians of $ROUNDS rounds"
for server in "${order[@]}"; do
    printf '   %-18s %8.0f req/s  %6.2f us CPU a request (user %6.2f)  %5.2f system calls a request  client (wrk) %6.2f us a request\n' \
        "$server" "$(median <<<"${rps_values[$server]}")" "$(median <<<"${cpu_values[$server]}")" \
        "$(median <<<"${user_values[$server]}")" "$(median <<<"${calls_values[$server]}")" "$(median <<<"${client_values[$server]}")"
done
for server in "${order[@]}"; do
    [[ $server == nginx ]] && continue
    echo "   $server/nginx: CPU a request $(median <<<"${cpu_ratios[$server]}")× (rounds:${cpu_ratios[$server]}), req/s $(median <<<"${rps_ratios[$server]}")× (rounds:${rps_ratios[$server]})"
    echo "   $server/nginx: server and client CPU a request $(median <<<"${total_ratios[$server]}")× (rounds:${total_ratios[$server]})"
    echo "   $server/nginx: user-space CPU a request $(median <<<"${user_ratios[$server]}")× (rounds:${user_ratios[$server]})"
done
if (( LOG_SHARE )); then
    # A share measured on a server that logged nothing would say nothing.
    grep -q "tilelayer.access" "$TMP/tilelayer-logged.log" || die "tilelayer-logged wrote no access-log line"
    echo "   the access log's share of a logged request's CPU: $(median <<<"$log_shares") (rounds:$log_shares)"
fi
