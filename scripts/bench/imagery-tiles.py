#!/usr/bin/env python3
"""Distinct random tiles over a raster's footprint for scripts/bench-imagery.sh.

  imagery-tiles.py COUNT MINZOOM MAXZOOM WEST SOUTH EAST NORTH SEED
Prints COUNT distinct "z x y" lines, zooms drawn uniformly, tiles uniformly within the box.
"""
import random, sys

import mercantile

count, low, high = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
west, south, east, north = (float(v) for v in sys.argv[4:8])
rng = random.Random(int(sys.argv[8]))
seen, out = set(), []
while len(out) < count:
    z = rng.randint(low, high)
    lon, lat = rng.uniform(west, east), rng.uniform(south, north)
    tile = mercantile.tile(lon, lat, z)
    if (tile.z, tile.x, tile.y) not in seen:
        seen.add((tile.z, tile.x, tile.y))
        out.append(f"{tile.z} {tile.x} {tile.y}")
print("\n".join(out))
