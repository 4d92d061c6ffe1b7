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
n=$(( 1 << zoom ))
half=20037508.342789244
span=$(python3 -c "print(2*$half/$n)")
for (( x = 0; x < n; x++ )); do
    for (( y = 0; y < n; y++ )); do
        read -r ulx uly lrx lry < <(python3 -c "s=$span;h=$half;print(-h+$x*s, h-$y*s, -h+($x+1)*s, h-($y+1)*s)")
        gdal_translate -q -of VRT -b 1 -b 2 -b 3 -a_srs EPSG:3857 -a_ullr "$ulx" "$uly" "$lrx" "$lry" \
            "$root/tiles/world/$zoom/$x/$y.png" "$work/$x-$y.vrt"
    done
done
gdalbuildvrt -q "$work/mosaic.vrt" "$work"/*.vrt
gdalwarp -q -overwrite -t_srs "$srs" -ts "$width" 0 -r bilinear "$@" "$work/mosaic.vrt" "$work/warped.tif"
options=(-co COMPRESS="$compress" -co OVERVIEWS=AUTO -co BLOCKSIZE=256)
[ "$compress" = JPEG ] && options+=(-co QUALITY=85)
gdal_translate -q -of COG "${options[@]}" "$work/warped.tif" "$out"
