#!/usr/bin/env python3
"""Interoperability check of tilelayer's OGC services against independent clients.

OWSLib parses the WMTS capabilities (both the RESTful and the KVP URL) and fetches tiles by
KVP and by its RESTful resource template; OWSLib's OGC API client reads the landing page,
conformance and collections, and tiles are fetched by following the tileset links; GDAL's WMTS
driver reads windows whose pixels must equal the XYZ tiles, decoded by Pillow. The OGC API's
tiling scheme (TMS 2.0 JSON) is read by morecantile, an independent implementation of the OGC
TileMatrixSet standard: its matrices must be its own WebMercatorQuad's, and the tiles it finds
for a box, fetched through the tileset's item link and placed where it says, must make the XYZ
mosaic. GDAL's OGC API driver reads a window too where it can (GDAL 3.7 or later: 3.6 parses only
TMS 1.0 schemes); on an older GDAL that part prints "SKIP ogc/gdal-ogcapi: …", a skip that
Tests/allowed-skips.txt lists. Every failure is listed; the exit status is 1 when there is one.
Run by scripts/test-ogc.sh against a running server.
"""
import argparse
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import urllib.request

import morecantile
import numpy
from PIL import Image
from owslib.ogcapi import Collections
from owslib.wmts import WebMapTileService

SCALE_0 = 559082264.0287178
HALF_WORLD = 20037508.3427892

failures = []
passes = 0


def check(condition, what):
    global passes
    if condition:
        passes += 1
        print(f"  ok    {what}")
    else:
        failures.append(what)
        print(f"  FAIL  {what}")


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


MEDIA_TYPES = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp", "pbf": "application/vnd.mapbox-vector-tile"}


def extension(doc):
    """The file extension of a layer's tiles, from its TileJSON tiles template ("….{y}.jpg")."""
    return doc["tiles"][0].rsplit(".", 1)[1]


def rgba(data):
    return numpy.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))


def mosaic(base, layer, z, xs, ys, suffix=""):
    """The XYZ tiles of columns xs and rows ys, side by side, as RGBA."""
    rows = [numpy.concatenate([rgba(fetch(f"{base}/{layer}/{z}/{x}/{y}{suffix}.png")) for x in xs], axis=1) for y in ys]
    return numpy.concatenate(rows, axis=0)


def owslib_checks(base, tilejson):
    print("== OWSLib")
    for url in (f"{base}/wmts/1.0.0/WMTSCapabilities.xml", f"{base}/wmts"):
        wmts = WebMapTileService(url)
        check(wmts.identification.type == "OGC WMTS" and wmts.version == "1.0.0", f"{url}: service and version")
        check(sorted(wmts.contents) == sorted(doc["name"] for doc in tilejson),
              f"{url}: one layer per layer of /index.json ({', '.join(sorted(wmts.contents))})")
    sets = wmts.tilematrixsets
    check(sorted(sets) == ["GoogleMapsCompatible", "GoogleMapsCompatible_512"], "tile matrix sets")
    for name, shift, size in (("GoogleMapsCompatible", 0, 256), ("GoogleMapsCompatible_512", 1, 512)):
        matrices = sets[name].tilematrix
        check(all(m.scaledenominator == SCALE_0 / 2 ** (int(z) + shift) and m.tilewidth == size
                  and m.matrixwidth == 2 ** int(z) and tuple(m.topleftcorner) == (-HALF_WORLD, HALF_WORLD)
                  for z, m in matrices.items()), f"{name}: scale denominators, sizes, top-left corner")
        check(sets[name].crs == "urn:ogc:def:crs:EPSG::3857", f"{name}: CRS")
    for doc in tilejson:
        layer = wmts.contents[doc["name"]]
        box = layer.boundingBoxWGS84
        check(box is not None and all(abs(a - b) < 1e-9 for a, b in zip(box, doc["bounds"])),
              f"{doc['name']}: WGS84BoundingBox {box} is the TileJSON bounds")
        ext = extension(doc)
        media = MEDIA_TYPES[ext]
        check(layer.formats == [media] and "default" in layer.styles, f"{doc['name']}: format {media} and default style")
        limits = layer.tilematrixsetlinks["GoogleMapsCompatible"].tilematrixlimits
        check(sorted(int(z) for z in limits) == list(range(doc["minzoom"], doc["maxzoom"] + 1)),
              f"{doc['name']}: TileMatrixSetLimits cover zooms {doc['minzoom']}-{doc['maxzoom']}")
        check([r["format"] for r in layer.resourceURLs] == layer.formats, f"{doc['name']}: ResourceURL format equals Format")
        z = doc["minzoom"]
        limit = limits[str(z)]
        row, col = limit.mintilerow, limit.mintilecol
        query = {"floor": "1"} if doc["name"] == "floorplans" else {}
        suffix = "?floor=1" if query else ""
        xyz = fetch(f"{base}/{doc['name']}/{z}/{col}/{row}.{ext}{suffix}")
        kvp = wmts.gettile(layer=doc["name"], tilematrixset="GoogleMapsCompatible", tilematrix=str(z), row=row,
                           column=col, format=media, **query).read()
        check(kvp == xyz, f"{doc['name']}: KVP GetTile {z}/{row}/{col} has the XYZ tile's bytes ({len(xyz)} bytes)")
        retina = wmts.gettile(layer=doc["name"], tilematrixset="GoogleMapsCompatible_512", tilematrix=str(z), row=row,
                              column=col, format=media, **query).read()
        check(retina == fetch(f"{base}/{doc['name']}/{z}/{col}/{row}@2x.{ext}{suffix}"),
              f"{doc['name']}: KVP GetTile in GoogleMapsCompatible_512 is the @2x tile")
        rest = wmts.buildTileResource(layer=doc["name"], style="default", format=media,
                                      tilematrixset="GoogleMapsCompatible", tilematrix=str(z), row=row, column=col)
        check(fetch(rest + suffix) == xyz, f"{doc['name']}: RESTful tile {rest.split('/wmts/')[1]} has the same bytes")


