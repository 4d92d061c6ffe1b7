#!/usr/bin/env bash
# bench-working-set.sh: tilelayer against nginx when the tiles do not fit in tilelayer's memory
# cache: a pyramid of distinct real-sized PNGs (zoom 0..MAX_ZOOM; 21,845 tiles at 7, ~1 GB with
# the shipped world tiles and ../shared/data), requested uniformly and Zipf-distributed (s = 1),
# with a 256 MB memory cache. Measures, with wrk, the folder layer and the same tiles as an
# uncached MBTiles layer against nginx serving the folder (sendfile, open_file_cache): req/s,
# p99, server CPU per request, and tilelayer's RSS and cached bytes.
#
# Environment (defaults in brackets):
#   MAX_ZOOM=7        deepest zoom of the generated pyramid
#   DURATION=10       seconds per measured run
#   ROUNDS=1          rounds of the three servers per list; with more than one, the medians of
#                     each round's ratios to nginx (this host's load moves single runs a lot)
#   WARMUP=$DURATION  seconds of the same list before each measured run (0: measure from a cold
#                     start: each tile's first request then costs tilelayer a read and a hash
#                     for its content ETag, and the memory cache fills)
#   CONNECTIONS=64    wrk connections (2 threads)
#   MEMORY_MB=256     tilelayer's server.cache.memoryBytes, MiB
#   ACCESS_LOG=0      1: access logs on at both sides
#   OPEN_FILE_SECONDS=60  how long both servers use an opened tile file before they look at its
#                     path again: the folder layer's cache.openFileSeconds and nginx's
#                     open_file_cache_valid (whole seconds); empty: tilelayer's default (1 s)
#                     against nginx's 60 s
#   SKIP_BUILD=0      1: use the existing release binary
#   DATA=/tmp/tilelayer-working-set   where the pyramid, MBTiles and request lists are kept
set -euo pipefail
export OPEN_FILE_SECONDS=${OPEN_FILE_SECONDS-60}

MAX_ZOOM=${MAX_ZOOM:-7}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-1}
WARMUP=${WARMUP:-$DURATION}
CONNECTIONS=${CONNECTIONS:-64}
MEMORY_MB=${MEMORY_MB:-256}
ACCESS_LOG=${ACCESS_LOG:-0}
SKIP_BUILD=${SKIP_BUILD:-0}
DATA=${DATA:-/tmp/tilelayer-working-set}

die() { echo "bench-working-set: $*" >&2; exit 2; }
for name in MAX_ZOOM DURATION ROUNDS WARMUP CONNECTIONS MEMORY_MB; do [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number"; done
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
PATH="/opt/swift/usr/bin:$PATH"
# shellcheck source=bench/servers.sh
source "$SCRIPT_DIR/bench/servers.sh"
bench_tools

echo "== building the working set in $DATA (kept for the next run)"
# shellcheck source=bench/working-set.sh
source "$SCRIPT_DIR/bench/working-set.sh"
build_working_set "$DATA" "$MAX_ZOOM"
TILES="$DATA/tiles"
tile_count=$(find "$TILES" -name '*.png' | wc -l)
tile_bytes=$(du -sb "$TILES" | cut -f1)

bench_setup bench-working-set
write_working_set_config "$TMP/tilelayer.yml" "$TL_PORT" "$DATA" "$MAX_ZOOM" "$MEMORY_MB"
# shellcheck source=bench/configs.sh
source "$SCRIPT_DIR/bench/configs.sh"
write_nginx_config "$TMP/nginx.conf" "$NG_PORT"
sed 's|^|/mb|' "$DATA/uniform.txt" >"$TMP/mb-uniform.txt"
sed 's|^|/mb|' "$DATA/zipf.txt" >"$TMP/mb-zipf.txt"

bench_start_servers /0/0/0.png
first=$(head -n 1 "$DATA/zipf.txt")
cmp <(curl -fs "http://127.0.0.1:$TL_PORT$first") "$TILES$first" || die "tilelayer's $first differs from the file"
cmp <(curl -fs "http://127.0.0.1:$TL_PORT/mb$first") "$TILES$first" || die "the MBTiles layer's $first differs from the file"
cmp <(curl -fs "http://127.0.0.1:$NG_PORT$first") "$TILES$first" || die "nginx's $first differs from the file"

warm_page_cache() { warm_working_set "$DATA"; }

# shellcheck source=bench/cpu-ticks.sh
source "$SCRIPT_DIR/bench/cpu-ticks.sh"
cpu_seconds() { # user+system seconds of the given pids
    local user system
    read -r user system < <(cpu_ticks "$@")
    awk -v t=$(( user + system )) -v k="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f", t / k }'
}

