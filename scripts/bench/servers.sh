# Sourced by bench.sh and bench-instructions.sh (after they define `die`, `REPO` and
# `SKIP_BUILD`): the tools, the temp dir, ports, start and stop of the servers they compare
# (tilelayer and nginx, and any more tilelayers started with `bench_start_tilelayer`).

# bench_tools: $NGINX and wrk found (or die), and $TILELAYER, the release binary, built unless
# SKIP_BUILD=1
bench_tools() {
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
    [[ -x $NGINX ]] || die "nginx is not installed"
    command -v wrk >/dev/null || die "wrk is not installed"
    if [[ $SKIP_BUILD != 1 ]]; then
        echo "== building tilelayer (swift build -c release)"
        swift build -c release --package-path "$REPO" --product tilelayer >/dev/null
    fi
    TILELAYER="$(swift build -c release --package-path "$REPO" --show-bin-path)/tilelayer"
    [[ -x $TILELAYER ]] || die "no release binary at $TILELAYER (run without SKIP_BUILD=1)"
}

# bench_setup NAME: a temp dir $TMP (with the folders nginx writes to), free loopback ports
# $TL_PORT and $NG_PORT; at exit the servers $TL_PID and $NG_PID (and $BENCH_EXTRA_PIDS) are
# stopped and $TMP removed
bench_setup() {
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    mkdir -p "$TMP"/{client_body,proxy,fastcgi,uwsgi,scgi}
    chmod 755 "$TMP"
    TL_PID=""; NG_PID=""
    trap bench_cleanup EXIT
    TL_PORT=$(bench_free_port); NG_PORT=$(bench_free_port)
}

bench_cleanup() {
    bench_cleanup_servers
    rm -rf "$TMP"
}

# bench_cleanup_servers: stops the servers started so far (the next scenario starts its own)
bench_cleanup_servers() {
    for pid in $TL_PID $NG_PID ${BENCH_EXTRA_PIDS:-}; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    TL_PID=""; NG_PID=""; BENCH_EXTRA_PIDS=""
}

bench_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# bench_start_servers PATH: tilelayer on $TMP/tilelayer.yml and nginx on $TMP/nginx.conf, each
# answering PATH with a 2xx within 10 s, or die with what its log says
bench_start_servers() {
    "$TILELAYER" serve --config "$TMP/tilelayer.yml" >"$TMP/tilelayer.log" 2>&1 &
    TL_PID=$!
    "$NGINX" -p "$TMP" -e "$TMP/nginx-error.log" -c "$TMP/nginx.conf" >"$TMP/nginx.log" 2>&1 &
    NG_PID=$!
    bench_wait_for "$TL_PORT" "$1" "$TMP/tilelayer.log"
    bench_wait_for "$NG_PORT" "$1" "$TMP/nginx-error.log"
}

# bench_start_tilelayer NAME PORT PATH: one more tilelayer, on $TMP/NAME.yml, logging to
# $TMP/NAME.log; its pid in $BENCH_STARTED_PID (and stopped at exit), answering PATH within 10 s
bench_start_tilelayer() {
    "$TILELAYER" serve --config "$TMP/$1.yml" >"$TMP/$1.log" 2>&1 &
    BENCH_STARTED_PID=$!
    BENCH_EXTRA_PIDS="${BENCH_EXTRA_PIDS:-} $BENCH_STARTED_PID"
    bench_wait_for "$2" "$3" "$TMP/$1.log"
}

# bench_wait_for PORT PATH LOG: the server on PORT answers PATH with a 2xx within 10 s, or die
# with the end of LOG
bench_wait_for() {
    local i
    for (( i = 0; i < 100; i++ )); do curl -fs -o /dev/null "http://127.0.0.1:$1$2" && return 0; sleep 0.1; done
    die "the server on port $1 did not answer $2 within 10 s; its log ends: $(tail -n 5 "$3" 2>/dev/null)"
}
