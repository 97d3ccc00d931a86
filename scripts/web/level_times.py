#!/usr/bin/env python3
"""How long the board page's engine takes a move at each level, measured
in Debian's headless Chromium on the page's own Worker: the mean seconds of
`reg_genmove` over six positions of a WTHOR 2018 game (40 to 10 empties),
with each level's time cap as the page sets it (board/ops.js). Prints one
line per level; the table in board/settings.js (LEVEL_ABOUT) is written from it.

    MOLLETT_WEB=target/web python3 scripts/web/level_times.py [FIRST LAST]
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "browser"))
from pagecheck import ROOT, launch, serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
# The first game of WTHOR 2018 (test_review.py's), no passes.
GAME = ("f5f6e6f4e3c5c6d6e7f7c3c7g3e8b5a4g5b4f8c4d8d3b3f3d2h3e2g4f2d7c8g6a3b6h6h5a7"
        "a6a5c2d1g2h7h8h1g8g7b8h2e1f1b2b7g1a1a2h4a8c1b1")
PLIES = (20, 26, 32, 38, 44, 50)

MEASURE = """async ([moves, plies, first, last]) => {
  const { Engine } = await import('./shared/engine.js');
  const { levelSeconds } = await import('./board/ops.js');
  // One Worker for all the levels, warmed up by a first search (its
  // tables are set up then), as the page's is after its first move.
  window.measuring ||= new Engine(await Engine.load('mollett.wasm'));
  const engine = window.measuring;
  await engine.ready;
  await engine.command('newgame modern');
  await engine.command('set_option level 1');
  await engine.command('reg_genmove');
  const out = [];
  for (let level = first; level <= last; level++) {
    const secs = [];
    for (const ply of plies) {
      await engine.command('newgame modern');
      for (let i = 0; i < ply; i++) await engine.command('play ' + moves.slice(2 * i, 2 * i + 2));
      await engine.command('set_option level ' + level);
      await engine.command('set_option movetime ' + levelSeconds(level) * 1000);
      const start = performance.now();
      await engine.command('reg_genmove');
      secs.push((performance.now() - start) / 1000);
    }
    out.push({ level, cap: levelSeconds(level), secs });
  }
  return out;
}"""


def main():
    first, last = (int(a) for a in sys.argv[1:3]) if len(sys.argv) >= 3 else (1, 20)
    base = serve(SITE)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(f"{base}?human=both")
        page.set_default_timeout(0)
        for level in range(first, last + 1):
            (row,) = page.evaluate(MEASURE, [GAME, list(PLIES), level, level])
            mean = sum(row["secs"]) / len(row["secs"])
            print(json.dumps({"level": level, "cap": row["cap"], "mean": round(mean, 2),
                              "max": round(max(row["secs"]), 2), "secs": [round(s, 2) for s in row["secs"]]}),
                  flush=True)
        browser.close()


if __name__ == "__main__":
    main()