echo "== machine: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== working set: $tile_count tiles, $(( tile_bytes >> 20 )) MiB; memory cache $MEMORY_MB MiB; access logs $( (( ACCESS_LOG )) && echo on || echo off ); ${WARMUP} s of each list before each ${DURATION} s run"
printf '%-8s %-5s %-22s %10s %9s %11s %8s\n' list round server "requests/s" "p99 ms" "CPU us/req" errors
# shellcheck source=bench/median.sh
source "$SCRIPT_DIR/bench/median.sh"
for list in uniform zipf; do
    declare -A rps_ratios=() cpu_ratios=()
    for (( round = 1; round <= ROUNDS; round++ )); do
        declare -A rps_of=() cpu_of=()
        for server in tilelayer tilelayer-mbtiles nginx; do
            case $server in
                tilelayer) port=$TL_PORT; paths="$DATA/$list.txt"; pids=$TL_PID ;;
                tilelayer-mbtiles) port=$TL_PORT; paths="$TMP/mb-$list.txt"; pids=$TL_PID ;;
                nginx) port=$NG_PORT; paths="$DATA/$list.txt"; pids="$NG_PID $(pgrep -P "$NG_PID" | tr '\n' ' ')" ;;
            esac
            warm_page_cache
            if (( WARMUP > 0 )); then
                BENCH_PATHS="$paths" wrk -t 2 -c "$CONNECTIONS" -d "${WARMUP}s" --timeout 5s -s "$SCRIPT_DIR/bench/paths.lua" \
                    "http://127.0.0.1:$port/" >/dev/null
            fi
            # shellcheck disable=SC2086
            before=$(cpu_seconds $pids)
            out=$(BENCH_PATHS="$paths" wrk -t 2 -c "$CONNECTIONS" -d "${DURATION}s" --timeout 5s -s "$SCRIPT_DIR/bench/paths.lua" \
                  "http://127.0.0.1:$port/")
            # shellcheck disable=SC2086
            after=$(cpu_seconds $pids)
            line=$(grep '^BENCH ' <<<"$out") || die "no summary from wrk: $out"
            declare -A v=()
            for kv in ${line#BENCH }; do v[${kv%%=*}]=${kv#*=}; done
            errors=$(( v[err_connect] + v[err_read] + v[err_write] + v[err_timeout] + v[err_status] ))
            cpu=$(awk -v a="$before" -v b="$after" -v r="${v[rps]}" -v d="$DURATION" 'BEGIN { print (b - a) * 1e6 / (r * d) }')
            rps_of[$server]=${v[rps]}
            cpu_of[$server]=$cpu
            printf '%-8s %-5s %-22s %10.0f %9.2f %11.1f %8d\n' "$list" "$round" "$server" "${v[rps]}" \
                "$(awk -v us="${v[p99_us]}" 'BEGIN { print us / 1000 }')" "$cpu" "$errors"
        done
        for server in tilelayer tilelayer-mbtiles; do
            rps_ratios[$server]+="$(awk -v a="${rps_of[$server]}" -v b="${rps_of[nginx]}" 'BEGIN { print a / b }') "
            cpu_ratios[$server]+="$(awk -v a="${cpu_of[$server]}" -v b="${cpu_of[nginx]}" 'BEGIN { print a / b }') "
        done
    done
    if (( ROUNDS > 1 )); then
        for server in tilelayer tilelayer-mbtiles; do
            printf '%-8s %-28s requests/s %.2fx nginx (rounds: %s), CPU a request %.2fx (rounds: %s)\n' "$list" "median $server" \
                "$(median <<<"${rps_ratios[$server]}")" "$(printf '%.2f ' ${rps_ratios[$server]})" \
                "$(median <<<"${cpu_ratios[$server]}")" "$(printf '%.2f ' ${cpu_ratios[$server]})"
        done
    fi
    rss=$(awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$TL_PID/status")
    anon=$(awk '/^RssAnon/ { print int($2 / 1024) }' "/proc/$TL_PID/status")
    mapped=$(awk '/^RssFile/ { print int($2 / 1024) }' "/proc/$TL_PID/status")
    cached=$(curl -fs "http://127.0.0.1:$TL_PORT/metrics" | awk '/^tilelayer_cache_bytes / { print int($2 / 1048576) }')
    echo "         tilelayer after $list: RSS $rss MiB: $anon MiB process memory, $mapped MiB page cache mapped (the MBTiles file, lent from by its readers, each mapping counted); + memory cache $cached MiB (bodies in the memory-file arena, charged to the cgroup, not in RSS)"
done
