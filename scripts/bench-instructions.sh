#!/usr/bin/env bash
# bench-instructions.sh: what one hot tile request costs tilelayer and nginx, counted, not timed.
#
# Runs each server under valgrind's callgrind (one worker, so every instruction of the request
# path is seen), warms it up, zeroes the counters, sends COUNT keep-alive GETs of tile files
# one at a time on the warm-up's connection, so on the event loop the warm-up filled
# (scripts/bench/seq-client.py), dumps the counters and prints instructions per
# request. Then runs each server natively under `strace -c -f` for the same requests and prints
# system calls per request. Instruction and syscall counts do not depend on the machine's load
# or on how client and server share the CPUs, so they compare changes (and the two servers)
# where req/s figures are noise.
#
# Environment (defaults in brackets):
#   COUNT=2000        measured requests per server
#   WARMUP=300        requests before the counters are zeroed
#   ACCESS_LOG=0      1: access logs on at both sides (tilelayer's batched log; nginx's access_log to a file)
#   TRANSPORT=epoll   tilelayer's server.transport
#   SKIP_BUILD=0      1: use the existing release binary
#   TILELAYER=        a tilelayer binary to measure instead of this checkout's release build
#   KEEP=0            1: keep the temp dir (configs, callgrind files)
#   MEMORY=1          0: tilelayer's layer has no memory cache (tiles go out with sendfile from their files)
#   REVALIDATE_SECONDS=60  the layer's cache.revalidateSeconds (see below)
#   LINES=0           1: keep the binary's debug info, so the callgrind files (KEEP=1) name source
#                     lines; all of it must be DWARF 4, which valgrind 3.19 reads (the C targets'
#                     too): build it with swift build -c release --product tilelayer
#                     --scratch-path .build-dwarf -Xswiftc -g -Xswiftc -debug-info-format=dwarf
#                     -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4, and pass TILELAYER=
#   PROFILE=0         1: also print each server's functions by instructions (scripts/bench/callgrind-self.py)
#   WORKING_SET=      uniform or zipf: instead of 85 hot tiles, walk that request list of
#                     scripts/bench/make-working-set.py's pyramid (21,845 tiles, ~789 MiB; built on first
#                     use in $DATA, default /tmp/tilelayer-working-set) with a 256 MiB memory
#                     cache; WARMUP then defaults to 120000 (99.6 % of the tiles seen before the
#                     measured requests, which continue the list where the warm-up stopped).
#                     valgrind 3.19 does not know openat2, which tilelayer's event loops open
#                     files with (RESOLVE_CACHED: only from the kernel's caches); without it they
#                     leave such files to the workers; nor cachestat, without
#                     which the loops read a tile file into memory instead of sending it with
#                     sendfile. Under callgrind the server therefore runs with
#                     scripts/bench/openat2-shim.c preloaded, which answers openat2 with openat
#                     and cachestat with "all cached" (the files measured are all cached): the
#                     loops then take the path they take natively.
#   HEADERS=          browser: each request carries the twelve more header fields a browser
#                     sends with an image (scripts/bench/browser-headers.txt, captured from
#                     Chromium), instead of Host alone
#   MBTILES=0         1 (with WORKING_SET): tilelayer serves the pyramid's MBTiles file with no
#                     memory cache, nginx the extracted folder; the file is read into the page
#                     cache first
set -euo pipefail

COUNT=${COUNT:-2000}
WORKING_SET=${WORKING_SET:-}
[[ -z $WORKING_SET || $WORKING_SET == uniform || $WORKING_SET == zipf ]] \
    || { echo "bench-instructions: WORKING_SET must be uniform or zipf" >&2; exit 2; }
