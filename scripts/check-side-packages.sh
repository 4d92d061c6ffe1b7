#!/usr/bin/env bash
# Compiles the side packages, Benchmarks/ and Fuzz/, so an API change in the main package that
# breaks a benchmark or a fuzz harness fails CI (issue 14). Runs nothing, only compiles (debug):
#   Fuzz/        the module of each harness (fuzz-http-parser, fuzz-route, fuzz-png, fuzz-config)
#   Benchmarks/  every target: imaging-bench, codec-bench, BenchmarkFixtures and the
#                package-benchmark suites HTTPParsing, Imaging, Service, Validation (their plugin included)
#   scripts/check-side-packages.sh          (.ci/run runs it right after `swift test`)
# Logs go to scripts/out/side-packages/; a step that fails prints the compiler's errors, the
# other steps still run, and the script exits 1.
#
# Why it is built this way: both packages depend on the main one by path, and a plain
# `swift build --package-path Fuzz` compiles the main package and all its dependencies again
# (swift-nio and the rest, via async-http-client) in Fuzz/.build: 8m45s cold on the 2-core CI
# machine (Benchmarks/ likewise, in its own .build). Here both build into the main package's own
# scratch directory (.build), where `swift test` has just left the main package and its
# dependencies built in debug: those are reused as they are (the same commands, so llbuild finds
# them up to date) and only the side packages' own targets, ordo-one/benchmark and its few
# dependencies compile: 1m45s-2m on that machine, of which Fuzz/ ~30 s. A later build of the main
# package recompiles nothing. If the main package is not built yet, its modules are compiled
# here, once, and the main build then reuses them. Two details:
#  - The harnesses define only `LLVMFuzzerTestOneInput` (libFuzzer supplies `main` when they
#    are built with --sanitize=fuzzer, as scripts/fuzz.sh does; instrumenting would recompile
#    everything), so a plain build cannot link them: each harness is built with `--target`,
#    which compiles its module (object files) without linking.
#  - SwiftPM reuses the build plan it cached in the scratch directory whenever the package
#    folders of the last plan are unchanged, without checking which root package asks (Swift
#    6.3.1): a Benchmarks build right after a main build silently built the main package's plan
#    instead. So the first build of each side package passes --disable-build-manifest-caching,
#    and on exit the cached debug plan is deleted so that the main package's next
#    `swift build`/`swift test` plans afresh (seconds) instead of building a side package's.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/scripts/out/side-packages"
scratch="$root/.build"
mkdir -p "$out"
cd "$root"

forget_plan() {
    # The cached debug plan (llbuild manifest and build description) of whichever package
    # built last; the next build of any package in .build makes its own.
    rm -f "$scratch/debug.yaml" "$scratch/debug/description.json"
}
trap forget_plan EXIT

total_start=$SECONDS
failed=()
step() { # step LOG PACKAGE WHAT [swift build arguments…]; a failure is reported, the next step still runs
    local name=$1 package=$2 what=$3 start=$SECONDS
    shift 3
    echo "== compiling $package/: $what"
    if swift build --package-path "$package" --scratch-path "$scratch" "$@" >"$out/$name.log" 2>&1; then
        echo "   ok in $((SECONDS - start)) s"
    else
        tr '\r' '\n' <"$out/$name.log" | grep -E '^(/[^ ]+: )?error:' | awk '!seen[$0]++' | head -40 || true
        echo "FAIL  $package/: $what does not compile, $((SECONDS - start)) s (log: $out/$name.log)"
        failed+=("$package/$name")
        return 1
    fi
}

replan=(--disable-build-manifest-caching)
for harness in http-parser route png config; do
    # Fuzz's plan, once made, serves the other harnesses.
    step "fuzz-$harness" Fuzz "fuzz-$harness (module, not linked)" --target "fuzz-$harness" "${replan[@]}" && replan=()
done
step benchmarks Benchmarks "imaging-bench, codec-bench, BenchmarkFixtures, suites HTTPParsing, Imaging, Service, Validation" \
    --disable-build-manifest-caching || true

if [ ${#failed[@]} -gt 0 ]; then
    echo "== side packages: ${#failed[@]} step(s) failed to compile in $((SECONDS - total_start)) s: ${failed[*]}"
    exit 1
fi
echo "== side packages compile: Fuzz/ (4 harnesses) and Benchmarks/ (7 targets) in $((SECONDS - total_start)) s"
