#!/usr/bin/env python3
"""What a visit to the board page costs, through mollett-server serving
target/web (tests/browser/visits.py): for each run a fresh headless
Chromium context, timed from navigation to the first legal square, its bytes
then and once the modern engine's data is had, the server's CPU time for
that visit, then a second visit in the same context (its cache).

    python3 scripts/web/load_time.py [runs]

MOLLETT_SERVER names the server binary (default target/release/, else
target/ci/mollett-server); MOLLETT_WEB the site (default target/web).
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "browser"))
from pagecheck import launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from visits import Server, server_binary, visit  # noqa: E402

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
server = Server(release_first=True)
print(f"server {server_binary(release_first=True)}, site {os.environ.get('MOLLETT_WEB', 'target/web')}", file=sys.stderr)
rows = []
try:
    with sync_playwright() as p:
        browser = launch(p)
        for i in range(runs):
            ctx = browser.new_context()
            cpu = server.cpu()
            first = visit(ctx, server.base)
            cpu = server.cpu() - cpu
            second = visit(ctx, server.base)
            ctx.close()
            # What the board needs to be playable: all but the data files,
            # which it fetches from its first position on (by the first
            # legal square some of them may have come: `playable`).
            code = sum(f[0] for u, f in first["files"].items() if "/data/" not in u)
            rows.append((first["secs"], code, first["total"], cpu, second["secs"], second["total"]))
            print(f"run {i + 1}: first visit playable in {first['secs']:.2f} s, {code / 1e6:.2f} MB without the "
                  f"engine's data ({first['playable'] / 1e6:.2f} MB had come by then), {first['total'] / 1e6:.2f} MB "
                  f"with it, server CPU {cpu * 1000:.0f} ms; second visit playable in {second['secs']:.2f} s, "
                  f"{second['total'] / 1e3:.1f} KB")
        browser.close()
finally:
    server.stop()
med = [statistics.median(c) for c in zip(*rows)]
print(f"median of {runs}: first visit playable in {med[0]:.2f} s, {med[1] / 1e6:.2f} MB without the engine's data, "
      f"{med[2] / 1e6:.2f} MB with it, server CPU {med[3] * 1000:.0f} ms; second visit playable in {med[4]:.2f} s, "
      f"{med[5] / 1e3:.1f} KB")