def gdal_window(source, z, xs, ys, scale, out, options=()):
    """gdal_translate the tiles xs × ys of zoom z (exact tile edges in EPSG:3857) into a PNG."""
    tile = 2 * HALF_WORLD / 2 ** z
    west, north = -HALF_WORLD + xs[0] * tile, HALF_WORLD - ys[0] * tile
    east, south = -HALF_WORLD + (xs[-1] + 1) * tile, HALF_WORLD - (ys[-1] + 1) * tile
    size = 256 * scale
    command = ["gdal_translate", "-q", "-of", "PNG", *options, "-projwin", repr(west), repr(north), repr(east), repr(south),
               "-outsize", str(size * len(xs)), str(size * len(ys)), source, out]
    result = subprocess.run(command, capture_output=True, text=True,
                            env={**os.environ, "GDAL_HTTP_TIMEOUT": "30",
                                 # GDAL's WMS cache would keep tiles in ./gdalwmscache: a fresh one each run.
                                 "GDAL_DEFAULT_WMS_CACHE_PATH": os.path.join(os.path.dirname(out), "gdalwmscache")})
    if result.returncode != 0:
        return None, " ".join(command) + "\n" + result.stderr
    return numpy.asarray(Image.open(out).convert("RGBA")), None


def gdal_version():
    """(major, minor, patch) from `gdalinfo --version` ("GDAL 3.6.2, released 2023/01/02")."""
    text = subprocess.run(["gdalinfo", "--version"], capture_output=True, text=True).stdout
    return tuple(int(part) for part in text.split()[1].rstrip(",").split(".")[:3])


