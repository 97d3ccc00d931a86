#!/usr/bin/env python3
"""What a visit to the board costs (issue 78), through mollett-server serving
target/web as deployed: a first visit transfers at most 5 MB before the
first legal square can be clicked, and at most 5 MB with the modern
engine's data had too; a second visit at most 0.3 MB, every hashed file from
the cache. The engine's module comes as the build's brotli copy with a
year's caching, the page revalidated, and the classic data not at all.
Timing is scripts/web/load_time.py's (BENCHMARKS.md), not a test's.

    MOLLETT_WEB=target/web python3 tests/browser/test_load.py
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import Failures, launch  # noqa: E402
from visits import SITE, Server, visit  # noqa: E402

MB = 1e6
t = Failures()


def main():
    from playwright.sync_api import sync_playwright
    if not os.path.isfile(os.path.join(SITE, "index.html")):
        print(f"FAIL no {SITE}/index.html: run scripts/web/build.sh first")
        sys.exit(1)
    server = Server()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            context = browser.new_context()
            first = visit(context, server.base)
            t.check(first["playable"] <= 5 * MB, "a first visit transfers at most 5 MB before it is playable",
                    f"{first['playable'] / MB:.2f} MB")
            t.check(first["total"] <= 5 * MB, "and at most 5 MB with the modern engine's data",
                    f"{first['total'] / MB:.2f} MB")
            files = first["files"]
            wasm = [f for u, f in files.items() if u.endswith(".wasm")]
            t.check(len(wasm) == 1 and wasm[0][2] == "br" and wasm[0][3] == "public, max-age=31536000, immutable",
                    "the engine's module: its brotli copy, cached a year", str(wasm))
            page = files.get(server.base)
            t.check(page is not None and page[3] == "no-cache", "the page is revalidated", str(page))
            t.check(not any("/data/classic-" in u for u in files), "a modern visit fetches no classic data",
                    str([u for u in files if "/data/" in u]))
            second = visit(context, server.base)
            t.check(second["total"] <= 0.3 * MB, "a second visit transfers at most 0.3 MB",
                    f"{second['total'] / MB:.3f} MB: {[(u, f[0]) for u, f in second['files'].items() if f[0]]}")
            browser.close()
    finally:
        server.stop()
    t.exit()


if __name__ == "__main__":
    main()
