#!/usr/bin/env python3
"""Writes tile sets of other formats with independent implementations, for the format tests:

  vector.mbtiles  GDAL `ogr2ogr -f MBTILES` from a small GeoJSON (gzip-compressed MVT, zooms 0-2)
  jpeg.mbtiles    GDAL `gdal_translate -of MBTILES -co TILE_FORMAT=JPEG` from a PNG made here
                  (georeferenced as the world), with `gdaladdo` overviews (zooms 0-1)
  vector.pmtiles  the reference `pmtiles` package's converter from vector.mbtiles (MVT, gzip)
  jpeg.pmtiles    the same from jpeg.mbtiles (JPEG)
  dump/NAME/Z_X_Y every tile of each .pmtiles as the reference reader reads it
  webp/0/0/0.webp a WebP tile Pillow encodes (a directory source of WebP tiles)

usage: make-format-fixtures.py OUTDIR
A missing tool or package is an error (exit 1), never a skip.
"""
import json
import os
import subprocess
import sys

from PIL import Image
from pmtiles.convert import mbtiles_to_pmtiles
from pmtiles.reader import MmapSource, all_tiles

GEOJSON = {
    "type": "FeatureCollection",
    "features": [
        {"type": "Feature", "properties": {"name": "Paris", "kind": "city"},
         "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}},
        {"type": "Feature", "properties": {"name": "Equator", "kind": "line"},
         "geometry": {"type": "LineString", "coordinates": [[-170, 0], [170, 0]]}},
        {"type": "Feature", "properties": {"name": "Box", "kind": "area"},
         "geometry": {"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]]]}},
    ],
}


def run(*arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    geojson = os.path.join(out, "in.geojson")
    with open(geojson, "w") as f:
        json.dump(GEOJSON, f)
    run("ogr2ogr", "-f", "MBTILES", os.path.join(out, "vector.mbtiles"), geojson, "-dsco", "MAXZOOM=2", "-nln", "places")

    image = Image.new("RGB", (512, 256))
    pixels = image.load()
    for y in range(256):
        for x in range(512):
            pixels[x, y] = (x // 2, y, (x + y) % 256)
    image.save(os.path.join(out, "world.png"))
    os.makedirs(os.path.join(out, "webp", "0", "0"), exist_ok=True)
    image.resize((256, 256)).save(os.path.join(out, "webp", "0", "0", "0.webp"), "WEBP", quality=80)
    tif = os.path.join(out, "world.tif")
    run("gdal_translate", "-q", "-a_srs", "EPSG:4326", "-a_ullr", "-180", "85", "180", "-85", os.path.join(out, "world.png"), tif)
    jpeg = os.path.join(out, "jpeg.mbtiles")
    run("gdal_translate", "-q", "-of", "MBTILES", "-co", "TILE_FORMAT=JPEG", "-co", "ZOOM_LEVEL_STRATEGY=UPPER", tif, jpeg)
    run("gdaladdo", "-q", "-r", "average", jpeg, "2")

    for name in ("vector", "jpeg"):
        archive = os.path.join(out, name + ".pmtiles")
        mbtiles_to_pmtiles(os.path.join(out, name + ".mbtiles"), archive, None)
        folder = os.path.join(out, "dump", name)
        os.makedirs(folder, exist_ok=True)
        with open(archive, "rb") as f:
            for (z, x, y), data in all_tiles(MmapSource(f)):
                with open(os.path.join(folder, f"{z}_{x}_{y}"), "wb") as tile:
                    tile.write(data)


if __name__ == "__main__":
    main()
