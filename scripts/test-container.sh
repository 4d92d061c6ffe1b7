#!/usr/bin/env bash
# test-container.sh — build the project's Dockerfile, run the image, and check it from the host.
#
#   scripts/test-container.sh            # prints "container: N passed, N failed"; exit 1 on any failure
#
# Engine: `docker` when a Docker engine is reachable (`docker info` succeeds); otherwise rootful
# podman, offline (Debian 12, root; no registry needed):
#   - installs podman/runc/debootstrap/curl from Debian if missing;
#   - probes that podman can start a trivial image it made itself; where it cannot, the machine
#     cannot run containers at all: the script says so loudly, prints "SKIP container/engine: …" and exits 0
#     (under CI=true a check that cannot run is a failure: it exits 1 instead);
#   - makes the base images the Dockerfile names and keeps them for the next run:
#       docker.io/library/debian:bookworm-slim  <- debootstrap --variant=minbase + podman import
#       docker.io/library/swift:6.3-bookworm    <- that + Swift build packages + a copy of /opt/swift/usr
#   - builds the unchanged Dockerfile with --pull=never, --format docker (keeps HEALTHCHECK), the
#     local Swift package mirror bind-mounted and a gitconfig mapping https://github.com/ to it.
# The build context is the repo root, so the repo's .dockerignore applies.
#
# Checks: image exposes 8080/tcp and names a non-root USER; every shared library of
# /usr/local/bin/tilelayer is in the image (ldd); GET /healthz is 200 "ok"; /0/0/0.png and
# /world/3/4/2.png are byte-identical to tiles/world/...; GET / is 200 HTML naming tilelayer and
# the layer world; the server process runs as a non-root uid; the HEALTHCHECK passes; SIGTERM
# (stop -t 10) ends the container with exit code 0.
# Formats (issue 15): the container runs the shipped config/tilelayer.yml plus two layers over
# fixtures made on the host at test time and mounted read-only at /app/fixtures (nothing big is
# committed): `worldjpg`, a directory of JPEGs converted from tiles/world with Pillow, and
# `worldpmtiles`, tiles/world packed by the reference PMTiles writer (make-pmtiles-fixture.py).
# Checked: /worldjpg/2/1/1.jpg (and .jpeg) is 200 image/jpeg, byte-identical to the fixture;
# /worldjpg/2/1/1@2x.jpg is a derived 512x512 JPEG (200 image/jpeg, FF D8 FF, Pillow decodes it);
# /worldpmtiles/{0/0/0,3/4/2}.png are 200 image/png, byte-identical to what the reference reader
# reads; both TileJSONs carry the extension and format (and the archive's zoom range/attribution).
# Host tools: python3 with Pillow and pmtiles (a missing one fails the run: it cannot test).
#
# Environment knobs (all optional):
#   CONTAINER_ENGINE  docker | podman                 (default: docker if `docker info` works, else podman)
#   IMAGE             tag for the built image         (default: localhost/tilelayer:container-test)
#   HOST_PORT         loopback port to publish 8080 on (default: a free one)
#   BUILD_TIMEOUT     seconds for the app image build  (default: 3600)
#   START_TIMEOUT     seconds to wait for /healthz     (default: 60)
#   SWIFT_ROOT        toolchain copied into the podman Swift image (default: /opt/swift)
#   SWIFT_PACKAGES    Swift package mirror for podman builds       (default: /opt/swift-packages)
#   DEBIAN_MIRROR     mirror for debootstrap  (default: the first one in this machine's apt sources)
#   REBUILD_BASE=1    remake the podman base images
#   CLEANUP=1         remove the app image and dangling build layers afterwards
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE=${IMAGE:-localhost/tilelayer:container-test}
APP_PORT=8080
BUILD_TIMEOUT=${BUILD_TIMEOUT:-3600}
START_TIMEOUT=${START_TIMEOUT:-60}
SWIFT_ROOT=${SWIFT_ROOT:-/opt/swift}
SWIFT_PACKAGES=${SWIFT_PACKAGES:-/opt/swift-packages}
BASE_IMAGE=docker.io/library/debian:bookworm-slim   # what "FROM debian:bookworm-slim" resolves to
SWIFT_IMAGE=docker.io/library/swift:6.3-bookworm    # what "FROM swift:6.3-bookworm" resolves to
PROBE_IMAGE=localhost/tilelayer-container-probe:latest
CONTAINER=tilelayer-container-test-$$

WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/tilelayer-container-test.XXXXXX")
LOGS=$WORK/logs; mkdir -p "$LOGS"
T_START=$(date +%s)
ENGINE=
ROOTFS=

step() { echo "== [$(( $(date +%s) - T_START ))s] $*"; }
ctr() { "$ENGINE" "$@"; }
timed() {  # timed NAME LOGFILE SECONDS cmd...   (bounded; prints the log tail on failure)
    local name=$1 log=$2 secs=$3; shift 3; local t0 rc=0; t0=$(date +%s)
    timeout --kill-after=30 "$secs" "$@" >"$log" 2>&1 || rc=$?
    if [ "$rc" = 0 ]; then echo "   $name: $(( $(date +%s) - t0 ))s"; return 0; fi
    [ "$rc" = 124 ] && echo "   $name TIMED OUT after ${secs}s" \
                    || echo "   $name FAILED (rc=$rc) after $(( $(date +%s) - t0 ))s"
    echo "   last lines of $log:"; tail -n 40 "$log" | sed 's/^/   | /'
    return "$rc"
}
skip() {
    echo
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!!! SKIP: this machine cannot run any container: $*"
    echo "!!! The tilelayer image was NOT built or tested."
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    if [ "${CI:-}" = true ]; then
        # Under CI a check that cannot run fails: a green run must mean the image was tested.
        echo "container: 0 passed, 1 failed (CI=true: cannot build or run the image here)"
        exit 1
    fi
    echo "SKIP container/engine: no container engine can run here"
    exit 0
}
fatal() { echo "container: $*"; echo "container: 0 passed, 1 failed"; exit 1; }

PASS=0; FAIL=0
check() {  # check "description" cmd...
    local desc=$1; shift
    echo "--- $desc" >>"$LOGS/checks.log"
    if "$@" >>"$LOGS/checks.log" 2>&1; then PASS=$((PASS + 1)); echo "   ok   - $desc"
    else FAIL=$((FAIL + 1)); echo "   FAIL - $desc"; fi
}

