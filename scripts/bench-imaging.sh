#!/usr/bin/env bash
# bench-imaging.sh: derived @2x tiles per second, TilePNG (in-process) side by side with Pillow;
# then JPEG and WebP decode and encode of 256 px tiles, TileCodecs side by side with Pillow.
#
# The work, on both sides, for every tile (z, x, y) of ZOOMS: decode the four children at z+1
# (PNG bytes read into memory before timing), compose them 2x2 into a 512x512 RGBA image, encode
# it as PNG (an opaque result as RGB on both sides). Ours: Benchmarks/' imaging-bench (release
# build, TilePNG's PNGDecoder / RGBAImage.mosaic2x2 / PNGEncoder() defaults unless LEVEL/FILTER
# say otherwise). Pillow: scripts/bench/pillow_imaging.py with save(format="PNG") ("default")
# and save(format="PNG", optimize=False, compress_level=6) ("level6").
#
# It checks first that both sides compose the same pixels, then runs ROUNDS rounds, each one
# process of ours and one of Pillow's (both Pillow variants), alternating which goes first,
# single-threaded; then, with THREADS2=1, one more round of each on 2 threads. It prints every
# round, the medians, the output sizes, and PASS/FAIL for:
#   speed: median ours tiles/s >= SPEED_TARGET x the faster Pillow variant's median tiles/s
#   size:  ours total bytes <= SIZE_LIMIT x the smaller Pillow variant's total bytes
#
# JPEG and WebP (FORMATS containing jpeg / webp): Pillow first writes the world tiles of
# CODEC_ZOOMS as JPEG (quality 85) and WebP (quality 80): the inputs both sides decode, made by an
# independent encoder. Then, CODEC_ROUNDS times alternating who goes first, single-threaded:
# Benchmarks/' codec-bench (TileCodecs: ImageDecoder.decode, JPEGEncoder() / WebPEncoder()
# defaults) and scripts/bench/pillow_codecs.py each decode every tile from memory, then encode
# every decoded image again (JPEG q85 4:2:0 both; WebP q80, ours at WebPEncoder.defaultMethod,
# Pillow at its default method 4 and at ours). Prints tiles/s, bytes and ratios, PASS/FAIL for
#   codec speed: median ours tiles/s >= SPEED_TARGET x Pillow's (Pillow's default settings)
#
# Environment (defaults in brackets):
#   FORMATS=png,jpeg,webp  which parts to run
#   CODEC_ZOOMS=4,5  world zooms the JPEG/WebP tiles come from (256 + 1024 tiles)
#   CODEC_ROUNDS=3   rounds of each side per codec
#   DATA=<repo>/../shared/data/world   tile pyramid {z}/{x}/{y}.png
#   ZOOMS=3,4        zooms of the derived tiles (3,4: 64 + 256 = 320 tiles from zoom 4 and 5)
#   ROUNDS=3         single-threaded rounds (each measures ours and Pillow once)
#   WARMUP=8         untimed tiles each process derives before timing
#   THREADS2=1       1: also one round of each on 2 threads; 0: skip
#   SPEED_TARGET=1.5 SIZE_LIMIT=1.10
#   LEVEL=, FILTER=  override our encoder's zlib level (0-9) / filter (none, sub, up, average,
#                    paeth, adaptive); empty: PNGEncoder's defaults
#   VERIFY_ZOOM=2    zoom whose @2x tiles are compared pixel by pixel (empty: skip)
#   SKIP_BUILD=0     1: use the existing release binary
#   BUILD_TIMEOUT=3600  seconds the release build may take
#   STRICT=0         1: exit 1 when a criterion FAILs
#
# Exit status: 0 whether or not the targets are met (unless STRICT=1); 2 on errors (build,
# missing data, Pillow not installable, pixels that differ).
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)
DATA=${DATA:-$REPO/../shared/data/world}
ZOOMS=${ZOOMS:-3,4}
ROUNDS=${ROUNDS:-3}
WARMUP=${WARMUP:-8}
THREADS2=${THREADS2:-1}
SPEED_TARGET=${SPEED_TARGET:-1.5}
SIZE_LIMIT=${SIZE_LIMIT:-1.10}
LEVEL=${LEVEL:-}
FILTER=${FILTER:-}
VERIFY_ZOOM=${VERIFY_ZOOM-2}
SKIP_BUILD=${SKIP_BUILD:-0}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-3600}
STRICT=${STRICT:-0}
FORMATS=${FORMATS:-png,jpeg,webp}
CODEC_ZOOMS=${CODEC_ZOOMS:-4,5}
CODEC_ROUNDS=${CODEC_ROUNDS:-3}
PYTHON=${PYTHON:-python3}

