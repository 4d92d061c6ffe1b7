#!/usr/bin/env python3
"""JPEG and WebP decode/encode of 256 px tiles with Pillow: the same work as Benchmarks' codec-bench.

--prepare DIR: read the PNG tiles {z}/{x}/{y}.png of --zooms from DATA_DIR and write each as
DIR/jpeg/z-x-y.jpg (quality 85) and DIR/webp/z-x-y.webp (quality 80): the inputs both sides
decode, made by an independent encoder.

--format jpeg|webp DIR: decode every file of DIR/<format>/ from bytes in memory (timed), then
encode every decoded image again (timed): JPEG quality 85 4:2:0 (Pillow's default subsampling),
WebP quality 80 and --method (Pillow's default 4). Prints `RESULT impl=pillow op=decode|encode
format=... tiles=N seconds=S tiles_per_s=R bytes=B` per round (bytes: total output of encode,
total input of decode).
"""
import argparse
import io
import os
import sys
import time

from PIL import Image, features


def prepare(data_dir, zooms, out_dir):
    os.makedirs(os.path.join(out_dir, "jpeg"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "webp"), exist_ok=True)
    count = 0
    for z in zooms:
        for x in range(1 << z):
            for y in range(1 << z):
                image = Image.open(os.path.join(data_dir, str(z), str(x), f"{y}.png")).convert("RGB")
                image.save(os.path.join(out_dir, "jpeg", f"{z}-{x}-{y}.jpg"), "JPEG", quality=85)
                image.save(os.path.join(out_dir, "webp", f"{z}-{x}-{y}.webp"), "WEBP", quality=80)
                count += 1
    print(f"pillow_codecs: wrote {count} JPEG and {count} WebP tiles to {out_dir}", file=sys.stderr)


def decode_all(blobs):
    images = []
    for data in blobs:
        image = Image.open(io.BytesIO(data))
        image.load()
        images.append(image)
    return images


def encode_all(images, fmt, method):
    total = 0
    for image in images:
        out = io.BytesIO()
        if fmt == "jpeg":
            image.save(out, "JPEG", quality=85)
        else:
            image.save(out, "WEBP", quality=80, method=method)
        total += len(out.getbuffer())
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--prepare", metavar="DATA_DIR")
    parser.add_argument("--zooms", default="4,5")
    parser.add_argument("--format", choices=["jpeg", "webp"])
    parser.add_argument("--method", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=8)
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare, [int(z) for z in args.zooms.split(",")], args.dir)
        return
    if not args.format:
        sys.exit("pillow_codecs: --format or --prepare is required")
    folder = os.path.join(args.dir, args.format)
    blobs = [open(os.path.join(folder, name), "rb").read() for name in sorted(os.listdir(folder))]
    if not blobs:
        sys.exit(f"pillow_codecs: no files in {folder}")
    print(f"pillow_codecs: Pillow {Image.__version__}, libjpeg-turbo {features.version('jpg')}, "
          f"libwebp {features.version('webp')}; {len(blobs)} {args.format} tiles", file=sys.stderr)
    warm = decode_all(blobs[: args.warmup])
    encode_all(warm, args.format, args.method)
    label = "pillow" if args.format == "jpeg" else f"pillow-m{args.method}"
    for round_number in range(1, args.rounds + 1):
        start = time.perf_counter()
        images = decode_all(blobs)
        seconds = time.perf_counter() - start
        size = sum(len(b) for b in blobs)
        print(f"RESULT impl={label} op=decode format={args.format} round={round_number} tiles={len(blobs)} "
              f"seconds={seconds:.3f} tiles_per_s={len(blobs) / seconds:.2f} bytes={size}", flush=True)
        start = time.perf_counter()
        size = encode_all(images, args.format, args.method)
        seconds = time.perf_counter() - start
        print(f"RESULT impl={label} op=encode format={args.format} round={round_number} tiles={len(images)} "
              f"seconds={seconds:.3f} tiles_per_s={len(images) / seconds:.2f} bytes={size}", flush=True)


if __name__ == "__main__":
    main()