cleanup() {
    if [ -n "$ENGINE" ]; then
        ctr rm -f "$CONTAINER" >/dev/null 2>&1 || true
        if [ "$ENGINE" = podman ]; then podman rmi -f "$PROBE_IMAGE" >/dev/null 2>&1 || true; fi
        if [ "${CLEANUP:-0}" = 1 ]; then
            ctr rmi -f "$IMAGE" >/dev/null 2>&1 || true
            ctr image prune -f >/dev/null 2>&1 || true
        fi
    fi
    [ -n "$ROOTFS" ] && rm -rf "$ROOTFS"
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "interrupted"; exit 130' INT TERM

# ------------------------------------------------------------ 1. the engine
step "engine"
if [ -n "${CONTAINER_ENGINE:-}" ]; then
    ENGINE=$CONTAINER_ENGINE
elif command -v docker >/dev/null && timeout 30 docker info >/dev/null 2>&1; then
    ENGINE=docker
else
    ENGINE=podman
fi
echo "   using $ENGINE"

BUILD_ARGS=()
if [ "$ENGINE" = podman ]; then
    [ "$(id -u)" = 0 ] || { echo "container: the podman fallback needs root (rootful podman, debootstrap)"; exit 2; }
    if ! command -v podman >/dev/null || ! command -v runc >/dev/null \
       || ! command -v debootstrap >/dev/null || ! command -v curl >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        timed "apt-get install podman runc debootstrap iptables curl" "$LOGS/apt.log" 1200 \
            bash -c 'apt-get -o DPkg::Lock::Timeout=600 update -q &&
                     apt-get -o DPkg::Lock::Timeout=600 install -y -q podman runc debootstrap iptables curl' \
            || skip "podman could not be installed (apt-get failed)"
    fi
    # This sandbox lacks CAP_SYS_RESOURCE (the OCI runtime cannot raise RLIMIT_NOFILE/NPROC to
    # podman's defaults) and has a hybrid cgroup layout that crun refuses: runc + modest ulimits.
    export CONTAINERS_CONF=$WORK/containers.conf
    cat >"$CONTAINERS_CONF" <<'EOF'
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=16384:16384"]
[engine]
runtime = "runc"
EOF
    # `swift package resolve` in the build stage reads github.com URLs from the mounted mirror.
    cat >"$WORK/gitconfig" <<EOF
[url "$SWIFT_PACKAGES/"]
	insteadOf = https://github.com/
	insteadOf = git@github.com:
	insteadOf = ssh://git@github.com/
EOF
    # --format docker: the OCI image format has no HEALTHCHECK.
    BUILD_ARGS=(--pull=never --format docker
                -v "$SWIFT_PACKAGES:$SWIFT_PACKAGES:ro" -v "$WORK/gitconfig:/etc/gitconfig:ro")
    podman --version

    # Can podman run anything here? A trivial image made from the host's /bin/true.
    step "probe: podman runs a trivial image it made itself"
    ROOTFS=$WORK/probe-rootfs; mkdir -p "$ROOTFS/bin"
    cp -L "$(type -P true)" "$ROOTFS/bin/true"
    for lib in $(ldd "$(type -P true)" | grep -oE '/[^ ]+'); do
        mkdir -p "$ROOTFS$(dirname "$lib")"; cp -L "$lib" "$ROOTFS$lib"
    done
    if ! (tar --numeric-owner -C "$ROOTFS" -c . | timeout 120 podman import - "$PROBE_IMAGE") >"$LOGS/probe.log" 2>&1 \
       || ! timeout 120 podman run --rm "$PROBE_IMAGE" /bin/true >>"$LOGS/probe.log" 2>&1; then
        sed 's/^/   | /' "$LOGS/probe.log" | tail -n 20
        skip "podman cannot start a trivial image it made itself (see the lines above)"
    fi
    podman rmi -f "$PROBE_IMAGE" >/dev/null 2>&1 || true
    rm -rf "$ROOTFS"; ROOTFS=
    echo "   podman runs containers"

    avail_gb=$(df -BG --output=avail /var/lib 2>/dev/null | tail -1 | tr -dc 0-9)
    [ "${avail_gb:-0}" -ge 12 ] || fatal "need ~12 GiB free under /var/lib (have ${avail_gb:-?}G)"

    # ------------------------------------------------- 2. base images (podman only)
    if [ "${REBUILD_BASE:-0}" = 1 ] || ! podman image exists "$BASE_IMAGE"; then
        step "base image $BASE_IMAGE (debootstrap + import)"
        DEBIAN_MIRROR=${DEBIAN_MIRROR:-$(grep -rhoE '(URIs:|deb) +https?://[^ ]+/debian/?' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | grep -v security | head -1 | grep -oE 'https?://[^ ]+' || true)}
        DEBIAN_MIRROR=${DEBIAN_MIRROR%/}
        [ -n "$DEBIAN_MIRROR" ] || fatal "no Debian mirror found in apt sources; set DEBIAN_MIRROR"
        ROOTFS=$WORK/rootfs
        timed "debootstrap minbase bookworm" "$LOGS/debootstrap.log" 1200 \
            debootstrap --variant=minbase bookworm "$ROOTFS" "$DEBIAN_MIRROR" || fatal "debootstrap failed"
        # Look like the official slim image: deb822 sources incl. security, no docs/man/locales,
        # no apt lists or cached .debs.
        rm -f "$ROOTFS/etc/apt/sources.list"
        cat >"$ROOTFS/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $DEBIAN_MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_MIRROR%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        cat >"$ROOTFS/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
EOF
        # As the official image: apt keeps no package caches (else ~80 MB of pkgcache.bin
        # and srcpkgcache.bin land in every layer that runs apt-get update).
        cat >"$ROOTFS/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
        find "$ROOTFS/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
        rm -rf "$ROOTFS"/usr/share/{man,info,locale}/* "$ROOTFS"/var/lib/apt/lists/* \
               "$ROOTFS"/var/cache/apt/*.bin "$ROOTFS"/var/cache/apt/archives/*.deb
        timed "podman import" "$LOGS/import.log" 600 bash -c \
            "tar --numeric-owner -C '$ROOTFS' -c . | podman import --change 'CMD [\"bash\"]' - localhost/debian-bootstrap:bookworm" \
            || fatal "podman import failed"
        rm -rf "$ROOTFS"; ROOTFS=
        # bookworm-updates/-security, as the official image has them
        printf 'FROM localhost/debian-bootstrap:bookworm\nRUN apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q -y upgrade && rm -rf /var/lib/apt/lists/*\n' >"$WORK/base.Dockerfile"
        timed "apt-get upgrade layer" "$LOGS/base-upgrade.log" 1200 \
            podman build --pull=never -t "$BASE_IMAGE" -f "$WORK/base.Dockerfile" "$WORK" \
            || fatal "building $BASE_IMAGE failed"
        podman rmi localhost/debian-bootstrap:bookworm >/dev/null 2>&1 || true
    fi
    if [ "${REBUILD_BASE:-0}" = 1 ] || ! podman image exists "$SWIFT_IMAGE"; then
        step "base image $SWIFT_IMAGE (Swift build packages + a copy of $SWIFT_ROOT/usr)"
        # Stand-in for the official image; packages as in swiftlang/swift-docker's debian/12
        # Dockerfile; the toolchain goes to /usr as there.
        cat >"$WORK/swift.Dockerfile" <<EOF
FROM $BASE_IMAGE
RUN export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \\
 && apt-get -q update \\
 && apt-get -q install -y --no-install-recommends \\
      binutils gcc git libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev \\
      libncurses-dev libsqlite3-0 libstdc++-12-dev libxml2-dev pkg-config tzdata \\
      zlib1g-dev unzip ca-certificates \\
 && rm -rf /var/lib/apt/lists/*
COPY usr/ /usr/
RUN swift --version
EOF
        timed "podman build swift image" "$LOGS/swift-image.log" 2400 \
            podman build --pull=never -t "$SWIFT_IMAGE" -f "$WORK/swift.Dockerfile" "$SWIFT_ROOT" \
            || fatal "building $SWIFT_IMAGE failed"
    fi
fi

# ------------------------------------------- fixtures for the JPEG and PMTiles layers
# Made before the build so that a missing host tool fails at once.
step "fixtures: JPEG folder (Pillow) and PMTiles archive (reference writer) from tiles/world"
FIX=$WORK/fixtures; mkdir -p "$FIX"
make_fixtures() {
    python3 - "$ROOT/tiles/world" "$FIX/world-jpg" <<'EOF'
import os, sys
from PIL import Image
src, dst = sys.argv[1], sys.argv[2]
count = 0
for z in os.listdir(src):
    for x in os.listdir(os.path.join(src, z)):
        os.makedirs(os.path.join(dst, z, x), exist_ok=True)
        for name in os.listdir(os.path.join(src, z, x)):
            if name.endswith(".png"):
                with Image.open(os.path.join(src, z, x, name)) as im:
                    im.convert("RGB").save(os.path.join(dst, z, x, name[:-4] + ".jpg"), "JPEG", quality=85)
                count += 1
print(f"{count} JPEG tiles")
EOF
    python3 "$ROOT/scripts/make-pmtiles-fixture.py" "$ROOT/tiles/world" "$FIX/world.pmtiles"
    # What the reference reader reads is what the layer must serve.
    mkdir -p "$WORK/expected"
    python3 - "$FIX/world.pmtiles" "$WORK/expected" <<'EOF'
import sys
from pmtiles.reader import Reader, MmapSource
with open(sys.argv[1], "rb") as f:
    reader = Reader(MmapSource(f))
    for z, x, y in [(0, 0, 0), (3, 4, 2)]:
        data = reader.get(z, x, y)
        assert data, f"the reference reader has no tile {z}/{x}/{y}"
        with open(f"{sys.argv[2]}/pmtiles-{z}-{x}-{y}.png", "wb") as out:
            out.write(data)
EOF
    # The shipped configuration plus the two layers; relative paths resolve from /app/fixtures,
    # so the shipped ../tiles/... still name /app/tiles/... in the image.
    { cat "$ROOT/config/tilelayer.yml"; cat <<'EOF'

  # Added by scripts/test-container.sh (fixtures mounted at /app/fixtures).
  - name: worldjpg
    source: {type: directory, path: world-jpg}
    format: jpg
  - name: worldpmtiles
    source: {type: pmtiles, path: world.pmtiles}
EOF
    } >"$FIX/tilelayer.yml"
    chmod -R a+rX "$FIX"   # the image's user (uid 10001) reads them
}
if ! make_fixtures >"$LOGS/fixtures.log" 2>&1; then
    tail -n 20 "$LOGS/fixtures.log" | sed 's/^/   | /'
    fatal "could not make the fixtures (python3 with Pillow and pmtiles is needed on the host)"
fi
du -sh "$FIX/world-jpg" "$FIX/world.pmtiles" | sed 's/^/   /'

# ------------------------------------------------- 3. the project's Dockerfile
step "$ENGINE build $IMAGE from $ROOT/Dockerfile"
timed "$ENGINE build" "$LOGS/app-build.log" "$BUILD_TIMEOUT" \
    "$ENGINE" build ${BUILD_ARGS[@]+"${BUILD_ARGS[@]}"} -t "$IMAGE" -f "$ROOT/Dockerfile" "$ROOT" \
    || fatal "the image did not build"
ctr images --format '   {{.Repository}}:{{.Tag}} {{.Size}}' "$IMAGE" || true

# ---------------------------------------------------------------- 4. run it
HOST_PORT=${HOST_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 18080)}
URL=http://127.0.0.1:$HOST_PORT
step "$ENGINE run -p 127.0.0.1:$HOST_PORT:$APP_PORT"
t0=$(date +%s%N)
timeout 120 "$ENGINE" run -d --name "$CONTAINER" -p "127.0.0.1:$HOST_PORT:$APP_PORT" \
    -v "$FIX:/app/fixtures:ro" "$IMAGE" serve --config /app/fixtures/tilelayer.yml >"$LOGS/run.log" 2>&1 \
    || { cat "$LOGS/run.log"; fatal "the container did not start"; }
READY=0
deadline=$(( $(date +%s) + START_TIMEOUT ))
while [ "$(date +%s)" -lt "$deadline" ]; do
    if curl -sf --max-time 2 -o /dev/null "$URL/healthz"; then READY=1; break; fi
    [ "$(ctr inspect -f '{{.State.Running}}' "$CONTAINER" 2>/dev/null)" = true ] || break
    sleep 0.2
done
if [ "$READY" = 1 ]; then echo "   ready after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
else echo "   NOT READY: $(ctr inspect -f 'running={{.State.Running}} exit={{.State.ExitCode}}' "$CONTAINER" 2>&1)"; fi

# ---------------------------------------------------------------- 5. checks
step "checks"
body() { curl -s --max-time 10 "$@"; }
status_of() { curl -s --max-time 10 -o /dev/null -w '%{http_code}' "$1"; }

check_exposed() {
    local ports; ports=$(ctr image inspect -f '{{json .Config.ExposedPorts}}' "$IMAGE"); echo "$ports"
    grep -q "\"$APP_PORT/tcp\"" <<<"$ports"
}
check_user() {
    local user; user=$(ctr image inspect -f '{{.Config.User}}' "$IMAGE"); echo "User=$user"
    [ -n "$user" ] && [ "${user%%:*}" != root ] && [ "${user%%:*}" != 0 ]
}
check_ldd() {
    local out; out=$(timeout 120 "$ENGINE" run --rm --entrypoint ldd "$IMAGE" /usr/local/bin/tilelayer) || return 1
    echo "$out"; ! grep -qi 'not found' <<<"$out"
}
check_healthz() {
    [ "$(status_of "$URL/healthz")" = 200 ] && [ "$(body "$URL/healthz" | tr -d '\r\n')" = ok ]
}
check_tile() {  # check_tile PATH FILE [CONTENT_TYPE]   (FILE relative to the repo, or absolute)
    local got=$WORK/tile.bin head file=$2; [ "${file#/}" != "$file" ] || file=$ROOT/$file
    head=$(curl -s --max-time 10 -o "$got" -w '%{http_code} %{content_type}' "$URL$1"); echo "$head"
    [ "$head" = "200 ${3:-image/png}" ] && cmp "$got" "$file"
}
check_derived_jpeg() {  # check_derived_jpeg PATH: a 512x512 JPEG made by the server
    local got=$WORK/derived.jpg head
    head=$(curl -s --max-time 30 -o "$got" -w '%{http_code} %{content_type}' "$URL$1"); echo "$head"
    [ "$head" = "200 image/jpeg" ] && [ "$(head -c 3 "$got" | od -An -tx1 | tr -d ' \n')" = ffd8ff ] \
        && python3 -c 'import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.load(); print(im.format, im.size); assert (im.format, im.size) == ("JPEG", (512, 512))' "$got"
}
check_tilejson() {  # check_tilejson LAYER EXT FORMAT [PYTHON-EXPR over the document d]
    local doc=$WORK/tilejson.json head
    head=$(curl -s --max-time 10 -o "$doc" -w '%{http_code} %{content_type}' "$URL/$1.json"); echo "$head"; cat "$doc"; echo
    [ "${head%% *}" = 200 ] && python3 - "$doc" "$1" "$2" "$3" "${4:-True}" <<'EOF'
import json, sys
path, layer, ext, fmt, extra = sys.argv[1:]
d = json.load(open(path))
assert d["tiles"][0].endswith(f"/{layer}/{{z}}/{{x}}/{{y}}.{ext}"), d["tiles"]
assert d["format"] == fmt, d["format"]
assert eval(extra), extra
EOF
}
check_index() {
    local page=$WORK/index.html head
    head=$(curl -s --max-time 10 -o "$page" -w '%{http_code} %{content_type}' "$URL/"); echo "$head"
    [ "${head%% *}" = 200 ] && grep -qi 'text/html' <<<"$head" \
        && grep -qi '<html' "$page" && grep -q 'tilelayer' "$page" && grep -q 'world' "$page"
}
check_uid() {
    local uid pid1; uid=$(timeout 30 "$ENGINE" exec "$CONTAINER" id -u) || return 1
    pid1=$(timeout 30 "$ENGINE" exec "$CONTAINER" grep '^Uid:' /proc/1/status) || return 1
    echo "exec id -u: $uid; PID 1 $pid1"
    [ "$uid" != 0 ] && [ "$(awk '{print $2}' <<<"$pid1")" != 0 ]
}
check_healthcheck() {
    if [ "$ENGINE" = podman ]; then
        timeout 60 podman healthcheck run "$CONTAINER"
    else  # docker runs the HEALTHCHECK itself (first run after --interval=30s)
        local s; for _ in $(seq 1 90); do
            s=$(ctr inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$CONTAINER")
            [ "$s" = healthy ] && return 0; [ "$s" = unhealthy ] && break; sleep 1
        done
        echo "health: $s"; ctr inspect -f '{{json .State.Health}}' "$CONTAINER"; return 1
    fi
}

check "image exposes $APP_PORT/tcp" check_exposed
check "image USER is set and not root" check_user
check "every shared library of /usr/local/bin/tilelayer is in the image (ldd: no 'not found')" check_ldd
check "GET /healthz is 200 ok" check_healthz
check "GET /0/0/0.png is byte-identical to tiles/world/0/0/0.png" check_tile /0/0/0.png tiles/world/0/0/0.png
check "GET /world/3/4/2.png is byte-identical to tiles/world/3/4/2.png" check_tile /world/3/4/2.png tiles/world/3/4/2.png
check "GET / is 200 HTML naming tilelayer and the layer world" check_index
check "GET /worldjpg/2/1/1.jpg is 200 image/jpeg, byte-identical to the JPEG fixture" \
    check_tile /worldjpg/2/1/1.jpg "$FIX/world-jpg/2/1/1.jpg" image/jpeg
check "GET /worldjpg/3/4/2.jpeg is 200 image/jpeg, byte-identical to the JPEG fixture" \
    check_tile /worldjpg/3/4/2.jpeg "$FIX/world-jpg/3/4/2.jpg" image/jpeg
check "GET /worldjpg/2/1/1@2x.jpg is a derived 512x512 JPEG (200 image/jpeg, FF D8 FF)" \
    check_derived_jpeg /worldjpg/2/1/1@2x.jpg
check "GET /worldpmtiles/0/0/0.png is 200 image/png, byte-identical to the reference reader's tile" \
    check_tile /worldpmtiles/0/0/0.png "$WORK/expected/pmtiles-0-0-0.png"
check "GET /worldpmtiles/3/4/2.png is 200 image/png, byte-identical to the reference reader's tile" \
    check_tile /worldpmtiles/3/4/2.png "$WORK/expected/pmtiles-3-4-2.png"
check "TileJSON of worldjpg: tiles end .jpg, format jpg" check_tilejson worldjpg jpg jpg
check "TileJSON of worldpmtiles: tiles end .png, format png, zoom 0-3 and attribution from the archive" \
    check_tilejson worldpmtiles png png 'd["minzoom"] == 0 and d["maxzoom"] == 3 and d.get("attribution") == "Tom Patterson"'
check "the server runs as a non-root uid" check_uid
check "the HEALTHCHECK passes" check_healthcheck

ctr logs "$CONTAINER" >"$LOGS/container.log" 2>&1 || true
t0=$(date +%s%N)
timeout 60 "$ENGINE" stop -t 10 "$CONTAINER" >/dev/null 2>&1 || true
echo "   stop took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
ctr logs "$CONTAINER" >"$LOGS/container.log" 2>&1 || true
check "SIGTERM (stop -t 10) ends the container with exit code 0" \
    bash -c "code=\$($ENGINE inspect -f '{{.State.ExitCode}}' '$CONTAINER'); echo \"exit code \$code\"; [ \"\$code\" = 0 ]"

if [ "$FAIL" -gt 0 ]; then
    echo "--- container log"; tail -n 50 "$LOGS/container.log"
    echo "--- check output"; cat "$LOGS/checks.log"
fi
step "done"
echo "container: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
