#!/usr/bin/env python3
"""extract-mbtiles.py FILE.mbtiles OUTDIR: writes every tile as OUTDIR/{z}/{x}/{y}.png with the
TMS row flipped to XYZ (y = 2^z - 1 - tile_row), so a file server serves what tilelayer serves
from the MBTiles file. Prints the number of tiles."""
import os, sqlite3, sys

db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
out = sys.argv[2]
n = 0
for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
    y = (1 << z) - 1 - row
    d = os.path.join(out, str(z), str(x))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"{y}.png"), "wb") as f:
        f.write(data)
    n += 1
print(n)
