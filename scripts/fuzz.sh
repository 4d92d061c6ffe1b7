#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS and prints its figures.
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags…]
# TARGET: http-parser | route | png | config. Harnesses live in Fuzz/Targets/TARGET, seeds in
# Fuzz/corpus/TARGET; the growing corpus, log and any crash files go to scripts/out/fuzz/TARGET.
#
# Build: Fuzz/ is its own SwiftPM package that depends on the main one by path; the harnesses
# are compiled with -parse-as-library and define only `@_cdecl("LLVMFuzzerTestOneInput")`, and
# libFuzzer supplies `main`. What links and instruments here (Swift 6.3.1, Linux):
#   swift build --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
# SwiftPM passes `-sanitize=fuzzer -sanitize=address` to swiftc as two flags and swiftc keeps
# only the last one, so Swift code got ASan but no SanitizerCoverage (libFuzzer then warns "no
# interesting inputs… is the code instrumented?"); the combined `-Xswiftc -sanitize=fuzzer,address`
# comes last and wins. C targets (CPNGCodec, Yams' CYaml) get both from clang. libpng and
# SQLite are system libraries: called, not instrumented.
set -euo pipefail

usage() { echo "usage: $0 http-parser|route|png|config SECONDS [libFuzzer flags…]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
target=$1
seconds=$2
shift 2
case $target in http-parser | route | png | config) ;; *) usage ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/scripts/out/fuzz/$target
mkdir -p "$out/corpus" "$out/artifacts"

cd "$root/Fuzz"
sanitizers=(--sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address)
echo "building fuzz-$target (fuzzer + address sanitizer)…" >&2
swift build "${sanitizers[@]}" --product "fuzz-$target" >"$out/build.log" 2>&1 || {
    tail -40 "$out/build.log" >&2
    exit 1
}
binary=$(swift build "${sanitizers[@]}" --show-bin-path)/fuzz-$target

crashes_before=$(find "$out/artifacts" -type f | wc -l)
echo "fuzzing $target for $seconds s (corpus $out/corpus, seeds Fuzz/corpus/$target)…" >&2
set +e
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$binary" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" "$@" "$out/corpus" "$root/Fuzz/corpus/$target" >"$out/log" 2>&1
status=$?
set -e

# Figures: the last status line (coverage, features, corpus) and libFuzzer's final stats.
last=$(grep -E '^#[0-9]+' "$out/log" | tail -1 || true)
stat() { grep -E "^stat::$1:" "$out/log" | awk '{print $2}' | tail -1; }
crashes=$(( $(find "$out/artifacts" -type f | wc -l) - crashes_before ))
echo "== fuzz $target: ${seconds} s"
echo "exit status:        $status"
echo "last status line:   $last"
echo "executions:         $(stat number_of_executed_units)"
echo "executions/s:       $(stat average_exec_per_sec)"
echo "new units added:    $(stat new_units_added)"
echo "peak RSS (MB):      $(stat peak_rss_mb)"
echo "corpus files:       $(find "$out/corpus" -type f | wc -l)"
echo "new crash/leak/timeout files: $crashes"
if [[ $status -ne 0 ]]; then
    grep -E 'ERROR|SUMMARY|Fatal error|deadly signal|timeout|leak' "$out/log" | head -20
    ls "$out/artifacts"
fi
exit $status
