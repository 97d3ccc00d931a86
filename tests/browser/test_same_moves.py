#!/usr/bin/env python3
"""The browser build's engine (target/web/mollett.wasm, from scripts/web/build.sh)
plays the native engine's moves: a game in each rule set at level 8, book
off, every ply's move, value and board compared, after the book's values
at the start (the weights and books are not in mollett.wasm: the engine
gets them on first use, src/engine/data.rs) (scripts/web/same_moves.mjs,
in Node's V8, the WebAssembly engine of Chromium). The vector kernels of
the browser build (src/rules/lanes.rs) stand or fall here and in `bench`'s
node count.

    MOLLETT=target/ci/mollett python3 tests/browser/test_same_moves.py
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))

t = Failures()


def node():
    """Node from PATH, else the one Playwright for Python ships for its driver."""
    found = shutil.which("node")
    if found:
        return found
    import playwright
    return os.path.join(os.path.dirname(playwright.__file__), "driver", "node")


def main():
    wasm = os.path.join(SITE, "mollett.wasm")
    if not os.path.isfile(wasm):
        print(f"FAIL no {wasm}: run scripts/web/build.sh first")
        sys.exit(1)
    run = subprocess.run([node(), os.path.join(ROOT, "scripts", "web", "same_moves.mjs"), wasm, MOLLETT, "8"],
                         capture_output=True, text=True, timeout=600)
    lines = run.stdout.splitlines()
    for variant in ("modern", "classic"):
        line = next((x for x in lines if x.split()[1:2] in ([variant + ":"], [variant])), "")
        t.check(line.startswith("ok "), f"{variant}: the browser engine plays native's moves ply by ply at level 8",
                line or run.stderr[-2000:])
    t.check(run.returncode == 0, "same_moves.mjs exits 0", run.stdout[-2000:] + run.stderr[-2000:])
    t.exit()


if __name__ == "__main__":
    main()
