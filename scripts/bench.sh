#!/usr/bin/env bash
# bench.sh: tilelayer against nginx on the same tiles, each with its own settings as shipped
# (tilelayer's defaults: a 256 MiB memory cache, revalidateSeconds 1; nginx with sendfile and an
# open_file_cache of 60 s), both on loopback, wrk as the client. Rounds alternate which server
# goes first; figures are the median of the rounds, ratios the median of each round's ratio.
#
# Per server: req/s and p99 (wrk), and, counted by the kernel for the server's threads while wrk
# runs (`perf stat`): CPU µs a request (task-clock, exact) and system calls a request. CPU and
# calls a request carry across machines; req/s depends on how client and server share the cores.
#
# Scenarios (SCENARIO, default "hot uniform zipf"):
#   hot       the 85 tiles of tiles/world (zoom 0-3), memory hits after the first round
#   uniform   scripts/bench/make-working-set.py's pyramid (21,845 distinct tiles, ~1.3 GB with
#   zipf      ../shared/data, zoom 0-7) walked uniformly or Zipf (s = 1), 256 MiB memory cache;
#             tilelayer serves it as a folder ("tilelayer") and as MBTiles ("mbtiles", a server
#             of its own), nginx the folder
# Environment: ROUNDS=3 DURATION=5 WARMUP=2 (seconds per server a round) FIRST_WARMUP=15 (working
# set: seconds of each server's list before round 1, one pass) CONNECTIONS=64 ACCESS_LOG=0 (1: on
# at both sides) SKIP_BUILD=0 DATA=/tmp/tilelayer-working-set
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
BENCH=$REPO/scripts/bench
SCENARIO=${SCENARIO:-hot uniform zipf}
ROUNDS=${ROUNDS:-3}; DURATION=${DURATION:-5}; WARMUP=${WARMUP:-2}; FIRST_WARMUP=${FIRST_WARMUP:-15}
CONNECTIONS=${CONNECTIONS:-64}; ACCESS_LOG=${ACCESS_LOG:-0}; SKIP_BUILD=${SKIP_BUILD:-0}
DATA=${DATA:-/tmp/tilelayer-working-set}
export ACCESS_LOG
die() { echo "bench: $*" >&2; exit 2; }
command -v perf >/dev/null || die "perf is not installed (apt-get install linux-perf)"
source "$BENCH/servers.sh"
source "$BENCH/configs.sh"
source "$BENCH/working-set.sh"
bench_tools
bench_setup tilelayer-bench

