# Sourced by bench-working-set.sh and bench-cpu.sh: the temp dir, ports and stop of the two
# servers they compare.

# bench_setup NAME: a temp dir $TMP (with the folders nginx writes to), free loopback ports
# $TL_PORT and $NG_PORT; at exit the servers $TL_PID and $NG_PID are stopped and $TMP removed
bench_setup() {
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    mkdir -p "$TMP"/{client_body,proxy,fastcgi,uwsgi,scgi}
    chmod 755 "$TMP"
    TL_PID=""; NG_PID=""
    trap bench_cleanup EXIT
    TL_PORT=$(bench_free_port); NG_PORT=$(bench_free_port)
}

bench_cleanup() {
    for pid in $TL_PID $NG_PID; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$TMP"
}

bench_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
