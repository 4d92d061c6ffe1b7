# Sourced by bench.sh and bench-instructions.sh: builds, once, the working-set pyramid
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

# working_set_head PORT MEMORY_MB: the server section of a working-set configuration (a
# MEMORY_MB memory cache, access log per $ACCESS_LOG) and the start of its layers
working_set_head() {
    cat <<EOT
server:
  host: 127.0.0.1
  port: $1
  cors: "*"
  cache: {memoryBytes: $(( $2 << 20 ))}
  log: {level: notice, access: $( (( ${ACCESS_LOG:-0} )) && echo true || echo false )}
layers:
EOT
}

# working_set_mbtiles DATA: the source of DATA's MBTiles file
working_set_mbtiles() {
    echo "{type: mbtiles, path: \"$1/tiles.mbtiles\"}"
}

# write_working_set_config FILE PORT DATA MAX_ZOOM MEMORY_MB: tilelayer serving DATA's pyramid
# as the default folder layer (a MEMORY_MB memory cache) and its MBTiles copy as layer "mb"
# (uncached); access log per $ACCESS_LOG
write_working_set_config() {
    {
        working_set_head "$2" "$5"
        echo "  - {name: world, default: true, source: {type: directory, path: \"$3/tiles\"}, maxZoom: $4}"
        echo "  - {name: mb, source: $(working_set_mbtiles "$3"), cache: {memory: false}, maxZoom: $4}"
    } >"$1"
}

# write_working_set_cached_mbtiles_config FILE PORT DATA MAX_ZOOM MEMORY_MB: tilelayer serving
# DATA's MBTiles file as its default layer with a MEMORY_MB memory cache (the layers' default;
# SQLite reads each miss on a worker). A server of its own: sharing a cache with the folder
# layer, each would run on the other's cached tiles.
write_working_set_cached_mbtiles_config() {
    {
        working_set_head "$2" "$5"
        echo "  - {name: world, default: true, source: $(working_set_mbtiles "$3"), maxZoom: $4}"
    } >"$1"
}
