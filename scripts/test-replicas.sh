#!/usr/bin/env bash
# Deployment test of several replicas (issue 19): redis-server and nginx (Debian; installed when
# missing) on loopback, two `tilelayer serve` replicas started from ONE configuration file, and
# nginx in front with `proxy_cache` and `proxy_cache_revalidate on`, logging
# `$upstream_cache_status`. It checks, printing PASS/FAIL lines (exit 1 on any FAIL):
#   - /readyz is 200 on both replicas;
#   - B serves A's render from Redis without rendering (tilelayer_renders_total in /metrics);
#   - `tilelayer clear-cache --layer L --server A --server B` leads to exactly one new render,
#     shared by both;
#   - nginx revalidates an expired tile with If-None-Match and gets 304 (REVALIDATED);
#   - Redis stopped mid-test: both replicas keep answering 200, and count the errors;
#   - /readyz is 503 naming the layer whose folder went away, 200 again once it is back.
# FIGURES=1 also measures renders across two replicas with and without the shared tier, and the
# latency of a Redis hit against a memory hit (curl over one keep-alive connection, medians).
# The servers are the release build (the shipped flags, no assert); CONFIGURATION=debug for a
# debug one.
#   scripts/test-replicas.sh
#   FIGURES=1 scripts/test-replicas.sh
set -euo pipefail

cd "$(dirname "$0")/.."
root="$PWD" out="$PWD/scripts/out" configuration="${CONFIGURATION:-release}"
mkdir -p "$out"

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v nginx >/dev/null 2>&1 || need+=(nginx)
command -v curl >/dev/null 2>&1 || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
redis_server="$(command -v redis-server)"
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

echo "building tilelayer ($configuration)..."
swift build -c "$configuration" --product tilelayer >"$out/replicas-build.log" 2>&1 || { tail -30 "$out/replicas-build.log"; exit 1; }
tilelayer="$(swift build -c "$configuration" --show-bin-path)/tilelayer"

work="$(mktemp -d /tmp/tilelayer-replicas.XXXXXX)"
pids=()
redis_pid=""
cleanup() {
    for pid in "${pids[@]}" $redis_pid; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}" $redis_pid; do wait "$pid" 2>/dev/null || true; done
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
redis_port="$(free_port)"; port_a="$(free_port)"; port_b="$(free_port)"; nginx_port="$(free_port)"
A="http://127.0.0.1:$port_a"; B="http://127.0.0.1:$port_b"; N="http://127.0.0.1:$nginx_port"
token="replicas-$(date +%s)"

failures=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }
check() { local what="$1"; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

start_redis() {
    "$redis_server" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
        --daemonize no --logfile "$work/redis.log" &
    redis_pid=$!
    for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
    echo "redis-server did not start"; cat "$work/redis.log"; exit 1
}

# One configuration for both replicas (the port comes from the command line). `relief` renders
# `@2x` from the shipped world pyramid and shares it through Redis; `local` is the same without
# Redis (figures only); `spare` is a folder the readiness check takes away.
cp -r tiles/world "$work/spare"
cat >"$work/tilelayer.yml" <<EOF
server:
  host: 127.0.0.1
  adminToken: $token
  log: {access: false}
  cache:
    redis: {url: "redis://127.0.0.1:$redis_port/0", ttlSeconds: 3600, timeoutMs: 200}
layers:
  - name: relief
    source: {type: directory, path: $root/tiles/world}
    maxAge: 2
    cache: {redis: true}
  - name: relief-redis-only
    source: {type: directory, path: $root/tiles/world}
    cache: {memory: false, redis: true}
  - name: local
    source: {type: directory, path: $root/tiles/world}
  - name: spare
    source: {type: directory, path: $work/spare}
EOF

start_replica() {  # name port
    "$tilelayer" serve --config "$work/tilelayer.yml" --port "$2" >"$out/replica-$1.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$2/healthz" >/dev/null 2>&1 && return 0; sleep 0.1; done
    echo "replica $1 did not start"; cat "$out/replica-$1.log"; exit 1
}

start_redis
start_replica a "$port_a"
start_replica b "$port_b"

mkdir -p "$work/nginx-cache" "$work/nginx-temp"
user_line=""; [ "$(id -u)" = 0 ] && user_line="user root;"
cat >"$work/nginx.conf" <<EOF
$user_line
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 256; }
http {
    log_format cache '\$request_uri \$status \$upstream_cache_status \$upstream_status';
    access_log $work/nginx-access.log cache;
    client_body_temp_path $work/nginx-temp/body;
    proxy_temp_path $work/nginx-temp/proxy;
    fastcgi_temp_path $work/nginx-temp/fastcgi;
    uwsgi_temp_path $work/nginx-temp/uwsgi;
    scgi_temp_path $work/nginx-temp/scgi;
    proxy_cache_path $work/nginx-cache keys_zone=tiles:1m max_size=64m;
    upstream replicas { server 127.0.0.1:$port_a; server 127.0.0.1:$port_b; keepalive 8; }
    server {
        listen 127.0.0.1:$nginx_port;
        location / {
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_cache tiles;
            proxy_cache_revalidate on;
            add_header X-Cache-Status \$upstream_cache_status always;
        }
    }
}
EOF
"$nginx_bin" -c "$work/nginx.conf" -p "$work" -e "$work/nginx-error.log" || { cat "$work/nginx-error.log"; exit 1; }
for _ in $(seq 50); do curl -sf "$N/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

