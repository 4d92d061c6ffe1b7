#!/usr/bin/env bash
# Makes a GeoTIFF (a COG with overviews) from the shipped world tiles of zoom Z, reprojected to
# another coordinate system, with GDAL's command-line tools (Debian gdal-bin).
#   scripts/make-imagery.sh OUT.tif [ZOOM=3] [SRS=EPSG:4326] [WIDTH=1024] [COMPRESS=JPEG] [EXTRA gdalwarp options…]
# The shipped tiles/world.tif is: scripts/make-imagery.sh tiles/world.tif 3 EPSG:4326 1024 JPEG
# Tests make their fixtures with it at test time (other CRS, nodata, sizes), never committed.
set -euo pipefail
out=$1; zoom=${2:-3}; srs=${3:-EPSG:4326}; width=${4:-1024}; compress=${5:-JPEG}
shift $(( $# < 5 ? $# : 5 ))
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v gdalwarp >/dev/null || { echo "make-imagery.sh: gdalwarp not found (Debian package gdal-bin)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each tile of zoom Z georeferenced in EPSG:3857 (its corners from the tile grid), then a mosaic.
python3 -c "
import math
n, half = 1 << $zoom, math.pi * 6378137
span = 2 * half / n
for x in range(n):
    for y in range(n):
        print(x, y, -half + x * span, half - y * span, -half + (x + 1) * span, half - (y + 1) * span)
" | while read -r x y ulx uly lrx lry; do
    gdal_translate -q -of VRT -b 1 -b 2 -b 3 -a_srs EPSG:3857 -a_ullr "$ulx" "$uly" "$lrx" "$lry" \
        "$root/tiles/world/$zoom/$x/$y.png" "$work/$x-$y.vrt"
done
gdalbuildvrt -q "$work/mosaic.vrt" "$work"/*.vrt
gdalwarp -q -overwrite -t_srs "$srs" -ts "$width" 0 -r bilinear "$@" "$work/mosaic.vrt" "$work/warped.tif"
options=(-co COMPRESS="$compress" -co OVERVIEWS=AUTO -co BLOCKSIZE=256)
[ "$compress" = JPEG ] && options+=(-co QUALITY=85)
gdal_translate -q -of COG "${options[@]}" "$work/warped.tif" "$out"