def gdal_checks(base):
    print(f"== GDAL {'.'.join(map(str, gdal_version()))}")
    capabilities = f"{base}/wmts/1.0.0/WMTSCapabilities.xml"
    cases = [
        ("world", "GoogleMapsCompatible", 2, [1, 2], [1, 2], 1),
        ("world", "GoogleMapsCompatible", 3, [0, 1, 2], [2, 3], 1),
        ("world", "GoogleMapsCompatible_512", 1, [0, 1], [0, 1], 2),
        ("bluemarble", "GoogleMapsCompatible", 1, [0, 1], [0, 1], 1),
        ("overlay", "GoogleMapsCompatible", 2, [2, 3], [1], 1),
        ("floorplans", "GoogleMapsCompatible", 16, [32744, 32745], [21788, 21789], 1),  # a small box, deep zoom
    ]
    with tempfile.TemporaryDirectory() as folder:
        for layer, matrix_set, z, xs, ys, scale in cases:
            source = f"WMTS:{capabilities},layer={layer},tilematrixset={matrix_set},tilematrix={z}"
            pixels, error = gdal_window(source, z, xs, ys, scale, os.path.join(folder, "window.png"))
            what = f"GDAL WMTS {layer} {matrix_set} zoom {z} columns {xs} rows {ys}: pixels equal the XYZ tiles"
            if error:
                check(False, what + "\n" + error)
                continue
            expected = mosaic(base, layer, z, xs, ys, "@2x" if scale == 2 else "")
            check(pixels.shape == expected.shape and numpy.array_equal(pixels, expected),
                  what + f" ({pixels.shape[1]}x{pixels.shape[0]})")
        # GDAL's OGC API driver (3.7 and later read TMS 2.0 JSON tiling schemes; 3.6 only 1.0).
        version = gdal_version()
        if version < (3, 7):
            print(f"  SKIP ogc/gdal-ogcapi: GDAL {version[0]}.{version[1]}'s OGCAPI driver parses only TMS 1.0 tiling"
                  " schemes (/ogc/tileMatrixSets/WebMercatorQuad is TMS 2.0); morecantile reads it above")
            return
        source = f"OGCAPI:{base}/ogc/collections/world"
        pixels, error = gdal_window(source, 2, [1, 2], [1, 2], 1, os.path.join(folder, "ogc.png"),
                                    ["-oo", "API=TILES", "-oo", "TILEMATRIXSET=WebMercatorQuad", "-oo", "TILEMATRIX=2"])
        what = "GDAL OGCAPI world WebMercatorQuad zoom 2: pixels equal the XYZ tiles"
        if error:
            check(False, what + "\n" + error)
        else:
            check(numpy.array_equal(pixels, mosaic(base, "world", 2, [1, 2], [1, 2])), what)


def link(document, rel):
    return next((item["href"] for item in document.get("links", []) if item.get("rel") == rel), None)


def ogcapi_checks(base, tilejson):
    """OWSLib's OGC API – Common client reads the landing page, conformance and collections; the
    tiles are then reached by following the documents' links, as a client does."""
    print("== OWSLib OGC API")
    api = Collections(f"{base}/ogc")
    classes = api.conformance().get("conformsTo", [])
    tiles = "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/"
    check(all(tiles + name in classes for name in ("core", "tileset", "tilesets-list", "geodata-tilesets", "png")),
          "conformance lists core, tileset, tilesets-list, geodata-tilesets, png")
    collections = api.collections().get("collections", [])
    check([c["id"] for c in collections] == [doc["name"] for doc in tilejson], "one collection per layer, in order")
    for doc in tilejson:
        collection = api.collection(doc["name"])
        bbox = collection["extent"]["spatial"]["bbox"][0]
        check(all(abs(a - b) < 1e-9 for a, b in zip(bbox, doc["bounds"])), f"{doc['name']}: extent is the TileJSON bounds")
        tilesets = json.loads(fetch(link(collection, "http://www.opengis.net/def/rel/ogc/1.0/tilesets-map")))
        tileset = json.loads(fetch(link(tilesets["tilesets"][0], "self")))
        scheme = json.loads(fetch(link(tileset, "http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme")))
        check(scheme["id"] == "WebMercatorQuad" and scheme["tileMatrices"][0]["scaleDenominator"] == SCALE_0,
              f"{doc['name']}: tiling scheme is WebMercatorQuad")
        limit = tileset["tileMatrixSetLimits"][0]
        ext = extension(doc)
        item = next(l for l in tileset["links"] if l["rel"] == "item" and l["type"] == MEDIA_TYPES[ext])["href"]
        z, row, col = int(limit["tileMatrix"]), limit["minTileRow"], limit["minTileCol"]
        url = item.replace("{tileMatrix}", str(z)).replace("{tileRow}", str(row)).replace("{tileCol}", str(col))
        suffix = "?floor=1" if doc["name"] == "floorplans" else ""
        check(fetch(url + suffix) == fetch(f"{base}/{doc['name']}/{z}/{col}/{row}.{ext}{suffix}"),
              f"{doc['name']}: tile {z}/{row}/{col} from the tileset's item link has the XYZ tile's bytes")


def slippy_columns_rows(z, west, south, east, north):
    """The XYZ columns and rows of the tiles that cover a box at zoom z (the slippy-map formulas)."""
    n = 2 ** z

    def column(lon):
        return min(n - 1, int((lon + 180) / 360 * n))

    def row(lat):
        y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
        return min(n - 1, max(0, int((1 - y / math.pi) / 2 * n)))

    return list(range(column(west), column(east) + 1)), list(range(row(north), row(south) + 1))


