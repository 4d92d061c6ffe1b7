#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and under ThreadSanitizer, each in its own
# scratch path (.build-asan, .build-tsan: git-ignored by `.build-*/`), and prints a summary.
#   scripts/sanitize.sh [address|thread]…      (both by default)
# Suppressions (each file says what it covers and why): scripts/lsan-suppressions.txt
# (swift-corelibs-xctest's runner) and scripts/tsan-suppressions.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
kinds=("$@")
[[ ${#kinds[@]} -gt 0 ]] || kinds=(address thread)
mkdir -p scripts/out/sanitize
export TSAN_OPTIONS="suppressions=$root/scripts/tsan-suppressions.txt halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt ${LSAN_OPTIONS:-}"
status=0
for kind in "${kinds[@]}"; do
    case $kind in address) scratch=.build-asan ;; thread) scratch=.build-tsan ;; *) echo "unknown sanitizer $kind" >&2; exit 2 ;; esac
    log=scripts/out/sanitize/$kind.log
    echo "== swift test --sanitize=$kind (scratch $scratch, log $log)"
    swift test --sanitize="$kind" --scratch-path "$scratch" >"$log" 2>&1
    code=$?
    reports=$(grep -cE '^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer|==[0-9]+==ERROR: LeakSanitizer)' "$log")
    echo "exit status: $code; sanitizer reports: $reports"
    grep -E 'Test run with|Executed [0-9]+ test|tests? (passed|failed)' "$log" | tail -3
    grep -E '^SUMMARY: (Address|Thread|Leak)Sanitizer' "$log" | sort | uniq -c | head -20
    [[ $code -eq 0 && $reports -eq 0 ]] || status=1
done
exit $status
