#!/usr/bin/env bash
# The browser tests: the board page (tests/browser/test_web.py) and the
# report page (tests/browser/test_report.py) in Debian's headless Chromium,
# driven by Playwright for Python (never a downloaded browser). Installs
# what is missing, builds the page (scripts/web/build.sh), then runs every
# tests/browser/test_*.py with MOLLETT set to the test build's engine.
# .ci/run calls this after the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "browser tests: $*" >&2; exit 1; }
if [ ! -x /usr/bin/chromium ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        || fail "cannot install Debian's chromium"
fi
# The Hindi "How to play" page needs a Devanagari font to be drawn (and
# its screenshots looked at); without one Chromium draws empty boxes.
if ! fc-list :lang=hi 2>/dev/null | grep -q .; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-lohit-deva; } >/dev/null 2>&1 \
        || echo "browser tests: no Devanagari font (apt-get install fonts-lohit-deva); Hindi screenshots show boxes" >&2
fi
if ! python3 -c 'import playwright' 2>/dev/null; then
    python3 -m pip install -q playwright >/dev/null 2>&1 || fail "cannot pip install playwright"
fi
# The accessibility audit (tests/browser/test_look.py) runs axe-core from
# npm, kept under target/ (the test installs it itself when this cannot).
if [ ! -f target/axe/node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null; then
    npm install --silent --no-audit --no-fund --prefix target/axe axe-core >/dev/null 2>&1 \
        || echo "browser tests: cannot npm install axe-core; test_look.py will say so" >&2
fi
scripts/web/build.sh
export MOLLETT="${MOLLETT:-target/ci/mollett}"
[ -x "$MOLLETT" ] || fail "no engine at $MOLLETT (run cargo test --profile ci first)"
status=0
for t in tests/browser/test_*.py; do
    echo "== $t"
    python3 "$t" || status=1
done
exit $status
