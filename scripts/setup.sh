#!/usr/bin/env bash
# Installs what tilelayer needs and is missing, and only that: the Debian packages (apt-get) and
# the Python packages (pip) that building, running and testing it use. Safe to run again: what is
# there is left alone, and each package it installs is named first.
#   scripts/setup.sh          everything: the build, the server, the whole test suite and its
#                             scripted checks (scripts/test calls it)
#   scripts/setup.sh run      what building and serving take (scripts/run calls it)
#   scripts/setup.sh --check  installs nothing: names what is missing, exit 1 when something is
# On a machine without apt-get (macOS, another distribution) it installs nothing: it names each
# missing package (Debian name, and Homebrew's) and exits 1. README.md "Manual setup" lists them.
set -euo pipefail

scope=all
check_only=false
for argument in "$@"; do
    case "$argument" in
        run) scope=run ;;
        all) scope=all ;;
        --check) check_only=true ;;
        *) echo "usage: $0 [run|all] [--check]" >&2; exit 2 ;;
    esac
done

# Debian packages: name, then how to tell it is there without dpkg (pkg-config:MODULE,
# command:NAME or file:PATH), then its Homebrew name.
build_packages=(
    "pkg-config      command:pkg-config       pkg-config"       # finds the C libraries below
    "libpng-dev      pkg-config:libpng        libpng"           # PNG codec
    "zlib1g-dev      pkg-config:zlib          zlib"             # gzip tiles, PMTiles directories
    "libsqlite3-dev  pkg-config:sqlite3       sqlite"           # MBTiles
    "libturbojpeg0-dev pkg-config:libturbojpeg jpeg-turbo"      # JPEG codec (TurboJPEG API)
    "libwebp-dev     pkg-config:libwebp       webp"             # WebP codec
    "libhiredis-dev  pkg-config:hiredis       hiredis"          # the shared Redis tile tier
    "libgdal-dev     pkg-config:gdal          gdal"             # GeoTIFF/COG imagery layers
)
run_packages=(
    "libjs-leaflet   file:/usr/share/javascript/leaflet/leaflet.js leaflet(npm)"  # the front page's maps
)
test_packages=(
    "python3         command:python3          python"           # the interoperability checks
    "python3-pip     python:pip               python"           # installs the Python packages below
    "sqlite3         command:sqlite3          sqlite"           # reads back the MBTiles we write
    "gdal-bin        command:gdal_translate   gdal"             # writes vector/JPEG fixtures; WMTS client
    "redis-server    command:redis-server     redis"            # the Redis tier's tests, replicas check
    "nginx           command:nginx            nginx"            # replicas check: a caching proxy in front
    "curl            command:curl             curl"             # replicas and container checks
    "chromium        command:chromium         chromium"         # the front page in a real browser
    "podman          command:podman           podman"           # the container check (no Docker engine here)
    "runc            command:runc             -"                # podman's runtime on these machines
    "debootstrap     command:debootstrap      -"                # the container check's base images
    "iptables        command:iptables         -"                # podman's port publishing
    "fiu-utils       command:fiu-run          -"                # fault injection (scripts/test-faults.sh)
    "wrk             command:wrk              wrk"              # load in the shedding benchmark
)
# Python packages (pip name, then the module a test imports). pmtiles: the reference PMTiles
# writer and reader; mapbox-vector-tile decodes our vector tiles; Pillow decodes our images and
# draws fixtures; OWSLib and numpy (and morecantile, an OGC TileMatrixSet 2.0 reader) are the OGC
# clients; rio-tiler and moto (with its S3 server) are the GeoTIFF imagery tests' reference
# reader and object store.
python_packages=(
    "pmtiles pmtiles"
    "mapbox-vector-tile mapbox_vector_tile"
    "pillow PIL"
    "owslib owslib"
    "numpy numpy"
    "morecantile morecantile"
    "rio-tiler rio_tiler"
    "moto[server] moto.server"
)

debian=("${build_packages[@]}" "${run_packages[@]}")
[ "$scope" = all ] && debian+=("${test_packages[@]}")

# present SPEC: whether the probe of a package finds it (used where dpkg is not the judge).
present() {
    local kind="${1%%:*}" name="${1#*:}"
    case "$kind" in
        pkg-config) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$name" ;;
        command) command -v "$name" >/dev/null 2>&1 || [ -x "/usr/sbin/$name" ] ;;
        file) [ -e "$name" ] ;;
        python) command -v python3 >/dev/null 2>&1 && python3 -m "$name" --version >/dev/null 2>&1 ;;
    esac
}

missing_debian=()
missing_homebrew=()
have_apt=false
command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1 && have_apt=true
for entry in "${debian[@]}"; do
    read -r package probe homebrew <<<"$entry"
    if $have_apt; then
        # Installed means dpkg says so; python3 and pip may also come from elsewhere (pyenv).
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" && continue
        case "$package" in python3 | python3-pip) present "$probe" && continue ;; esac
    else
        present "$probe" && continue
    fi
    missing_debian+=("$package")
    missing_homebrew+=("$package (Homebrew: $homebrew)")
done

# Python packages are looked at only once Debian's are there (python3 and pip may be among them).
missing_python() {
    [ "$scope" = all ] || return 0
    local entry package module
    for entry in "${python_packages[@]}"; do
        read -r package module <<<"$entry"
        python3 -c "import $module" >/dev/null 2>&1 || echo "$package"
    done
}

if [ ${#missing_debian[@]} -eq 0 ]; then
    echo "setup: every Debian package is there (${#debian[@]})"
elif ! $have_apt; then
    echo "setup: no apt-get here; install these with your package manager (README.md, Manual setup):"
    printf '  %s\n' "${missing_homebrew[@]}"
    exit 1
elif $check_only; then
    echo "setup: missing Debian packages: ${missing_debian[*]}"
    exit 1
else
    sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "setup: not root and no sudo; install: ${missing_debian[*]}"; exit 1; }
        sudo=(sudo)
    fi
    echo "setup: installing Debian packages: ${missing_debian[*]}"
    log="$(mktemp)"
    if ! { "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -q \
           && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
              apt-get -o DPkg::Lock::Timeout=600 install -y -q "${missing_debian[@]}"; } >"$log" 2>&1; then
        tail -20 "$log"
        echo "setup: apt-get could not install: ${missing_debian[*]} (its log: $log)"
        exit 1
    fi
    rm -f "$log"
fi

[ "$scope" = all ] || exit 0
mapfile -t python_missing < <(missing_python)
if [ ${#python_missing[@]} -eq 0 ]; then
    echo "setup: every Python package is there (${#python_packages[@]})"
    exit 0
fi
if $check_only || ! python3 -m pip --version >/dev/null 2>&1; then
    echo "setup: missing Python packages: ${python_missing[*]} (pip install ${python_missing[*]})"
    exit 1
fi
echo "setup: installing Python packages: ${python_missing[*]}"
# Debian's own python3 is "externally managed" (PEP 668): pip then needs --break-system-packages.
python3 -m pip install -q "${python_missing[@]}" \
    || python3 -m pip install -q --break-system-packages "${python_missing[@]}" \
    || { echo "setup: pip could not install: ${python_missing[*]}"; exit 1; }
