# Sourced by bench-working-set.sh and bench-instructions.sh: builds, once, the working-set pyramid
# (scripts/bench/make-working-set.py over the shipped world tiles and ../shared/data's) with its
# MBTiles copy and request lists.

# build_working_set DATA MAX_ZOOM: the pyramid in DATA/tiles for zooms 0..MAX_ZOOM, kept for the
# next run (rebuilt when MAX_ZOOM changes)
build_working_set() {
    local data=$1 max_zoom=$2 bench repo staging
    bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    repo=$(cd "$bench/../.." && pwd)
    mkdir -p "$data"
    [[ $(cat "$data/built-max-zoom" 2>/dev/null) == "$max_zoom" ]] && return 0
    staging=$(mktemp -d)
    cp -r "$repo/tiles/world" "$staging/shipped"
    if [[ -d $repo/../shared/data/world ]]; then cp -r "$repo/../shared/data/world" "$staging/shared"; fi
    python3 "$bench/make-working-set.py" "$staging" "$data" "$max_zoom"
    rm -rf "$staging"
}
