#!/usr/bin/env bash
# bench-ab.sh: two (or more) tilelayer binaries on the same configuration and request list, in
# turns, each round in the same order: requests/s, p99 and server CPU per request (user + system
# time of the server process over the measured run), so a change is judged against the binary
# before it in the same minutes of the same host, not against figures from another hour.
#
#   scripts/bench-ab.sh CONFIG PATHS BINARY BINARY...
#
# CONFIG is a tilelayer YAML file (its server.port is where wrk goes); PATHS a request list, one
# path a line (scripts/bench/paths.lua). Keep a binary to compare with a copy:
#   cp .build/release/tilelayer /tmp/tilelayer-before
#
# Environment (defaults in brackets):
#   ROUNDS=2        rounds (each runs every binary once)
#   DURATION=8      seconds of each measured wrk run
#   WARMUP=4        seconds of the same list before each measured run
#   CONNECTIONS=64  wrk connections (2 threads)
#   WARM=           files or folders read whole before each run (the page cache on these
#                   machines pages out idle files: read them back so no binary pays for it)
#   PORT=           where the servers listen (default: server.port of CONFIG)
set -euo pipefail

die() { echo "bench-ab: $*" >&2; exit 2; }
(( $# >= 4 )) || die "usage: bench-ab.sh CONFIG PATHS BINARY BINARY..."
CONFIG=$1 PATHS=$2
shift 2
ROUNDS=${ROUNDS:-2} DURATION=${DURATION:-8} WARMUP=${WARMUP:-4} CONNECTIONS=${CONNECTIONS:-64} WARM=${WARM:-}
for name in ROUNDS DURATION WARMUP CONNECTIONS; do [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number"; done
[[ -r $CONFIG ]] || die "no configuration at $CONFIG"
[[ -r $PATHS ]] || die "no request list at $PATHS"
for binary in "$@"; do [[ -x $binary ]] || die "$binary is not an executable"; done
command -v wrk >/dev/null || die "wrk is not installed"
command -v curl >/dev/null || die "curl is not installed"
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# server.port, block or flow style: the first "port: N" from the "server:" line to the next top-level key.
PORT=${PORT:-$(awk '/^server:/ { inside = 1 } /^[^ #]/ && !/^server:/ { inside = 0 }
                    inside && match($0, /port: *[0-9]+/) { print substr($0, RSTART + 5) + 0; exit }' "$CONFIG")}
[[ $PORT =~ ^[0-9]+$ ]] || die "no server.port in $CONFIG (set PORT)"

SERVER_PID=""
LOG=$(mktemp "${TMPDIR:-/tmp}/bench-ab.XXXXXX")
cleanup() {
    [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    rm -f "$LOG"
}
trap cleanup EXIT

# shellcheck source=bench/cpu-ticks.sh
source "$SCRIPT_DIR/bench/cpu-ticks.sh"
# total_ticks PID: user and system ticks together
total_ticks() { local user system; read -r user system < <(cpu_ticks "$1"); echo $(( user + system )); }
run_wrk() { BENCH_PATHS=$PATHS wrk -t 2 -c "$CONNECTIONS" -d "$1s" --timeout 5s -s "$SCRIPT_DIR/bench/paths.lua" "http://127.0.0.1:$PORT/"; }

echo "== machine: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $CONFIG, $(wc -l <"$PATHS") paths from $PATHS; $ROUNDS rounds of ${WARMUP} s + ${DURATION} s per binary"
printf '%-6s %-36s %10s %8s %11s %7s\n' round binary "requests/s" "p99 ms" "CPU us/req" errors
for (( round = 1; round <= ROUNDS; round++ )); do
    for binary in "$@"; do
        ! curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/" || die "something already answers on port $PORT"
        "$binary" serve --config "$CONFIG" >"$LOG" 2>&1 &
        SERVER_PID=$!
        for (( i = 0; ; i++ )); do
            kill -0 "$SERVER_PID" 2>/dev/null || die "$binary exited at start: $(tail -3 "$LOG")"
            curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
            (( i < 100 )) || die "$binary did not answer on port $PORT within 10 s"
            sleep 0.1
        done
        # shellcheck disable=SC2086
        [[ -n $WARM ]] && find $WARM -type f -print0 | xargs -0 cat >/dev/null
        (( WARMUP > 0 )) && run_wrk "$WARMUP" >/dev/null
        before=$(total_ticks "$SERVER_PID")
        line=$(run_wrk "$DURATION" | grep '^BENCH ') || die "no summary from wrk"
        after=$(total_ticks "$SERVER_PID")
        declare -A v=()
        for kv in ${line#BENCH }; do v[${kv%%=*}]=${kv#*=}; done
        errors=$(( v[err_connect] + v[err_read] + v[err_write] + v[err_timeout] + v[err_status] ))
        printf '%-6s %-36s %10.0f %8.2f %11.1f %7d\n' "$round" "$binary" "${v[rps]}" \
            "$(awk -v us="${v[p99_us]}" 'BEGIN { print us / 1000 }')" \
            "$(awk -v a="$before" -v b="$after" -v n="${v[requests]}" -v k="$(getconf CLK_TCK)" \
                'BEGIN { print (b - a) / k * 1e6 / n }')" "$errors"
        kill "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    done
done
