#!/usr/bin/env bash
# The browser tests: the board page (tests/browser/test_web.py) and the
# report page (tests/browser/test_report.py) in Debian's headless Chromium,
# driven by Playwright for Python (never a downloaded browser). Installs
# what is missing, builds the page (scripts/web/build.sh), then runs every
# tests/browser/test_*.py with MOLLETT set to the test build's engine,
# BROWSER_JOBS files at a time.
# .ci/run calls this after the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "browser tests: $*" >&2; exit 1; }
# A real part the tests need and cannot have fails them, unless the
# comma-separated MOLLETT_SKIP names it (docs/testing.md); CI never sets it.
skipped() {
    local names=${MOLLETT_SKIP:-}
    case ",${names//[[:space:]]/}," in *",$1,"*) return 0 ;; *) return 1 ;; esac
}
if [ ! -x /usr/bin/chromium ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        || fail "cannot install Debian's chromium"
fi
# The Hindi pages bring their own Devanagari font (web/www/shared/fonts);
# the other languages' pages draw the switch's "हिन्दी" with a system one,
# without which their screenshots show empty boxes there.
if ! fc-list :lang=hi 2>/dev/null | grep -q .; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-lohit-deva; } >/dev/null 2>&1 \
        || echo "browser tests: no Devanagari font (apt-get install fonts-lohit-deva); Hindi screenshots show boxes" >&2
fi
# test_room_features.py reads the room page's QR code back with zbarimg.
if ! skipped zbarimg && ! command -v zbarimg >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zbar-tools && command -v zbarimg; } >/dev/null 2>&1 \
        || fail "cannot install Debian's zbar-tools (zbarimg reads the room page's QR code back): apt-get install zbar-tools, or set MOLLETT_SKIP=zbarimg"
fi
if ! python3 -c 'import playwright' 2>/dev/null; then
    python3 -m pip install -q playwright >/dev/null 2>&1 || fail "cannot pip install playwright"
fi
# The accessibility audits (tests/browser/test_look.py, test_rooms.py) run
# axe-core from npm, kept under target/.
if ! skipped axe && [ ! -f target/axe/node_modules/axe-core/axe.min.js ]; then
    { command -v npm && npm install --silent --no-audit --no-fund --prefix target/axe axe-core \
        && [ -f target/axe/node_modules/axe-core/axe.min.js ]; } >/dev/null 2>&1 \
        || fail "cannot npm install axe-core into target/axe (the accessibility audits; npm is Debian's package npm), or set MOLLETT_SKIP=axe"
fi
# .ci/run builds the page beside the Rust tests and says so with
# MOLLETT_WEB_BUILT=1; run alone, this script builds it.
if [ "${MOLLETT_WEB_BUILT:-}" != 1 ]; then
    scripts/web/build.sh
fi
export MOLLETT="${MOLLETT:-target/ci/mollett}"
[ -x "$MOLLETT" ] || fail "no engine at $MOLLETT (run cargo test --profile ci first)"
# The files run BROWSER_JOBS at a time (default 2; each serves its pages
# on a free port of its own). They are mostly CPU-bound (the Worker's
# searches, Chromium's drawing): on two cores, two at a time took 222 s
# against about 262 s one after another, and three 211 s with each file
# slower, so two leave the timing checks their margin. Each file's output
# is printed whole when it ends, with its wall time; the status fails if
# any file fails.
jobs="${BROWSER_JOBS:-2}"
case "$jobs" in ''|*[!0-9]*|0) fail "BROWSER_JOBS must be a positive whole number, not '$jobs'" ;; esac
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
run_one() {
    local t=$1 log="$logs/$(basename "$1").log" start=$SECONDS rc=0
    python3 "$t" > "$log" 2>&1 || rc=$?
    { echo "== $t ($((SECONDS - start)) s, exit $rc)"; cat "$log"; } | flock "$logs" cat
    return $rc
}
status=0
running=0
# Largest file first (ls -S), a stand-in for longest first, so that the
# long ones do not end up last in one lane.
for t in $(ls -S tests/browser/test_*.py); do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    run_one "$t" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
