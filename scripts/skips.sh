#!/usr/bin/env bash
# Finds every skip in the output of a test run and fails on one that Tests/allowed-skips.txt
# does not list. A skip is a Swift Testing line "➜ Test NAME skipped…" or "➜ Suite NAME
# skipped…" (ID swift/NAME), or a scripted check's line "SKIP CHECK/PART: reason" (ID CHECK/PART).
#   scripts/skips.sh LOG...      each skip found, allowed or not; exit 1 if one is not listed
#   scripts/skips.sh --list      prints the allowed skips with their reasons
#   scripts/skips.sh --self-test shows on made-up logs that an unlisted skip fails and a listed one passes
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
allowed_file="${ALLOWED_SKIPS:-$root/Tests/allowed-skips.txt}"

# The IDs the file allows (the text before " | " on each line that is not a comment).
allowed_ids() { grep -v -E '^[[:space:]]*(#|$)' "$allowed_file" | sed -E 's/[[:space:]]*\|.*$//'; }

# The skip IDs in the logs, one a line, in order.
skip_ids() {
    sed -n -E \
        -e 's/^➜ (Test|Suite) (.+) skipped(: .*|\.)$/swift\/\2/p' \
        -e 's/^[[:space:]]*SKIP ([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+):.*$/\1/p' "$@"
}

check() {
    local unlisted=0 id
    mapfile -t allowed < <(allowed_ids)
    while IFS= read -r id; do
        if printf '%s\n' "${allowed[@]}" | grep -qxF -- "$id"; then
            echo "skip (allowed, Tests/allowed-skips.txt): $id"
        else
            echo "SKIP NOT ALLOWED: $id — make it run, or list it with its reason in Tests/allowed-skips.txt"
            unlisted=$((unlisted + 1))
        fi
    done < <(skip_ids "$@")
    [ "$unlisted" -eq 0 ]
}

self_test() {
    local folder
    folder="$(mktemp -d)"
    trap 'rm -rf "$folder"' RETURN
    printf '# comment\nswift/listedTest() | a reason\nogc/listed | another\n' >"$folder/allowed.txt"
    printf '%s\n' '◇ Test listedTest() started.' '➜ Test listedTest() skipped: "why"' 'SKIP ogc/listed: why' \
        '✔ Test run with 2 tests passed' >"$folder/listed.log"
    printf '%s\n' '➜ Test "A display name" skipped.' >"$folder/swift.log"
    printf '%s\n' '  SKIP browser/leaflet: no Leaflet' >"$folder/script.log"
    ALLOWED_SKIPS="$folder/allowed.txt" "$0" "$folder/listed.log" >/dev/null \
        || { echo "skips self-test: listed skips were refused"; return 1; }
    ! ALLOWED_SKIPS="$folder/allowed.txt" "$0" "$folder/swift.log" >/dev/null \
        || { echo "skips self-test: an unlisted Swift skip passed"; return 1; }
    ! ALLOWED_SKIPS="$folder/allowed.txt" "$0" "$folder/script.log" >/dev/null \
        || { echo "skips self-test: an unlisted scripted check's skip passed"; return 1; }
    [ "$(skip_ids "$folder/swift.log")" = 'swift/"A display name"' ] \
        || { echo "skips self-test: a display name was misread: $(skip_ids "$folder/swift.log")"; return 1; }
    echo "skips self-test: an unlisted skip fails, a listed one passes"
}

case "${1:-}" in
    --list)
        echo "Allowed skips ($allowed_file):"
        grep -v -E '^[[:space:]]*(#|$)' "$allowed_file" | sed 's/^/  /' || echo "  (none)"
        ;;
    --self-test) self_test ;;
    "") echo "usage: $0 LOG... | --list | --self-test" >&2; exit 2 ;;
    *) check "$@" ;;
esac