die() { echo "bench-imaging: $*" >&2; exit 2; }

for name in ROUNDS WARMUP BUILD_TIMEOUT CODEC_ROUNDS; do
    [[ ${!name} =~ ^[0-9]+$ ]] || die "$name must be a whole number (got '${!name}')"
done
(( ROUNDS >= 1 )) || die "ROUNDS must be at least 1"
[[ $ZOOMS =~ ^[0-9]+(,[0-9]+)*$ ]] || die "ZOOMS must be comma-separated zooms (got '$ZOOMS')"
[[ $FORMATS =~ ^(png|jpeg|webp)(,(png|jpeg|webp))*$ ]] || die "FORMATS is a comma-separated list of png, jpeg, webp (got '$FORMATS')"
want() { [[ ,$FORMATS, == *,$1,* ]]; }
[[ -d $DATA ]] || die "no tile folder at $DATA (set DATA=)"
DATA=$(cd "$DATA" && pwd)

ours_args=()
[[ -n $LEVEL ]] && ours_args+=(--level "$LEVEL")
[[ -n $FILTER ]] && ours_args+=(--filter "$FILTER")

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# --- Pillow ---------------------------------------------------------------------------------
if ! "$PYTHON" -c 'import PIL' 2>/dev/null; then
    echo "== installing Pillow (pip install pillow)"
    "$PYTHON" -m pip install --quiet pillow || die "cannot install Pillow"
fi

# --- build ----------------------------------------------------------------------------------
if [[ $SKIP_BUILD != 1 ]]; then
    for product in imaging-bench codec-bench; do
        echo "== building $product (swift build -c release --package-path Benchmarks)"
        if ! timeout -k 10 "$BUILD_TIMEOUT" swift build -c release --package-path "$REPO/Benchmarks" \
                --product "$product" > "$TMP/build.log" 2>&1; then
            tail -n 40 "$TMP/build.log" >&2
            die "release build failed"
        fi
        tail -n 1 "$TMP/build.log"
    done
fi
BIN_PATH="$(swift build -c release --package-path "$REPO/Benchmarks" --show-bin-path)"
BENCH="$BIN_PATH/imaging-bench"
CODEC_BENCH="$BIN_PATH/codec-bench"
[[ -x $BENCH && -x $CODEC_BENCH ]] || die "no binaries in $BIN_PATH (run without SKIP_BUILD=1)"
PILLOW=("$PYTHON" "$SCRIPT_DIR/bench/pillow_imaging.py" "$DATA")

echo "== machine: $(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "== data: $DATA, derived zooms $ZOOMS"

if want png; then
# --- same pixels ----------------------------------------------------------------------------
if [[ -n $VERIFY_ZOOM ]]; then
    "$BENCH" "$DATA" --zooms "$VERIFY_ZOOM" --warmup 0 --rounds 1 --dump "$TMP/ours" "${ours_args[@]}" \
        > /dev/null 2> "$TMP/verify.log" || { cat "$TMP/verify.log" >&2; die "imaging-bench failed"; }
    "${PILLOW[@]}" --zooms "$VERIFY_ZOOM" --verify "$TMP/ours" --rounds 1 --warmup 0 > /dev/null 2> "$TMP/verify.log" \
        || { cat "$TMP/verify.log" >&2; die "our mosaics differ from Pillow's"; }
    grep -h '^pillow_imaging' "$TMP/verify.log" | sed 's/^/== /'
fi

# --- rounds ---------------------------------------------------------------------------------
run_ours() { # threads (round=N in the RESULT lines: the script's round, each process runs one)
    "$BENCH" "$DATA" --zooms "$ZOOMS" --warmup "$WARMUP" --rounds 1 --threads "$1" "${ours_args[@]}" \
        2> "$TMP/ours.err" | sed "s/ round=1 / round=$round /" | tee -a "$TMP/results" || { cat "$TMP/ours.err" >&2; die "imaging-bench failed"; }
}
run_pillow() { # threads
    "${PILLOW[@]}" --zooms "$ZOOMS" --warmup "$WARMUP" --rounds 1 --threads "$1" --variant default --variant level6 \
        2> "$TMP/pillow.err" | sed "s/ round=1 / round=$round /" | tee -a "$TMP/results" || { cat "$TMP/pillow.err" >&2; die "pillow_imaging.py failed"; }
}
: > "$TMP/results"
for (( round = 1; round <= ROUNDS; round++ )); do
    echo "== round $round/$ROUNDS (1 thread, $([[ $((round % 2)) == 1 ]] && echo "ours first" || echo "Pillow first"))"
    if (( round % 2 == 1 )); then run_ours 1; run_pillow 1; else run_pillow 1; run_ours 1; fi
