#!/usr/bin/env python3
"""The board's game review (Review, the move list's marks, accuracy, Next
mistake, Practice, the loss graph) in Debian's headless Chromium, against
the native engine's `review` of the same moves: a WTHOR 2018 game reviewed
whole on the page, each move's class and loss equal to the native answer,
"next mistake" visiting every marked move in order, practice accepting a
best move and refusing a worse one, the review kept across a reload.

    MOLLETT=target/ci/mollett python3 tests/browser/test_review.py
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, Native, launch, serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
# The first game of WTHOR 2018 (Zhao Jing - Yamakawa Takashi), no passes.
GAME = ("f5f6e6f4e3c5c6d6e7f7c3c7g3e8b5a4g5b4f8c4d8d3b3f3d2h3e2g4f2d7c8g6a3b6h6h5a7"
        "a6a5c2d1g2h7h8h1g8g7b8h2e1f1b2b7g1a1a2h4a8c1b1")
DEPTH, EXACT = 10, 16  # the page's review depth (review.js, REVIEW)
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}

t = Failures()


def split(moves):
    return [moves[i:i + 2] for i in range(0, len(moves), 2)]


def native_reviews(native):
    """`review` of each move of GAME by the native engine, as the page asks it."""
    native.must("newgame modern")
    native.must("set_option book off")
    out = []
    for mv in split(GAME):
        if native.must("legal") == "pass":
            native.must("play pass")
        w = native.must(f"review {mv} {DEPTH} {EXACT}").split()
        pv = w[w.index("pv") + 1:w.index("values")]
        out.append({"move": w[0], "loss": float(w[4]), "cls": w[5], "best": w[2], "pv": pv})
        native.must(f"play {mv}")
    return out


def native_position_reviews(native, before):
    """Every legal move's review in the position after `before` moves."""
    native.must("newgame modern")
    for mv in before:
        native.must(f"play {mv}")
    legal = native.must("legal").split()
    out = {}
    for mv in legal:
        w = native.must(f"review {mv} {DEPTH} {EXACT}").split()
        out[mv] = float(w[3]) - float(w[1])
    return out


def current_ply(page):
    return page.evaluate("() => { const c = document.querySelector('.ply.current'); return c ? +c.dataset.ply : 0; }")