if [[ -n $WORKING_SET ]]; then WARMUP=${WARMUP:-120000}; else WARMUP=${WARMUP:-300}; fi
ACCESS_LOG=${ACCESS_LOG:-0}
TRANSPORT=${TRANSPORT:-epoll}
SKIP_BUILD=${SKIP_BUILD:-0}
KEEP=${KEEP:-0}
PROFILE=${PROFILE:-0}
LINES=${LINES:-0}
MEMORY=${MEMORY:-1}
MBTILES=${MBTILES:-0}
HEADERS=${HEADERS:-}
[[ -z $HEADERS || $HEADERS == browser ]] || { echo "bench-instructions: HEADERS must be empty or browser" >&2; exit 2; }
export SEQ_HEADERS=$HEADERS
[[ $MBTILES == 0 || -n $WORKING_SET ]] || { echo "bench-instructions: MBTILES=1 needs WORKING_SET" >&2; exit 2; }
[[ $MEMORY == 0 || $MEMORY == 1 ]] || { echo "bench-instructions: MEMORY must be 0 or 1" >&2; exit 2; }
# Under callgrind time runs about fifty times slower: with the default revalidateSeconds (1 s)
# each hot tile would be checked against its file every few requests, where natively it is once
# in hundreds; REVALIDATE_SECONDS (60) keeps the native proportion.
REVALIDATE_SECONDS=${REVALIDATE_SECONDS:-60}
export LAYER_CACHE="revalidateSeconds: $REVALIDATE_SECONDS"
if [[ $MEMORY == 0 ]]; then LAYER_CACHE="memory: false, $LAYER_CACHE"; fi