done
if [[ $THREADS2 == 1 ]]; then
    echo "== 2 threads (one round each)"
    round=1
    run_pillow 2
    run_ours 2
fi
head -n 1 "$TMP/ours.err" | sed 's/^/== /'
grep -h '^pillow_imaging' "$TMP/pillow.err" | sed 's/^/== /'

# --- summary --------------------------------------------------------------------------------
"$PYTHON" - "$TMP/results" "$SPEED_TARGET" "$SIZE_LIMIT" "$STRICT" <<'EOF'
import statistics, sys

path, speed_target, size_limit, strict = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "1"
rows = []
for line in open(path):
    if line.startswith("RESULT "):
        rows.append(dict(field.split("=", 1) for field in line.split()[1:]))

def pick(impl, threads):
    return [r for r in rows if r["impl"] == impl and r["threads"] == threads]

print()
print(f"{'implementation':<16} {'threads':>7} {'rounds':>6} {'median tiles/s':>14} {'min':>8} {'max':>8} {'bytes':>12} {'vs ours':>8}")
medians, sizes = {}, {}
for threads in ("1", "2"):
    for impl in ("ours", "pillow-default", "pillow-level6"):
        found = pick(impl, threads)
        if not found:
            continue
        rates = [float(r["tiles_per_s"]) for r in found]
        medians[impl, threads] = statistics.median(rates)
        sizes[impl] = int(found[0]["bytes"])
        if len({r["bytes"] for r in found}) != 1:
            sys.exit(f"bench-imaging: {impl} gave different sizes across rounds")
        ratio = sizes[impl] / sizes["ours"] if "ours" in sizes else float("nan")
        print(f"{impl:<16} {threads:>7} {len(found):>6} {medians[impl, threads]:>14.2f} {min(rates):>8.2f} "
              f"{max(rates):>8.2f} {sizes[impl]:>12,} {ratio:>7.3f}x")
tiles = rows[0]["tiles"]
print(f"(tiles per round: {tiles}; 'vs ours' = that side's bytes / our bytes)")
print()

failed = False
ours = medians["ours", "1"]
best_pillow = max(("pillow-default", "pillow-level6"), key=lambda impl: medians[impl, "1"])
speed_ratio = ours / medians[best_pillow, "1"]
for impl in ("pillow-default", "pillow-level6"):
    print(f"speed ratio ours/{impl} (1 thread, medians): {ours / medians[impl, '1']:.2f}")
if ("ours", "2") in medians:
    for impl in ("pillow-default", "pillow-level6"):
        if (impl, "2") in medians:
            print(f"speed ratio ours/{impl} (2 threads): {medians['ours', '2'] / medians[impl, '2']:.2f}")
smallest = min(("pillow-default", "pillow-level6"), key=lambda impl: sizes[impl])
size_ratio = sizes["ours"] / sizes[smallest]
for impl in ("pillow-default", "pillow-level6"):
    print(f"size ratio ours/{impl}: {sizes['ours'] / sizes[impl]:.4f} ({(sizes['ours'] / sizes[impl] - 1) * 100:+.1f} %)")
ok = speed_ratio >= speed_target
failed |= not ok
print(f"{'PASS' if ok else 'FAIL'} speed: ours {ours:.2f} tiles/s = {speed_ratio:.2f}x {best_pillow} "
      f"{medians[best_pillow, '1']:.2f} tiles/s (target >= {speed_target:.2f}x)")
ok = size_ratio <= size_limit
failed |= not ok
print(f"{'PASS' if ok else 'FAIL'} size: ours {sizes['ours']:,} B = {size_ratio:.4f}x {smallest} {sizes[smallest]:,} B "
      f"(limit <= {size_limit:.2f}x, i.e. at most {(size_limit - 1) * 100:.0f} % larger)")
sys.exit(1 if failed and strict else 0)
EOF
fi

