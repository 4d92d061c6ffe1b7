#!/usr/bin/env python3
"""make-working-set.py SOURCE_DIR OUT_DIR MAX_ZOOM: a tile pyramid of real-sized, distinct PNGs for
scripts/bench.sh and scripts/bench-instructions.sh, as a folder (OUT_DIR/tiles/{z}/{x}/{y}.png) and as MBTiles
(OUT_DIR/tiles.mbtiles, the same bytes), plus the request lists (uniform.txt, zipf.txt).

Every tile of zoom 0..MAX_ZOOM is a real tile of SOURCE_DIR (any {z}/{x}/{y}.png pyramid, taken
round robin, larger ones first) with a PNG tEXt chunk naming its own z/x/y inserted before IEND:
a valid PNG of real size whose bytes differ from every other tile's, so no cache can share them.
Kept when it exists with the same MAX_ZOOM (building takes a minute).

The lists hold 200,000 paths each: uniform over every tile, and Zipf (s = 1) over the tiles in a
fixed random order, so the popular tiles are spread over the pyramid as a real map's are."""
import os, random, sqlite3, struct, sys, zlib

source, out, max_zoom = sys.argv[1], sys.argv[2], int(sys.argv[3])
stamp = os.path.join(out, "built-max-zoom")
if os.path.exists(stamp) and open(stamp).read().strip() == str(max_zoom):
    sys.exit(0)

bases = []
for root, _, files in os.walk(source):
    for name in files:
        if name.endswith(".png"):
            with open(os.path.join(root, name), "rb") as f:
                bases.append(f.read())
if not bases:
    sys.exit(f"make-working-set: no PNG tiles under {source}")
bases.sort(key=len, reverse=True)


def with_text(png, text):
    data = b"tilelayer\x00" + text.encode()
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data
    chunk += struct.pack(">I", zlib.crc32(b"tEXt" + data) & 0xFFFFFFFF)
    iend = png.rfind(b"IEND") - 4
    return png[:iend] + chunk + png[iend:]


os.makedirs(out, exist_ok=True)
tiles_dir = os.path.join(out, "tiles")
mbtiles = os.path.join(out, "tiles.mbtiles")
if os.path.exists(mbtiles):
    os.remove(mbtiles)
db = sqlite3.connect(mbtiles)
db.executescript("""
    CREATE TABLE metadata (name TEXT, value TEXT);
    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
    CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
""")
db.executemany("INSERT INTO metadata VALUES (?, ?)", [
    ("name", "working-set"), ("format", "png"), ("minzoom", "0"), ("maxzoom", str(max_zoom)),
    ("bounds", "-180,-85.0511,180,85.0511"), ("type", "baselayer"),
])
paths, total, index = [], 0, 0
for z in range(max_zoom + 1):
    for x in range(1 << z):
        os.makedirs(os.path.join(tiles_dir, str(z), str(x)), exist_ok=True)
        rows = []
        for y in range(1 << z):
            png = with_text(bases[index % len(bases)], f"{z}/{x}/{y}")
            index += 1
            with open(os.path.join(tiles_dir, str(z), str(x), f"{y}.png"), "wb") as f:
                f.write(png)
            rows.append((z, x, (1 << z) - 1 - y, png))  # MBTiles rows are TMS (y flipped)
            paths.append(f"/{z}/{x}/{y}.png")
            total += len(png)
        db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows)
db.commit()
db.close()

rng = random.Random(20261123)
with open(os.path.join(out, "uniform.txt"), "w") as f:
    f.writelines(rng.choice(paths) + "\n" for _ in range(200_000))
order = paths[:]
rng.shuffle(order)
weights = [1.0 / rank for rank in range(1, len(order) + 1)]
with open(os.path.join(out, "zipf.txt"), "w") as f:
    f.writelines(p + "\n" for p in rng.choices(order, weights=weights, k=200_000))
with open(stamp, "w") as f:
    f.write(str(max_zoom))
print(f"make-working-set: {len(paths)} tiles, {total / 1e6:.0f} MB, mean {total // len(paths)} bytes")