metric() {  # base name layer → the counter's value (0 when absent)
    curl -sf "$1/metrics" | awk -v name="$2" -v layer="layer=\"$3\"" \
        '$1 ~ "^"name"\\{" && index($1, layer) { sum += $2 } END { printf "%d\n", sum }'
}
errors() { curl -sf "$1/metrics" | awk '$1 ~ /^tilelayer_redis_errors_total/ { sum += $2 } END { printf "%d\n", sum }'; }
etag() { curl -sfI "$1" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }'; }
status() { curl -s -o /dev/null -w '%{http_code}' "$1"; }

echo "== readiness"
check "/readyz 200 on A" [ "$(status "$A/readyz")" = 200 ]
check "/readyz 200 on B" [ "$(status "$B/readyz")" = 200 ]

echo "== B serves A's render from Redis"
tile="/relief/2/1/1@2x.png"
curl -sf "$A$tile" -o "$work/a.png"
sleep 0.3  # the write to Redis is queued off the request's path
curl -sf "$B$tile" -o "$work/b.png"
renders_a="$(metric "$A" tilelayer_renders_total relief)"; renders_b="$(metric "$B" tilelayer_renders_total relief)"
check "A rendered the tile once (renders A=$renders_a)" [ "$renders_a" = 1 ]
check "B served it without rendering (renders B=$renders_b, redis hits B=$(metric "$B" tilelayer_redis_hits_total relief))" \
    [ "$renders_b" = 0 ]
check "same bytes on A and B" cmp -s "$work/a.png" "$work/b.png"
check "same ETag on A and B" [ "$(etag "$A$tile")" = "$(etag "$B$tile")" ]

echo "== clear-cache fan-out"
before=$((renders_a + renders_b))
if report="$("$tilelayer" clear-cache --layer relief --server "$A" --server "$B" --token "$token" 2>&1)"; then
    pass "clear-cache --server A --server B: $(echo "$report" | tr '\n' ' ')"
else
    fail "clear-cache --server A --server B: $report"
fi
curl -sf "$A$tile" -o "$work/a2.png"
sleep 0.3
curl -sf "$B$tile" -o "$work/b2.png"
after=$(($(metric "$A" tilelayer_renders_total relief) + $(metric "$B" tilelayer_renders_total relief)))
check "exactly one new render after the clear, shared by both (renders $before → $after)" [ $((after - before)) = 1 ]
check "both serve the new render's bytes" cmp -s "$work/a2.png" "$work/b2.png"

echo "== nginx revalidates with If-None-Match"
nt="/relief/1/0/0.png"
first="$(curl -s -o /dev/null -D - "$N$nt" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache-status" { print $2 }')"
second="$(curl -s -o /dev/null -D - "$N$nt" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache-status" { print $2 }')"
sleep 3  # maxAge 2: nginx's copy is stale now
third="$(curl -s -o /dev/null -D - "$N$nt" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache-status" { print $2 }')"
check "nginx: MISS, HIT, then REVALIDATED after max-age ($first, $second, $third)" \
    [ "$first/$second/$third" = "MISS/HIT/REVALIDATED" ]
check "nginx's access log shows the revalidation answered 304 by a replica" \
    grep -q "^$nt 200 REVALIDATED 304" "$work/nginx-access.log"

echo "== Redis stopped mid-test"
kill "$redis_pid"; wait "$redis_pid" 2>/dev/null || true; redis_pid=""
ok=0; total=0
for y in 0 1 2 3; do
    for base in "$A" "$B"; do
        total=$((total + 1)); [ "$(status "$base/relief/2/$y/1@2x.png")" = 200 ] && ok=$((ok + 1))
        total=$((total + 1)); [ "$(status "$base/relief/3/$y/$y.png")" = 200 ] && ok=$((ok + 1))
    done
done
check "both replicas answered 200 without Redis ($ok/$total)" [ "$ok" = "$total" ]
errors_a="$(errors "$A")"; errors_b="$(errors "$B")"
check "the failures are counted (tilelayer_redis_errors_total A=$errors_a, B=$errors_b)" [ "$((errors_a > 0 && errors_b > 0))" = 1 ]
check "logged once per minute at most (A's log: $(grep -c 'redis cache unavailable' "$out/replica-a.log") line)" \
    [ "$(grep -c 'redis cache unavailable' "$out/replica-a.log")" = 1 ]