# --- JPEG and WebP --------------------------------------------------------------------------
want jpeg || want webp || exit 0
"$PYTHON" "$SCRIPT_DIR/bench/pillow_codecs.py" "$TMP/codecs" --prepare "$DATA" --zooms "$CODEC_ZOOMS" 2> "$TMP/prepare.log" \
    || { cat "$TMP/prepare.log" >&2; die "pillow_codecs.py --prepare failed"; }
sed 's/^/== /' "$TMP/prepare.log"
WEBP_METHOD=$("$CODEC_BENCH" --default-webp-method)
run_codec_ours() { # format round
    "$CODEC_BENCH" "$TMP/codecs" --format "$1" --warmup "$WARMUP" 2> "$TMP/codec.err" \
        | sed "s/ round=1 / round=$2 /" | tee -a "$TMP/codec-results" || { cat "$TMP/codec.err" >&2; die "codec-bench failed"; }
}
run_codec_pillow() { # format round: Pillow's defaults, and for WebP also our method
    local methods=(4)
    [[ $1 == webp && $WEBP_METHOD != 4 ]] && methods+=("$WEBP_METHOD")
    for method in "${methods[@]}"; do
        "$PYTHON" "$SCRIPT_DIR/bench/pillow_codecs.py" "$TMP/codecs" --format "$1" --method "$method" --warmup "$WARMUP" \
            2> "$TMP/pillow-codec.err" | sed "s/ round=1 / round=$2 /" | tee -a "$TMP/codec-results" \
            || { cat "$TMP/pillow-codec.err" >&2; die "pillow_codecs.py failed"; }
    done
}
: > "$TMP/codec-results"
for format in jpeg webp; do
    want "$format" || continue
    for (( round = 1; round <= CODEC_ROUNDS; round++ )); do
        echo "== $format round $round/$CODEC_ROUNDS (1 thread, load $(cut -d' ' -f1-3 /proc/loadavg))"
        if (( round % 2 == 1 )); then run_codec_ours "$format" "$round"; run_codec_pillow "$format" "$round"
        else run_codec_pillow "$format" "$round"; run_codec_ours "$format" "$round"; fi
    done
done
grep -h '^pillow_codecs' "$TMP/pillow-codec.err" | sed 's/^/== /'
echo "== cpu: $(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"

"$PYTHON" - "$TMP/codec-results" "$SPEED_TARGET" "$STRICT" <<'EOF'
import statistics, sys

path, speed_target, strict = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "1"
rows = [dict(f.split("=", 1) for f in line.split()[1:]) for line in open(path) if line.startswith("RESULT ")]
print()
print(f"{'format':<6} {'op':<7} {'implementation':<14} {'rounds':>6} {'median tiles/s':>14} {'bytes':>12} "
      f"{'ours speed /':>12} {'ours bytes /':>12}")
failed = False
for fmt in ("jpeg", "webp"):
    for op in ("decode", "encode"):
        found = [r for r in rows if r["format"] == fmt and r["op"] == op]
        if not found:
            continue
        impls = sorted({r["impl"] for r in found}, key=lambda name: (not name.startswith("ours"), name))
        med = {i: statistics.median(float(r["tiles_per_s"]) for r in found if r["impl"] == i) for i in impls}
        size = {i: int(next(r["bytes"] for r in found if r["impl"] == i)) for i in impls}
        ours = impls[0]
        for impl in impls:
            print(f"{fmt:<6} {op:<7} {impl:<14} {sum(r['impl'] == impl for r in found):>6} {med[impl]:>14.2f} "
                  f"{size[impl]:>12,} {med[ours] / med[impl]:>11.2f}x {size[ours] / size[impl]:>11.3f}x")
        # The criterion is against Pillow's own defaults (JPEG: "pillow"; WebP: method 4).
        reference = "pillow" if fmt == "jpeg" else "pillow-m4"
        ratio = med[ours] / med[reference]
        ok = ratio >= speed_target
        failed |= not ok
        print(f"{'PASS' if ok else 'FAIL'} {fmt} {op} speed: {ours} {med[ours]:.2f} tiles/s = {ratio:.2f}x "
              f"{reference} {med[reference]:.2f} tiles/s (target >= {speed_target:.2f}x); "
              f"bytes {size[ours] / size[reference]:.3f}x {reference}")
print("(decode bytes: the input files, the same on both sides; encode bytes: the total output)")
sys.exit(1 if failed and strict else 0)
EOF