def morecantile_checks(base, tilejson):
    """morecantile reads /ogc/tileMatrixSets/WebMercatorQuad; its matrices must equal its own
    WebMercatorQuad's. For a box, the tiles it finds in our scheme are fetched through the
    tileset's `item` link and pasted where the scheme puts them (xy_bounds / cellSize): the window
    must be the mosaic of the XYZ tiles of the same box, found by the slippy-map formulas."""
    print(f"== morecantile {morecantile.__version__} OGC API")
    scheme = morecantile.TileMatrixSet.model_validate_json(fetch(f"{base}/ogc/tileMatrixSets/WebMercatorQuad"))
    reference = morecantile.tms.get("WebMercatorQuad")
    check(scheme.id == "WebMercatorQuad" and scheme.crs == reference.crs, f"tiling scheme {scheme.id}, CRS {scheme.crs}")

    def same(a, b):
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))

    check(len(scheme.tileMatrices) == len(reference.tileMatrices)
          and all(ours.id == theirs.id and same(ours.scaleDenominator, theirs.scaleDenominator)
                  and same(ours.cellSize, theirs.cellSize) and ours.cornerOfOrigin == theirs.cornerOfOrigin
                  and all(same(a, b) for a, b in zip(ours.pointOfOrigin, theirs.pointOfOrigin))
                  and (ours.matrixWidth, ours.matrixHeight, ours.tileWidth, ours.tileHeight)
                  == (theirs.matrixWidth, theirs.matrixHeight, theirs.tileWidth, theirs.tileHeight)
                  for ours, theirs in zip(scheme.tileMatrices, reference.tileMatrices)),
          f"its {len(scheme.tileMatrices)} tile matrices are morecantile's own WebMercatorQuad")
    names = [doc["name"] for doc in tilejson]
    cases = [("world", 2, (-10.0, 35.0, 30.0, 60.0)), ("world", 3, (-100.0, 10.0, -60.0, 50.0)),
             ("bluemarble", 1, (-170.0, -60.0, 170.0, 60.0)), ("overlay", 2, (100.0, -40.0, 170.0, 10.0))]
    for layer, z, box in cases:
        if layer not in names:
            check(False, f"layer {layer} is served (the shipped configuration)")
            continue
        tileset = json.loads(fetch(f"{base}/ogc/collections/{layer}/map/tiles/WebMercatorQuad"))
        item = next(l for l in tileset["links"] if l["rel"] == "item" and l["type"] == "image/png")["href"]
        tiles = list(scheme.tiles(*box, [z]))
        columns, rows = slippy_columns_rows(z, *box)
        what = f"morecantile {layer} zoom {z} box {box}"
        check(sorted((t.x, t.y) for t in tiles) == sorted((x, y) for x in columns for y in rows),
              f"{what}: the scheme's tiles are the box's ({len(tiles)} tiles)")
        matrix = scheme.matrix(z)
        size = matrix.tileWidth
        left, top = min(scheme.xy_bounds(t).left for t in tiles), max(scheme.xy_bounds(t).top for t in tiles)
        window = numpy.zeros((len(rows) * size, len(columns) * size, 4), dtype=numpy.uint8)
        for tile in tiles:
            bounds = scheme.xy_bounds(tile)
            column = round((bounds.left - left) / (matrix.cellSize * size)) * size
            row = round((top - bounds.top) / (matrix.cellSize * size)) * size
            url = item.replace("{tileMatrix}", str(z)).replace("{tileRow}", str(tile.y)).replace("{tileCol}", str(tile.x))
            window[row:row + size, column:column + size] = rgba(fetch(url))
        check(numpy.array_equal(window, mosaic(base, layer, z, columns, rows)),
              f"{what}: the window of OGC API tiles placed by the scheme is the XYZ mosaic ({window.shape[1]}x{window.shape[0]})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8080")
    base = parser.parse_args().url.rstrip("/")
    tilejson = json.loads(fetch(f"{base}/index.json"))
    owslib_checks(base, tilejson)
    ogcapi_checks(base, tilejson)
    morecantile_checks(base, tilejson)
    gdal_checks(base)
    print(f"{passes} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
