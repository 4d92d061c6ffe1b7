#!/usr/bin/env python3
"""Packs a {z}/{x}/{y}.png pyramid into a PMTiles v3 archive with the reference writer
(the `pmtiles` package on PyPI), so that tests serve an archive tilelayer did not write.

usage: make-pmtiles-fixture.py PYRAMID OUT.pmtiles [--max-root-bytes N]
--max-root-bytes makes the writer split the directory into leaves (default: its own 16 KiB).
"""
import argparse
import os

import pmtiles.writer as writer
from pmtiles.tile import Compression, TileType, zxy_to_tileid


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pyramid")
    parser.add_argument("out")
    parser.add_argument("--max-root-bytes", type=int, default=None)
    args = parser.parse_args()

    if args.max_root_bytes is not None:
        original = writer.optimize_directories
        writer.optimize_directories = lambda entries, _target, *rest: original(entries, args.max_root_bytes, *rest)

    tiles = []
    for z in sorted(os.listdir(args.pyramid), key=int):
        for x in os.listdir(os.path.join(args.pyramid, z)):
            for name in os.listdir(os.path.join(args.pyramid, z, x)):
                if name.endswith(".png"):
                    y = int(name[: -len(".png")])
                    tiles.append((zxy_to_tileid(int(z), int(x), y), os.path.join(args.pyramid, z, x, name)))
    tiles.sort()

    with open(args.out, "wb") as out:
        archive = writer.Writer(out)
        for tile_id, path in tiles:
            with open(path, "rb") as f:
                archive.write_tile(tile_id, f.read())
        archive.finalize(
            {
                "tile_type": TileType.PNG,
                "tile_compression": Compression.NONE,
                "min_lon_e7": -1800000000,
                "min_lat_e7": -850511287,
                "max_lon_e7": 1800000000,
                "max_lat_e7": 850511287,
                "center_zoom": 1,
                "center_lon_e7": 0,
                "center_lat_e7": 0,
            },
            {"name": "World", "attribution": "Tom Patterson", "description": "Natural Earth world pyramid"},
        )


if __name__ == "__main__":
    main()
