#!/usr/bin/env python3
"""Makes the shipped floor-plan tiles: tiles/floorplans/L{floor}_{z}_{x}_{y}.png.

A made-up three-floor plan of the British Museum's footprint in London (51.5194 N, 0.1270 W),
zoom 16-18, drawn in Web Mercator pixel space so it lines up with any base map. Standard
library only (zlib + struct write the PNGs). Re-run it to regenerate: the output is
deterministic.
"""
import math, os, struct, zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tiles", "floorplans")
# The building: west, south, east, north in degrees.
BOX = (-0.1292, 51.5180, -0.1248, 51.5208)
FLOORS = {1: (206, 92, 0), 2: (0, 114, 178), 3: (0, 158, 115)}
ZOOMS = range(16, 19)
SIZE = 256

def world_px(lon, lat, z):
    scale = SIZE * 2 ** z
    x = (lon + 180) / 360 * scale
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * scale
    return x, y

def png(pixels):
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

def draw_tile(floor, z, tx, ty):
    x0, y1 = world_px(BOX[0], BOX[1], z)
    x1, y0 = world_px(BOX[2], BOX[3], z)
    colour = FLOORS[floor]
    rooms = floor + 2  # more rooms on higher floors
    wall = max(1, 2 ** (z - 16))
    rows = []
    for py in range(SIZE):
        row = []
        for px in range(SIZE):
            wx, wy = tx * SIZE + px + 0.5, ty * SIZE + py + 0.5
            pixel = (0, 0, 0, 0)
            if x0 <= wx <= x1 and y0 <= wy <= y1:
                fx, fy = (wx - x0) / (x1 - x0), (wy - y0) / (y1 - y0)
                edge = min(wx - x0, x1 - wx, wy - y0, y1 - wy) < 2 * wall
                inner = (abs(fx * rooms - round(fx * rooms)) * (x1 - x0) / rooms < wall
                         or abs(fy * rooms - round(fy * rooms)) * (y1 - y0) / rooms < wall)
                court = 0.35 < fx < 0.65 and 0.35 < fy < 0.65  # the Great Court
                if edge or inner:
                    pixel = (40, 40, 40, 255)
                elif court:
                    pixel = (240, 240, 230, 200)
                else:
                    pixel = colour + (150,)
            row.extend(pixel)
        rows.append(row)
    return rows

def main():
    os.makedirs(OUT, exist_ok=True)
    count = 0
    for z in ZOOMS:
        x0, y1 = world_px(BOX[0], BOX[1], z)
        x1, y0 = world_px(BOX[2], BOX[3], z)
        for tx in range(int(x0 // SIZE), int(x1 // SIZE) + 1):
            for ty in range(int(y0 // SIZE), int(y1 // SIZE) + 1):
                for floor in FLOORS:
                    with open(os.path.join(OUT, f"L{floor}_{z}_{tx}_{ty}.png"), "wb") as f:
                        f.write(png(draw_tile(floor, z, tx, ty)))
                    count += 1
    print(f"wrote {count} tiles to {os.path.normpath(OUT)}")

if __name__ == "__main__":
    main()