# measure NAME PID PORT LIST: one wrk run against PORT (paths from LIST) with perf counting PID's
# threads; appends "NAME rps p99_us cpu_us_per_request calls_per_request errors" to $TMP/rows
measure() {
    local name=$1 pid=$2 port=$3 list=$4 out stat
    stat=$TMP/perf-$name.txt
    # The server's process and its children (nginx's workers under its master).
    local pids
    pids=$(printf '%s\n' "$pid" $(pgrep -P "$pid") | paste -sd,)
    perf stat -x, -e task-clock,raw_syscalls:sys_enter -p "$pids" -o "$stat" -- sleep "$DURATION" &
    local perf_pid=$!
    out=$(BENCH_PATHS=$list wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$BENCH/paths.lua" \
        "http://127.0.0.1:$port" | grep '^BENCH')
    wait "$perf_pid" || true
    python3 - "$name" "$out" "$stat" >>"$TMP/rows" <<'EOF'
import re, sys
name, line, stat = sys.argv[1], sys.argv[2], sys.argv[3]
f = dict(kv.split("=") for kv in line.split()[1:])
counts = {}
for row in open(stat):
    parts = row.strip().split(",")
    if len(parts) > 2 and parts[0] not in ("", "<not counted>", "<not supported>"):
        counts[parts[2]] = float(parts[0])
requests = max(1, int(f["requests"]))
errors = sum(int(f[k]) for k in f if k.startswith("err_"))
cpu_us = counts.get("task-clock", 0) * 1000 / requests  # task-clock is in ms
calls = counts.get("raw_syscalls:sys_enter", 0) / requests
print(f"{name} {float(f['rps']):.0f} {f['p99_us']} {cpu_us:.2f} {calls:.2f} {errors}")
EOF
}

# run SCENARIO LIST SERVERS...: ROUNDS rounds of each "name:pid:port" in turn (order alternating)
run() {
    local scenario=$1 list=$2; shift 2
    local servers=("$@") round entry
    : >"$TMP/rows"
    for entry in "${servers[@]}"; do
        IFS=: read -r name pid port <<<"$entry"
        BENCH_PATHS=$list wrk -t2 -c"$CONNECTIONS" -d"${FIRST:-$WARMUP}s" -s "$BENCH/paths.lua" "http://127.0.0.1:$port" >/dev/null
    done
    for (( round = 1; round <= ROUNDS; round++ )); do
        local order=("${servers[@]}")
        (( round % 2 == 0 )) && order=($(printf '%s\n' "${servers[@]}" | tac))
        for entry in "${order[@]}"; do
            IFS=: read -r name pid port <<<"$entry"
            BENCH_PATHS=$list wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" -s "$BENCH/paths.lua" "http://127.0.0.1:$port" >/dev/null
            measure "$name" "$pid" "$port" "$list"
        done
    done
    python3 - "$scenario" "$TMP/rows" <<'EOF'
import statistics, sys
scenario, rows = sys.argv[1], [r.split() for r in open(sys.argv[2])]
names = list(dict.fromkeys(r[0] for r in rows))
by = {n: [r for r in rows if r[0] == n] for n in names}
med = lambda xs: statistics.median(xs)
print(f"\n== {scenario}: median of {len(by[names[0]])} rounds")
print(f"{'server':<12} {'req/s':>9} {'p99 ms':>8} {'CPU µs/req':>11} {'calls/req':>10} {'errors':>7}")
for n in names:
    rs = by[n]
    print(f"{n:<12} {med([float(r[1]) for r in rs]):>9.0f} {med([float(r[2]) for r in rs]) / 1000:>8.2f} "
          f"{med([float(r[3]) for r in rs]):>11.2f} {med([float(r[4]) for r in rs]):>10.2f} {sum(int(r[5]) for r in rs):>7}")
base = by["nginx"]
for n in names:
    if n == "nginx": continue
    rps = med([float(a[1]) / float(b[1]) for a, b in zip(by[n], base)])
    cpu = med([float(a[3]) / float(b[3]) for a, b in zip(by[n], base)])
    print(f"{n} / nginx: req/s {rps:.3f}x, CPU a request {cpu:.3f}x")
EOF
}

grep -m1 'model name' /proc/cpuinfo
echo "nproc $(nproc); rounds $ROUNDS x ${DURATION}s; $CONNECTIONS connections; access logs $ACCESS_LOG"
for scenario in $SCENARIO; do
    case $scenario in
    hot)
        TILES=$REPO/tiles/world
        (cd "$TILES" && find . -name '*.png' | sed 's|^\.||' | sort) >"$TMP/hot.txt"
        write_tilelayer_config "$TMP/tilelayer.yml" "$TL_PORT"
        write_nginx_config "$TMP/nginx.conf" "$NG_PORT"
        bench_start_servers /0/0/0.png
        FIRST=$WARMUP run hot "$TMP/hot.txt" "tilelayer:$TL_PID:$TL_PORT" "nginx:$NG_PID:$NG_PORT"
        ;;
    uniform|zipf)
        build_working_set "$DATA" 7
        TILES=$DATA/tiles
        write_working_set_config "$TMP/tilelayer.yml" "$TL_PORT" "$DATA" 7 256
        write_nginx_config "$TMP/nginx.conf" "$NG_PORT"
        bench_start_servers /0/0/0.png
        MB_PORT=$(bench_free_port)
        write_working_set_cached_mbtiles_config "$TMP/mbtiles.yml" "$MB_PORT" "$DATA" 7 256
        bench_start_tilelayer mbtiles "$MB_PORT" /0/0/0.png
        FIRST=$FIRST_WARMUP run "$scenario" "$DATA/$scenario.txt" \
            "tilelayer:$TL_PID:$TL_PORT" "mbtiles:$BENCH_STARTED_PID:$MB_PORT" "nginx:$NG_PID:$NG_PORT"
        ;;
    *) die "unknown scenario $scenario" ;;
    esac
    bench_cleanup_servers
done
