#!/usr/bin/env python3
"""What the board page loads before the first move can be played, and how
long that takes: scripts/web/serve.py (gzip) on 127.0.0.1, a fresh headless
Chromium context each time, timed from navigation to the first legal square.

    python3 scripts/web/load_time.py [runs]
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "browser"))
from pagecheck import ROOT, launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
port = "8791"
server = subprocess.Popen([sys.executable, os.path.join(ROOT, "scripts", "web", "serve.py"), "--port", port],
                          stderr=subprocess.DEVNULL)
time.sleep(0.5)
try:
    with sync_playwright() as p:
        browser = launch(p)
        for i in range(runs):
            ctx = browser.new_context()
            page = ctx.new_page()
            sizes = {}
            page.on("response", lambda r: sizes.__setitem__(r.url, int(r.headers.get("content-length", 0))))
            start = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("[data-legal]", timeout=30000)
            secs = time.perf_counter() - start
            print(f"run {i + 1}: playable in {secs:.2f} s, {sum(sizes.values()) / 1e6:.2f} MB transferred "
                  f"({len(sizes)} files)")
            ctx.close()
        browser.close()
finally:
    server.terminate()
