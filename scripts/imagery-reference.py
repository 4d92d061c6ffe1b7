#!/usr/bin/env python3
"""Reference tiles of a raster from two implementations independent of tilelayer, as raw RGBA:
rio-tiler (Reader.tile: WarpedVRT over the dataset, rasterio's own GDAL) and the gdalwarp
command (the tile's EPSG:3857 box, -ovr AUTO, -dstalpha). Used by TileImageryTests.

  imagery-reference.py FILE OUTDIR RESAMPLING OPTIONS_JSON z/x/y@scale …
OPTIONS_JSON: {"bands": [1,2,3] | null, "rescale": [min, max] | null, "nodata": number | null}
Writes OUTDIR/rio-z-x-y@s.rgba and OUTDIR/gdalwarp-z-x-y@s.rgba (size² × 4 bytes, alpha 0 where
there is no data), or an empty rio-… file when rio-tiler says the tile is outside the raster.
"""
import json, math, os, subprocess, sys, tempfile

try:
    import numpy as np
    import rasterio
    from rio_tiler.errors import TileOutsideBounds
    from rio_tiler.io import Reader
except ImportError as error:
    sys.exit(f"imagery-reference.py needs rio-tiler (pip install rio-tiler): {error}")

HALF = math.pi * 6378137


def to_rgba(data, mask, rescale):
    data = data.astype("float64")
    if rescale:
        low, high = rescale
        data = (data - low) / (high - low) * 255
    data = np.clip(np.rint(data), 0, 255).astype("uint8")
    if data.shape[0] == 1:
        data = np.repeat(data, 3, axis=0)
    rgba = np.concatenate([data[:3], mask[None, :, :].astype("uint8")], axis=0)
    rgba[:3, rgba[3] == 0] = 0
    return np.ascontiguousarray(rgba.transpose(1, 2, 0)).tobytes()


def main():
    path, out, resampling, options = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    bands, rescale, nodata = options.get("bands"), options.get("rescale"), options.get("nodata")
    with Reader(path) as reader:
        for spec in sys.argv[5:]:
            coordinate, scale = spec.split("@")
            z, x, y = (int(v) for v in coordinate.split("/"))
            size = 256 * int(scale)
            name = f"{z}-{x}-{y}@{scale}.rgba"
            kwargs = dict(tilesize=size, resampling_method=resampling, reproject_method=resampling)
            if bands: kwargs["indexes"] = bands
            if nodata is not None: kwargs["nodata"] = nodata
            try:
                image = reader.tile(x, y, z, **kwargs)
                rgba = to_rgba(image.data, image.mask, rescale)
            except TileOutsideBounds:
                rgba = b""
            open(os.path.join(out, "rio-" + name), "wb").write(rgba)
            span = 2 * HALF / (1 << z)
            minx, maxy = -HALF + x * span, HALF - y * span
            with tempfile.TemporaryDirectory() as scratch:
                target = os.path.join(scratch, "tile.tif")
                command = ["gdalwarp", "-q", "-t_srs", "EPSG:3857", "-te", str(minx), str(maxy - span), str(minx + span), str(maxy),
                           "-ts", str(size), str(size), "-r", resampling, "-ovr", "AUTO", "-dstalpha", "-et", "0.125"]
                for band in bands or []: command += ["-b", str(band)]
                if nodata is not None: command += ["-srcnodata", str(nodata)]
                subprocess.run(command + [path, target], check=True)
                with rasterio.open(target) as warped:
                    data = warped.read()
                open(os.path.join(out, "gdalwarp-" + name), "wb").write(to_rgba(data[:-1], data[-1], rescale))


if __name__ == "__main__":
    main()