die() { echo "bench-instructions: $*" >&2; exit 2; }
for name in COUNT WARMUP; do [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number"; done

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
TILES="$REPO/tiles/world"
if [[ -n $WORKING_SET ]]; then
    DATA=${DATA:-/tmp/tilelayer-working-set}
    MAX_ZOOM=7
    # shellcheck source=bench/working-set.sh
    source "$SCRIPT_DIR/bench/working-set.sh"
    build_working_set "$DATA" "$MAX_ZOOM"
    TILES="$DATA/tiles"
    export MAX_ZOOM MEMORY_BYTES=$(( 256 << 20 ))
    if [[ $MBTILES == 1 ]]; then
        export LAYER_SOURCE="{type: mbtiles, path: \"$DATA/tiles.mbtiles\"}"
        [[ $MEMORY == 0 ]] || LAYER_CACHE="memory: false, $LAYER_CACHE"
        cat "$DATA/tiles.mbtiles" >/dev/null
    fi
fi
CLIENT="$SCRIPT_DIR/bench/seq-client.py"
PATH="/opt/swift/usr/bin:$PATH"

for tool in valgrind callgrind_control strace nginx python3 curl; do
    command -v "$tool" >/dev/null 2>&1 || [[ -x /usr/sbin/$tool ]] || die "$tool is not installed (apt-get install valgrind strace nginx)"
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-instructions.XXXXXX")
mkdir -p "$TMP"/{client_body,proxy,fastcgi,uwsgi,scgi}
chmod 755 "$TMP"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [[ $KEEP == 1 ]]; then echo "bench-instructions: kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

if [[ -n ${TILELAYER:-} ]]; then
    SKIP_BUILD=1
elif [[ $SKIP_BUILD != 1 ]]; then
    echo "== building tilelayer (swift build -c release)"
    swift build -c release --package-path "$REPO" --product tilelayer >"$TMP/build.log" 2>&1 \
        || { tail -n 30 "$TMP/build.log" >&2; die "release build failed"; }
fi
[[ -n ${TILELAYER:-} ]] || TILELAYER="$(swift build -c release --package-path "$REPO" --show-bin-path)/tilelayer"
[[ -x $TILELAYER ]] || die "no release binary at $TILELAYER"
# valgrind 3.19 cannot read Swift's DWARF 5 debug info; a copy without it (symbols kept, so
# callgrind still names functions) runs the same code. LINES=1 keeps a DWARF 4 build's.
if [[ $LINES == 1 ]]; then
    # valgrind 3.19 gives up at startup on a DWARF 5 unit, with a message only in its log.
    if (readelf --debug-dump=info "$TILELAYER" 2>/dev/null || true) | grep -q -m 1 -E '^ +Version: +5$'; then
        die "LINES=1: $TILELAYER has DWARF 5 debug info, which valgrind 3.19 cannot read; build it as LINES above says"
    fi
    cp "$TILELAYER" "$TMP/tilelayer"
else
    strip --strip-debug -o "$TMP/tilelayer" "$TILELAYER" || die "strip failed"
fi
TILELAYER="$TMP/tilelayer"
# valgrind 3.19 does not know openat2 or cachestat: a shim answers them (see WORKING_SET above).
cc -shared -fPIC -O2 -o "$TMP/openat2-shim.so" "$SCRIPT_DIR/bench/openat2-shim.c" -ldl || die "building the openat2 shim failed"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

if [[ -n $WORKING_SET ]]; then
    cp "$DATA/$WORKING_SET.txt" "$TMP/paths.txt"
else
    (cd "$TILES" && find . -name '*.png' -printf '%P\n' | awk -F/ '$1 <= 3' | sort | sed 's|^|/|') >"$TMP/paths.txt"
fi
[[ -s $TMP/paths.txt ]] || die "no tiles under $TILES"

echo "== machine"
echo "   cpu:        $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo) ($(nproc) CPUs)"
echo "   kernel:     $(uname -sr)"
echo "   loadavg:    $(cut -d' ' -f1-3 /proc/loadavg) (counts do not depend on it)"
echo "   tilelayer:  $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "   nginx:      $("$NGINX" -v 2>&1)"
if [[ -n $WORKING_SET ]]; then
    echo "   requests:   $COUNT measured after $WARMUP, one keep-alive connection, $WORKING_SET list of $(sort -u "$TMP/paths.txt" | wc -l) tiles ($DATA), memory cache 256 MiB"
    [[ -z $HEADERS ]] || echo "   headers:    a browser's (Host and 12 more fields a request)"
    [[ $MBTILES == 0 ]] || echo "   source:     tilelayer: $DATA/tiles.mbtiles, no memory cache; nginx: the extracted folder"
else
    echo "   requests:   $COUNT measured after $WARMUP, one keep-alive connection, $(wc -l <"$TMP/paths.txt") tile paths round robin"
fi
echo "   access log: $( (( ACCESS_LOG )) && echo on || echo off ) at both sides"
echo "   memory:     tilelayer's memory cache $( [[ $MEMORY == 0 || $MBTILES == 1 ]] && echo off || echo on )"

# shellcheck source=bench/configs.sh
source "$SCRIPT_DIR/bench/configs.sh"
write_configs() { # write_configs PORT_TL PORT_NG: nginx with one worker, no master (as under valgrind)
    write_tilelayer_config "$TMP/tilelayer.yml" "$1" "$TRANSPORT"
    write_nginx_config "$TMP/nginx.conf" "$2" "s|worker_processes auto;|worker_processes 1; master_process off;|"
}

wait_port() { # wait_port PORT PID
    local i
    for (( i = 0; i < 600; i++ )); do
        kill -0 "$2" 2>/dev/null || die "server (pid $2) exited during startup; see $TMP"
        curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:$1$(head -n 1 "$TMP/paths.txt")" && return 0
        sleep 0.2
    done
    die "server on port $1 did not answer"
}

client() { # client PORT COUNT [START]: requests from path START on, checked
    local out
    out=$(python3 "$CLIENT" "$1" "$TMP/paths.txt" "$2" "${3:-0}")
    [[ $out == *"ok=$2 "* ]] || die "not every request answered 200: $out"
}

# warm_then_measure PORT COMMAND...: WARMUP requests, COMMAND (zero the counters, start a
# tracer), then COUNT requests, all on one connection: the measured requests go to the event
# loop the warm-up filled (tilelayer remembers the heads it parsed per loop; with a second
# connection the measured requests could land on a cold loop).
warm_then_measure() {
    local port=$1 line out
    shift
    coproc SEQ { python3 "$CLIENT" "$port" "$TMP/paths.txt" "$COUNT" 0 "$WARMUP"; }
    read -r line <&"${SEQ[0]}"
    [[ $line == PAUSE ]] || die "the client did not finish its warm-up: $line"
    "$@"
    echo go >&"${SEQ[1]}"
    read -r out <&"${SEQ[0]}"
    wait "$SEQ_PID" 2>/dev/null || true
    [[ $out == *"ok=$COUNT "* ]] || die "not every request answered 200: $out"
}

start() { # start NAME PORT WRAPPER...: sets STARTED
    local name=$1 port=$2
    shift 2
    if [[ $name == tilelayer && $1 == valgrind ]]; then
        LD_PRELOAD="$TMP/openat2-shim.so" "$@" "$TILELAYER" serve --config "$TMP/tilelayer.yml" >"$TMP/$name.log" 2>&1 &
    elif [[ $name == tilelayer ]]; then
        "$@" "$TILELAYER" serve --config "$TMP/tilelayer.yml" >"$TMP/$name.log" 2>&1 &
    else
        "$@" "$NGINX" -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >"$TMP/$name.log" 2>&1 &
    fi
    STARTED=$!
    PIDS+=("$STARTED")
    wait_port "$port" "$STARTED"
}

stop() { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

zero_counters() { callgrind_control -z "$1" >/dev/null; }

start_tracer() { # start_tracer NAME PID: strace -c on every thread of PID; sets tracer
    # shellcheck disable=SC2046
    strace -f -c -o "$TMP/strace.$1" $(ls /proc/"$2"/task | sed 's/^/-p /') 2>/dev/null &
    tracer=$!
    sleep 1
}

declare -A IR SYS
for server in tilelayer nginx; do
    tl_port=$(free_port); ng_port=$(free_port)
    write_configs "$tl_port" "$ng_port"
    port=$tl_port; [[ $server == nginx ]] && port=$ng_port

    # Instructions: callgrind, counters zeroed after the warm-up, dumped after the measured run.
    start "$server" "$port" valgrind --tool=callgrind --callgrind-out-file="$TMP/callgrind.$server.%p"
    pid=$STARTED
    warm_then_measure "$port" zero_counters "$pid"
    callgrind_control -d "$pid" >/dev/null
    stop "$pid"
    # The dump asked for after zeroing (file .1) holds only the measured requests.
    dump=$(ls "$TMP"/callgrind."$server".*.1 2>/dev/null | head -n 1)
    [[ -n $dump ]] || die "callgrind wrote no dump for $server"
    total=$(awk '/^summary:/ { print $2; exit }' "$dump")
    [[ -n $total ]] || die "no callgrind totals for $server"
    IR[$server]=$(( total / COUNT ))
    if [[ $PROFILE == 1 ]]; then
        echo "== $server: functions by instructions (self), measured requests only"
        # callgrind_annotate 3.19 prints nothing useful for a dump taken after a zeroing.
        python3 "$SCRIPT_DIR/bench/callgrind-self.py" "$dump" 40 "$COUNT" | cut -c1-170
    fi

    # System calls: strace -c over the same requests on the native server.
    start "$server" "$port" env
    pid=$STARTED
    warm_then_measure "$port" start_tracer "$server" "$pid"
    kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
    stop "$pid"
    # The total line: "% time, seconds, usecs/call, calls, [errors,] total".
    calls=$(awk '$NF == "total" { print $4 }' "$TMP/strace.$server")
    SYS[$server]=$(awk -v c="$calls" -v n="$COUNT" 'BEGIN { printf "%.2f", c / n }')
    echo "== $server: $(printf "%'d" "${IR[$server]}") instructions/request, ${SYS[$server]} system calls/request"
    grep -E '^ *[0-9]' "$TMP/strace.$server" | grep -v ' total$' | sort -k4 -n -r | head -n 6 | awk -v n="$COUNT" '{ printf "     %-16s %.2f per request\n", $NF, $4 / n }'
done

echo "== result"
printf '   %-10s %16s %14s\n' server "instructions/req" "syscalls/req"
for server in tilelayer nginx; do printf '   %-10s %16s %14s\n' "$server" "$(printf "%'d" "${IR[$server]}")" "${SYS[$server]}"; done
awk -v a="${IR[tilelayer]}" -v b="${IR[nginx]}" 'BEGIN { printf "   instructions ratio tilelayer/nginx: %.2f\n", a / b }'
awk -v a="${SYS[tilelayer]}" -v b="${SYS[nginx]}" 'BEGIN { printf "   syscalls ratio tilelayer/nginx:     %.2f\n", a / b }'
