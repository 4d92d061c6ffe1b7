#!/usr/bin/env python3
"""Derived @2x tiles per second with Pillow: the same work as Benchmarks' imaging-bench.

For every tile (z, x, y) of the chosen zooms: decode the four children at z+1 from bytes already
in memory, paste them 2x2 into one 512x512 RGBA image and encode that as PNG. Like TilePNG's
encoder, a fully opaque result is written as RGB (--keep-alpha writes RGBA as decoded).

Variants (--variant, repeatable): "default" = save(format="PNG"); "level6" =
save(format="PNG", optimize=False, compress_level=6); "optimize" = save(..., optimize=True).

Prints one `RESULT key=value ...` line per variant and round; everything else goes to stderr.
--verify DIR compares, pixel by pixel, our PNGs written by `imaging-bench --dump DIR` with
Pillow's mosaics (same pixels expected) and exits non-zero on a difference.
"""
import argparse
import io
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from PIL import Image, features

SAVE_ARGS = {
    "default": {},
    "level6": {"optimize": False, "compress_level": 6},
    "optimize": {"optimize": True},
}
CHILDREN = [(0, 0), (1, 0), (0, 1), (1, 1)]  # NW, NE, SW, SE


def load_jobs(data_dir, zooms):
    jobs = []
    for z in zooms:
        side = 1 << z
        for x in range(side):
            for y in range(side):
                children = []
                for dx, dy in CHILDREN:
                    with open(os.path.join(data_dir, str(z + 1), str(2 * x + dx), f"{2 * y + dy}.png"), "rb") as f:
                        children.append(f.read())
                jobs.append((z, x, y, children))
    if not jobs:
        sys.exit(f"pillow_imaging: no tiles for zooms {zooms}")
    return jobs


def compose(children):
    images = []
    for data in children:
        image = Image.open(io.BytesIO(data))
        image.load()
        images.append(image if image.mode == "RGBA" else image.convert("RGBA"))
    width, height = images[0].size
    mosaic = Image.new("RGBA", (width * 2, height * 2))
    for image, (dx, dy) in zip(images, CHILDREN):
        mosaic.paste(image, (dx * width, dy * height))
    return mosaic


def derive(children, save_args, keep_alpha):
    mosaic = compose(children)
    if not keep_alpha and mosaic.getchannel("A").getextrema()[0] == 255:
        mosaic = mosaic.convert("RGB")
    out = io.BytesIO()
    mosaic.save(out, format="PNG", **save_args)
    return len(out.getbuffer())


def run_round(jobs, save_args, keep_alpha, threads):
    if threads == 1:
        start = time.perf_counter()
        total = sum(derive(children, save_args, keep_alpha) for _, _, _, children in jobs)
        return time.perf_counter() - start, total
    with ThreadPoolExecutor(max_workers=threads) as pool:
        start = time.perf_counter()
        total = sum(pool.map(lambda job: derive(job[3], save_args, keep_alpha), jobs, chunksize=4))
        return time.perf_counter() - start, total


def verify(jobs, directory):
    for z, x, y, children in jobs:
        ours = Image.open(os.path.join(directory, f"{z}-{x}-{y}.png"))
        ours.load()
        theirs = compose(children)
        if ours.size != theirs.size or ours.convert("RGBA").tobytes() != theirs.tobytes():
            sys.exit(f"pillow_imaging: {z}/{x}/{y}: pixels differ from Pillow's mosaic")
    print(f"pillow_imaging: verified {len(jobs)} mosaics: same pixels as Pillow's", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir")
    parser.add_argument("--zooms", default="3,4")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=sorted(SAVE_ARGS))
    parser.add_argument("--keep-alpha", action="store_true")
    parser.add_argument("--verify", metavar="DIR")
    args = parser.parse_args()
    zooms = [int(z) for z in args.zooms.split(",")]
    variants = args.variant or ["default"]
    if args.rounds < 1 or args.threads < 1 or args.warmup < 0:
        sys.exit("pillow_imaging: --rounds and --threads must be at least 1, --warmup at least 0")

    jobs = load_jobs(args.data_dir, zooms)
    zlib = features.version("zlib")
    zlib_ng = features.version("zlib_ng") if "zlib_ng" in features.features else None
    print(f"pillow_imaging: Pillow {Image.__version__}, zlib {zlib}" + (f", zlib-ng {zlib_ng}" if zlib_ng else "")
          + f"; {len(jobs)} @2x tiles, {4 * len(jobs)} children in memory", file=sys.stderr)
    if args.verify:
        verify(jobs, args.verify)
    for variant in variants:
        run_round(jobs[: args.warmup], SAVE_ARGS[variant], args.keep_alpha, 1)
    for round_number in range(1, args.rounds + 1):
        for variant in variants:
            seconds, total = run_round(jobs, SAVE_ARGS[variant], args.keep_alpha, args.threads)
            print(f"RESULT impl=pillow-{variant} threads={args.threads} round={round_number} tiles={len(jobs)} "
                  f"seconds={seconds:.3f} tiles_per_s={len(jobs) / seconds:.2f} bytes={total}", flush=True)


if __name__ == "__main__":
    main()