start_redis
sleep 0.5
curl -sf "$A/relief/0/0/0@2x.png" -o /dev/null; sleep 0.3
stored="$(metric "$A" tilelayer_redis_stored_total relief)"
check "A reconnected to the restarted Redis by itself (stored $stored values in all)" \
    [ -n "$(redis-cli -p "$redis_port" --scan --pattern 'tilelayer:tile2:relief:*' | head -1)" ]

echo "== readiness names a broken layer"
mv "$work/spare" "$work/spare.away"
body="$(curl -s "$A/readyz")"; code="$(status "$A/readyz")"
named=0; [[ "$body" == *'"spare"'* ]] && named=1
check "/readyz 503 naming the layer whose folder went away ($code: $body)" [ "$code/$named" = 503/1 ]
mv "$work/spare.away" "$work/spare"
check "/readyz 200 again on A and B" [ "$(status "$A/readyz")/$(status "$B/readyz")" = 200/200 ]

if [ "${FIGURES:-0}" = 1 ]; then
    echo "== figures ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
    sweep() {  # base layer → requests every @2x tile of zooms 0-2
        local urls=()
        for z in 0 1 2; do n=$((1 << z)); for x in $(seq 0 $((n - 1))); do for y in $(seq 0 $((n - 1))); do
            urls+=(-o /dev/null "$1/$2/$z/$x/$y@2x.png"); done; done; done
        curl -sf "${urls[@]}"
    }
    for layer in local relief; do
        a0="$(metric "$A" tilelayer_renders_total $layer)"; b0="$(metric "$B" tilelayer_renders_total $layer)"
        [ "$layer" = relief ] && "$tilelayer" clear-cache --layer relief --server "$A" --server "$B" --token "$token" >/dev/null
        sweep "$A" "$layer"; sleep 0.5; sweep "$B" "$layer"
        a1="$(metric "$A" tilelayer_renders_total $layer)"; b1="$(metric "$B" tilelayer_renders_total $layer)"
        echo "FIGURE  cold sweep of 21 @2x tiles (zooms 0-2) on A then B, layer $layer ($([ $layer = relief ] && echo with || echo without) Redis): renders A=$((a1 - a0)) B=$((b1 - b0))"
    done
    latency() {  # url count → median and p90 of time_total in microseconds over one keep-alive connection
        local args=()
        for _ in $(seq "$2"); do args+=(-o /dev/null "$1"); done
        curl -s -w '%{time_total}\n' "${args[@]}" | tail -n +11 | sort -n \
            | awk '{ v[NR] = $1 * 1e6 } END { printf "median %d µs, p90 %d µs over %d\n", v[int(NR / 2) + 1], v[int(NR * 0.9)], NR }'
    }
    curl -sf -o /dev/null "$A/relief/2/2/1@2x.png" -o /dev/null "$A/relief-redis-only/2/2/1@2x.png"; sleep 0.3
    echo "FIGURE  memory hit  (relief, @2x):             $(latency "$A/relief/2/2/1@2x.png" 510)"
    echo "FIGURE  Redis hit   (relief-redis-only, @2x):  $(latency "$A/relief-redis-only/2/2/1@2x.png" 510)"
    echo "FIGURE  redis hits on A: $(metric "$A" tilelayer_redis_hits_total relief-redis-only) (relief-redis-only), renders $(metric "$A" tilelayer_renders_total relief-redis-only)"
    # The same Redis hit against a plain client's GET of its value, both one request at a time
    # on one connection from Python (scripts/bench/seq-client.py, redis-seq-client.py).
    key="$(redis-cli -p "$redis_port" --scan --pattern 'tilelayer:tile2:relief-redis-only:*:2/2/1@2x' | head -1)"
    if [ -z "$key" ]; then
        echo "FIGURE  no Redis key for relief-redis-only 2/2/1@2x: no comparison with a plain GET"
    else
        echo "/relief-redis-only/2/2/1@2x.png" >"$work/redis-hit-path"; echo "$key" >"$work/redis-hit-key"
        hit="$(python3 "$root/scripts/bench/seq-client.py" "$port_a" "$work/redis-hit-path" 500 | grep '^SEQ')"
        get="$(python3 "$root/scripts/bench/redis-seq-client.py" "$redis_port" "$work/redis-hit-key" 500 | grep '^SEQ')"
        p50() { sed 's/.*p50_us=\([0-9]*\).*/\1/' <<<"$1"; }
        echo "FIGURE  Redis hit, Python client: p50 $(p50 "$hit") µs; a plain GET of its value ($key): p50 $(p50 "$get") µs;" \
            "ratio $(python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.2f}')" "$(p50 "$hit")" "$(p50 "$get")")x"
    fi
fi

echo "== $failures failed"
[ "$failures" = 0 ]
