#!/usr/bin/env bash
# bench-redis.sh: a tile answered from the shared Redis tier against a plain client's GET of the
# same value from the same Redis (issue 53's bar: within 1.5x).
#
# tilelayer serves ../shared/data/bluemarble.mbtiles (341 tiles, 24 MB of PNG) with no memory
# cache and `cache: {redis: true}`; every tile is asked once so that Redis holds it, then:
#   seq    one keep-alive connection, COUNT requests one at a time over all the tiles
#          (scripts/bench/seq-client.py), against one Redis connection GETting the same
#          values (their keys, scripts/bench/redis-seq-client.py): p50 and p99 latency.
#   load   wrk -c CONNECTIONS over the same tiles against redis-benchmark -c CONNECTIONS GETs
#          of one tile's value of median size: req/s, and CPU a request of each server (tilelayer;
#          redis-server) from /proc.
# Environment (defaults in brackets): COUNT [5000]  CONNECTIONS [16]  DURATION [10] seconds
# BUILD [1] (0: use the release binary as built)  TILELAYER [this checkout's release build]: a
# tilelayer binary to measure instead (another commit's, for a before-and-after)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
COUNT=${COUNT:-5000}; CONNECTIONS=${CONNECTIONS:-16}; DURATION=${DURATION:-10}
source "$root/scripts/bench/cpu-ticks.sh"
data="$root/../shared/data/bluemarble.mbtiles"
[[ -f $data ]] || { echo "bench-redis.sh: $data not found" >&2; exit 1; }
for tool in redis-server redis-benchmark redis-cli wrk python3 sqlite3 curl; do
    command -v "$tool" >/dev/null || { echo "bench-redis.sh: $tool not found (apt-get install redis-server wrk sqlite3 curl)" >&2; exit 1; }
done
if [ "${BUILD:-1}" = 1 ]; then (cd "$root" && swift build -c release --product tilelayer 2>&1 | tail -1); fi
work=$(mktemp -d /tmp/bench-redis.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
hz=$(getconf CLK_TCK)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"

redis_port=$(free_port)
redis-server --port "$redis_port" --save "" --appendonly no --bind 127.0.0.1 >"$work/redis.log" 2>&1 &
redis_pid=$!; pids+=("$redis_pid")
http_port=$(free_port)
cat >"$work/tilelayer.yml" <<YAML
server:
  host: 127.0.0.1
  port: $http_port
  log: {level: warning, access: false}
  cache: {redis: {url: "redis://127.0.0.1:$redis_port/0"}}
layers:
  - {name: mb, source: {type: mbtiles, path: $data}, cache: {memory: false, redis: true}}
YAML
"${TILELAYER:-$root/.build/release/tilelayer}" serve --config "$work/tilelayer.yml" 2>"$work/tilelayer.log" &
tl_pid=$!; pids+=("$tl_pid")
for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$http_port/healthz" && break; sleep 0.1; done

# The tiles (XYZ rows from the file's TMS rows), their Redis keys, and each asked once.
sqlite3 "$data" "select zoom_level, tile_column, (1 << zoom_level) - 1 - tile_row from tiles order by length(tile_data)" |
    awk -F'|' '{ print "/mb/" $1 "/" $2 "/" $3 ".png" }' >"$work/paths.txt"
sed 's|^/mb/\(.*\)\.png$|tilelayer:tile2:mb:g0:\1|' "$work/paths.txt" >"$work/keys.txt"
python3 "$root/scripts/bench/seq-client.py" "$http_port" "$work/paths.txt" "$(wc -l <"$work/paths.txt")" >/dev/null
for _ in $(seq 1 100); do
    [[ $(redis-cli -p "$redis_port" dbsize) -ge $(wc -l <"$work/keys.txt") ]] && break; sleep 0.1
done
echo "tiles: $(wc -l <"$work/paths.txt"), in Redis: $(redis-cli -p "$redis_port" dbsize) keys"

field() { sed "s/.*$1=\([0-9.]*\).*/\1/" <<<"$2"; }
tl=$(python3 "$root/scripts/bench/seq-client.py" "$http_port" "$work/paths.txt" "$COUNT" | grep '^SEQ')
rd=$(python3 "$root/scripts/bench/redis-seq-client.py" "$redis_port" "$work/keys.txt" "$COUNT" | grep '^SEQ')
echo "seq tilelayer (Redis-tier hits): $tl"
echo "seq redis GET of the same values: $rd"
python3 -c "import sys; a,b,c,d=map(float,sys.argv[1:]); print(f'seq ratio tilelayer/redis: p50 {a/b:.2f}x, p99 {c/d:.2f}x')" \
    "$(field p50_us "$tl")" "$(field p50_us "$rd")" "$(field p99_us "$tl")" "$(field p99_us "$rd")"

# Under load: wrk over every tile, redis-benchmark GETting the median tile's value.
median_key=$(sed -n "$(( ($(wc -l <"$work/keys.txt") + 1) / 2 ))p" "$work/keys.txt")
cat >"$work/paths.lua" <<LUA
local paths = {}
for line in io.lines("$work/paths.txt") do paths[#paths + 1] = line end
local i = 0
request = function() i = i % #paths + 1; return wrk.format("GET", paths[i]) end
LUA
before=$(cpu_ticks "$tl_pid")
wrk_out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$work/paths.lua" "http://127.0.0.1:$http_port")
after=$(cpu_ticks "$tl_pid")
tl_rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$wrk_out")
tl_p50=$(awk '$1 == "50%" { print $2 }' <<<"$wrk_out")
tl_cpu=$(python3 -c "import sys; b=sum(map(int,sys.argv[1].split())); a=sum(map(int,sys.argv[2].split())); print(f'{(a-b)/int(sys.argv[4])/ (float(sys.argv[3])*int(sys.argv[5])) * 1e6:.1f}')" \
    "$before" "$after" "$tl_rps" "$hz" "$DURATION")
before=$(cpu_ticks "$redis_pid")
requests=$(( ${tl_rps%.*} * DURATION ))
rb_out=$(redis-benchmark -p "$redis_port" -c "$CONNECTIONS" -n "$requests" --csv GET "$median_key" | tail -1)
after=$(cpu_ticks "$redis_pid")
rd_rps=$(tr -d '"' <<<"$rb_out" | cut -d, -f2)
rd_p50=$(tr -d '"' <<<"$rb_out" | cut -d, -f5)
rd_cpu=$(python3 -c "import sys; b=sum(map(int,sys.argv[1].split())); a=sum(map(int,sys.argv[2].split())); print(f'{(a-b)/int(sys.argv[4])/int(sys.argv[3]) * 1e6:.1f}')" \
    "$before" "$after" "$requests" "$hz")
echo "load -c$CONNECTIONS tilelayer: $tl_rps req/s, p50 $tl_p50, $tl_cpu CPU-us a request (server)"
echo "load -c$CONNECTIONS redis GET (median value): $rd_rps req/s, p50 ${rd_p50} ms, $rd_cpu CPU-us a request (redis-server)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
