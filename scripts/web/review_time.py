#!/usr/bin/env python3
"""How long the board page takes to review a whole game (the Review button,
docs/web.md): the first game of WTHOR 2018, 60 moves, in a fresh headless
Chromium page each run (no review kept from before), timed from the click
to the last move's review. Serves target/web/ on 127.0.0.1.

    python3 scripts/web/review_time.py [runs]
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "browser"))
from pagecheck import ROOT, launch, serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

GAME = ("f5f6e6f4e3c5c6d6e7f7c3c7g3e8b5a4g5b4f8c4d8d3b3f3d2h3e2g4f2d7c8g6a3b6h6h5a7"
        "a6a5c2d1g2h7h8h1g8g7b8h2e1f1b2b7g1a1a2h4a8c1b1")
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
base = serve(os.path.join(ROOT, "target", "web"))
with sync_playwright() as p:
    browser = launch(p)
    for _ in range(runs):
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(f"{base}?human=both&moves={GAME}")
        page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=GAME,
                               timeout=60000)
        page.wait_for_timeout(3000)  # the graph's own searches end first
        start = time.perf_counter()
        page.click("#review")
        page.wait_for_selector('#review-status[data-state="reviewed"]', timeout=300000)
        print(f"review of {len(GAME) // 2} moves: {time.perf_counter() - start:.2f} s", flush=True)
        ctx.close()
    browser.close()