def main():
    if not os.path.isfile(os.path.join(SITE, "index.html")):
        print(f"FAIL no {SITE}/index.html: run scripts/web/build.sh first")
        sys.exit(1)
    native = Native(MOLLETT)
    want = native_reviews(native)
    base = serve(SITE)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}?human=both&moves={GAME}")
        page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=GAME,
                               timeout=60000)
        page.click("#review")
        # The page stays live while the Worker reviews: a script call answers.
        page.wait_for_selector('#review-status[data-state="reviewing"]', timeout=10000)
        t.check(page.evaluate("() => window.mollett.ping()") == "pong", "the page answers while it reviews")
        page.wait_for_selector('#review-status[data-state="reviewed"]', timeout=240000)
        got = page.evaluate("() => window.mollett.reviews")
        t.check(len(got) == len(want) and all(g is not None for g in got), "every move reviewed",
                f"{sum(g is not None for g in got)} of {len(want)}")
        same = [i + 1 for i, (g, w) in enumerate(zip(got, want))
                if g and (g["cls"] != w["cls"] or abs(g["loss"] - w["loss"]) > 1e-9 or g["best"] != w["best"])]
        t.check(want and len(got) == len(want) and not same,
                "each move's class, loss and best move equal the native engine's review", f"plies {same}")
        shown = page.eval_on_selector_all(".ply", "els => els.map(e => [e.textContent, e.dataset.class || ''])")
        marks_ok = all(text.endswith(w["move"] + MARKS.get(w["cls"], "")) and cls == w["cls"]
                       for (text, cls), w in zip(shown, want))
        t.check(want and len(shown) == len(want) and marks_ok, "the move list marks ?!, ? and ?? and colours each class",
                f"{len(shown)} plies shown of {len(want)}: {shown[:12]}")
        status = page.text_content("#review-status")
        t.check("Black: accuracy" in status and "White: accuracy" in status, "each side's accuracy is shown", status)
        page.check("#show-loss")
        try:  # drawn at the next animation frame
            page.wait_for_function("() => document.querySelectorAll('#graph .loss-black').length === 1", timeout=5000)
        except Exception:
            pass
        t.check(page.locator("#graph .loss-black").count() == 1 and page.locator("#graph .loss-second").count() == 1,
                "the graph draws each side's cumulative loss")

        # Next mistake: every marked move, in order, from the start.
        marked = [i + 1 for i, w in enumerate(want) if w["cls"] in MARKS]
        page.click("#first")
        visited = []
        for k in marked:
            page.keyboard.press("n")
            try:
                page.wait_for_selector(f'.ply.current[data-ply="{k}"]', timeout=5000)
            except Exception:
                pass
            visited.append(current_ply(page))
        t.check(marked and visited == marked, "'n' (next mistake) visits each marked move in order",
                f"{visited} != {marked}")
        page.click("#first")
        page.click("#next-mistake")
        page.wait_for_selector(f'.ply.current[data-ply="{marked[0]}"]', timeout=5000)
        t.check(current_ply(page) == marked[0], "the Next mistake button goes to the first one")
        status = page.text_content("#review-status")
        first = want[marked[0] - 1]
        t.check(len(first["pv"]) > 1 and f"Best line: {' '.join(first['pv'])}." in status,
                "a reviewed move shows the native engine's best line", f"{first['pv']} / {status}")
        every = status.split("Every move: ")[-1]
        t.check("Every move: " in status and every.startswith(first["best"] + " ") and f"{first['move']} " in every,
                "and every legal move's value, the best first", status)

        # Practice: the position before the first mistake; a worse move is
        # refused, the best accepted and the next mistake comes.
        page.click("#practice")
        page.wait_for_selector('#review-status[data-state="practice"]', timeout=10000)
        first = marked[0]
        losses = native_position_reviews(native, split(GAME)[:first - 1])
        best = min(losses, key=lambda m: losses[m])
        worse = max(losses, key=lambda m: losses[m])
        t.check(losses[worse] > 0.5, "the first mistake's position has a clearly worse move", str(losses))
        page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t",
                               arg="".join(split(GAME)[:first - 1]), timeout=10000)
        page.click(f'[data-square="{worse}"]')
        page.wait_for_selector('#review-status[data-result="worse"]', timeout=60000)
        t.check(f"{worse} loses" in page.text_content("#review-status"), "practice refuses a worse move",
                page.text_content("#review-status"))
        page.click(f'[data-square="{best}"]')
        page.wait_for_function(
            "(sq) => (document.querySelector('#review-status').textContent + document.querySelector('#message').textContent)"
            ".includes(sq + ' is as good as the best')", arg=best, timeout=60000)
        t.check(True, "practice accepts the best move")
        if len(marked) > 1:
            page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t",
                                   arg="".join(split(GAME)[:marked[1] - 1]), timeout=10000)
            t.check(True, "practice then puts the player at the next mistake")

        # The review is kept: the same address again has it, without a search.
        page.goto(f"{base}?human=both&moves={GAME}")
        page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=GAME,
                               timeout=60000)
        page.wait_for_selector('#review-status[data-state="reviewed"]', timeout=10000)
        again = page.evaluate("() => window.mollett.reviews")
        t.check([g and g["cls"] for g in again] == [w["cls"] for w in want], "the review survives a reload")

        # GGF out: a record `mollett analyze` reads, whose review at the
        # page's depth is the page's; GGF in: a fresh browser (nothing kept)
        # shows the file's values and marked moves.
        with page.expect_download() as d:
            page.click("#download-ggf")
        ggf_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"review-{os.getpid()}.ggf")
        d.value.save_as(ggf_path)
        ggf_text = open(ggf_path).read()
        out = subprocess.run([MOLLETT, "analyze", ggf_path, "--depth", str(DEPTH), "--exact", str(EXACT), "--json",
                              "--quiet"], capture_output=True, text=True)
        # The moves' lines (each game's facts come first, "kind": "game").
        rows = [r for r in map(json.loads, out.stdout.splitlines()) if r.get("kind") != "game"]
        # mollett analyze keeps one table for a whole game (docs/analyze.md),
        # the page's review one for each move: their estimates may differ a
        # little, their exact values (the last EXACT moves) may not.
        exact = [r for r in rows if r["exact"]]
        t.check(out.returncode == 0 and [r["move"] for r in rows] == [w["move"] for w in want]
                and len(exact) == EXACT and [r["class"] for r in exact] == [w["cls"] for w in want[-EXACT:]],
                "the downloaded GGF is a game mollett analyze reads, its exact moves reviewed alike",
                out.stderr[-300:] + str([(r["move"], r["class"]) for r in exact]))
        values = [r["value"] for r in exact]
        t.check(all(f"/{v:g}]" in ggf_text or f"/{v}]" in ggf_text for v in values[:10]),
                "the GGF holds each move's value", ggf_text[:300])
        ctx = browser.new_context()
        fresh = ctx.new_page()
        fresh.goto(f"{base}?human=both")
        fresh.wait_for_selector('#status[data-state="human-to-move"]', timeout=60000)
        fresh.fill("#paste", ggf_text)
        fresh.click("#load")
        fresh.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=GAME,
                                timeout=60000)
        fresh.wait_for_function("() => document.querySelector('#review-status').textContent.includes('From the file')",
                                timeout=10000)
        shown = fresh.eval_on_selector_all(".ply", "els => els.map(e => e.dataset.class || '')")
        t.check(shown == [w["cls"] if w["cls"] in MARKS else "" for w in want],
                "a GGF loaded on a fresh board shows its marked moves", str(shown))
        t.check(fresh.evaluate("() => +document.querySelector('#graph').dataset.points") >= len(want) // 2,
                "and its values on the graph")
        ctx.close()
        t.check(not errors, "no errors on the page", str(errors))
        browser.close()
    native.close()
    t.exit()


if __name__ == "__main__":
    main()
