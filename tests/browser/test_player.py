#!/usr/bin/env python3
"""What a player still met on the board page (issue 68), in Debian's
headless Chromium: Back (the browser's, ◀, ←) against the engine steps back
and stays there; Edit board keeps the side to move and a load leaves Edit
mode; on a phone the board, the status and ◀ ▶ are on the first screen,
portrait and landscape; practice hints before it answers; the review's
losses agree with its values; the graph has a legend and whole-disc
scale; every legal square has a value with hints on; no engine line or
value while playing it with hints off.

    MOLLETT=target/ci/mollett python3 tests/browser/test_player.py [check ...]
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, Native, run_checks, serve  # noqa: E402
from test_board import LEVEL_POSITION, native_after, open_page, same_board, settle, view, wait_ready  # noqa: E402
from test_review import GAME, DEPTH, EXACT, split  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))

t = Failures()


def plies(page):
    """The plies of the move list (the line shown), the current one, the state."""
    return page.evaluate("""() => ({
        n: document.querySelectorAll('.ply').length,
        at: +(document.querySelector('.ply.current') || {dataset: {ply: 0}}).dataset.ply,
        state: document.querySelector('#status').dataset.state})""")


def play_engine(page, moves):
    """Plays `moves` moves for black against the engine (its first legal
    square each time), each answered by the engine."""
    for k in range(1, moves + 1):
        page.click(f'[data-square="{view(page)["legal"][0]}"]')
        page.wait_for_function(
            "(n) => document.querySelectorAll('.ply').length === n && "
            "document.querySelector('#status').dataset.state === 'human-to-move'", arg=2 * k, timeout=30000)


def back_against_engine(browser, base):
    """Back (the browser's, then ◀ and ←) at level 6 steps one ply back and
    stays: the engine does not play again, the line stays whole, Forward
    returns; Move now has it play where it waits."""
    ctx, page = open_page(browser, base, "?human=black&level=6&variant=modern")
    wait_ready(page)
    play_engine(page, 3)
    line = page.evaluate("() => [...document.querySelectorAll('.ply')].map((p) => p.textContent).join(' ')")
    page.go_back()
    page.wait_for_timeout(1500)  # the engine replayed within 50 ms before
    p = plies(page)
    t.check(p["at"] == 5 and p["n"] == 6 and p["state"] == "engine-to-move",
            "browser Back against the engine: ply 5 of 6, the engine waits and plays nothing", str(p))
    page.go_forward()
    settle(page)
    p = plies(page)
    after = page.evaluate("() => [...document.querySelectorAll('.ply')].map((p) => p.textContent).join(' ')")
    t.check(p["at"] == 6 and p["state"] == "human-to-move" and after == line,
            "Forward returns to the same game", f"{p} {after} / {line}")
    page.go_back()
    page.wait_for_timeout(300)
    page.go_back()
    page.wait_for_timeout(1500)
    p = plies(page)
    t.check(p["at"] == 4 and p["n"] == 6 and p["state"] == "human-to-move",
            "Back twice: the player's ply before, the line kept", str(p))
    page.go_forward()
    page.wait_for_timeout(300)
    page.go_forward()
    settle(page)
    t.check(plies(page)["at"] == 6, "Forward twice: back at the end", str(plies(page)))
    page.click("#back")
    page.wait_for_timeout(1500)
    p = plies(page)
    t.check(p["at"] == 5 and p["n"] == 6 and p["state"] == "engine-to-move",
            "◀ against the engine: one ply back, the engine waits", str(p))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(1500)
    p = plies(page)
    t.check(p["at"] == 3 and p["n"] == 6 and p["state"] == "engine-to-move",
            "← twice: ply 3, the engine waits", str(p))
    page.click("#move-now")
    page.wait_for_function("() => document.querySelector('#status').dataset.state === 'human-to-move' && "
                           "document.querySelector('.ply.current').dataset.ply === '4'", timeout=30000)
    t.check(True, "Move now has the engine play where it waited")
    t.check(not page.errors, "no page errors", "; ".join(page.errors))
    ctx.close()


def edit_board(browser, base):
    """Edit board starts from the side to move of the position edited, the
    player may change it, and a load or a new game leaves Edit mode."""
    ctx, page = open_page(browser, base, "?human=both&moves=f5")
    wait_ready(page)
    page.click("#edit")
    # Drawn at the next animation frame.
    page.wait_for_function("() => document.querySelector('#setup-side').value === 'O'", timeout=5000)
    t.check(page.input_value("#setup-side") == "O", "Edit board after f5: white to move", page.input_value("#setup-side"))
    page.click("#setup-done")
    page.wait_for_selector('#status[data-state="human-to-move"]', timeout=20000)
    v = view(page)
    t.check(v["obf"].split()[1] == "O" and "White" in v["status"],
            "Done keeps white to move", f"{v['obf']} / {v['status']}")
    page.click("#edit")
    page.select_option("#setup-side", "X")
    page.click("#setup-done")
    page.wait_for_function("() => document.querySelector('#obf').textContent.split(' ')[1] === 'X'", timeout=20000)
    t.check(True, "the side chosen is the side to move")
    page.click("#edit")
    try:  # drawn at the next animation frame
        page.wait_for_function("() => !document.querySelector('#setup-panel').hidden", timeout=5000)
    except Exception:  # noqa: BLE001 - the check below says what is wrong
        pass
    t.check(page.input_value("#setup-side") == "X", "and Edit board again starts from it", page.input_value("#setup-side"))
    page.click('[data-square="a1"]')  # a black disc on a1, edited
    # The status counts the board being edited, a1's disc included (read
    # once the next frame has drawn it).
    page.wait_for_function("() => document.querySelector('[data-square=\"a1\"]').dataset.disc", timeout=5000)
    v = view(page)
    b, w = (sum(c == colour for c in v["discs"].values()) for colour in ("black", "white"))
    t.check(f"Black {b}, white {w}." in v["status"] and "a1" in v["discs"],
            f"Edit board: the status counts the edited board (black {b}, white {w})", v["status"])
    page.fill("#paste", "f5d6c3")
    page.click("#load")
    page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5d6c3'", timeout=20000)
    wait_ready(page)
    show, _ = native_after(["f5", "d6", "c3"])
    v = view(page)
    t.check(same_board(v, show) and v["state"] == "human-to-move" and page.is_hidden("#setup-panel"),
            "a transcript loaded while editing leaves Edit mode and shows the game loaded", f"{v['state']} {v['discs']}")
    page.click("#edit")
    page.click('[data-square="a1"]')
    position = "-" * 27 + "OX------XO" + "-" * 27 + " O"
    page.fill("#paste", position)
    page.click("#load")
    page.wait_for_function("(p) => document.querySelector('#obf').textContent === p", arg=position, timeout=20000)
    wait_ready(page)
    v = view(page)
    t.check("a1" not in v["discs"] and v["state"] == "human-to-move" and page.is_hidden("#setup-panel"),
            "a position loaded while editing leaves Edit mode and shows it", f"{v['state']} {v['discs']}")
    page.click("#edit")
    page.click('[data-square="a1"]')
    page.click("#new-modern")
    wait_ready(page)
    v = view(page)
    t.check(len(v["discs"]) == 4 and page.is_hidden("#setup-panel"), "New game while editing shows the new game",
            str(v["discs"]))
    t.check(not page.errors, "no page errors", "; ".join(page.errors))
    ctx.close()


def inside(box, w, h):
    return box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= w and box["y"] + box["height"] <= h


# A classic game to the full board (random moves, no pass): red wins 34-30,
# both hands empty.
CLASSIC_FULL = ("e5e4d4d5d6c6c5e6c7c4f5g4f3e3b3b4f7c8h3g5d3e7f4g7g6g3d7b2h7e8h4c3h2g8b8a8b5g2b1a2b7b6h6a1a5"
                "a6e2f1f8a4g1h1h8f2d2d8a3h5f6c1d1c2a7e1")


def first_screen(browser, base):
    """The board, the status and ◀ ▶ on the first screen at desktop, phone
    portrait (navigation under the board) and landscape (board and
    controls side by side), light and dark. Landscape shows the longest
    status there is beside two clocks: a classic game ended on a full
    board, which says so (not that black ran out of discs)."""
    for (w, h), name in (((1366, 900), "desktop"), ((390, 844), "portrait"), ((844, 390), "landscape")):
        for scheme in ("light", "dark"):
            mobile = name != "desktop"
            ctx = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme,
                                      is_mobile=mobile, has_touch=mobile)
            page = ctx.new_page()
            if name == "landscape":
                page.goto(f"{base}?human=black&variant=classic&clock=300+3&moves={CLASSIC_FULL}")
                page.wait_for_selector('#status[data-state="game-over"]', timeout=60000)
                said = page.text_content("#status")
                t.check("Red wins 34-30" in said and "The board is full." in said and "ran out" not in said
                        and page.is_visible("#clocks"),
                        f"landscape {scheme}: a classic game ended on a full board says so, with the result", said)
            else:
                page.goto(f"{base}?human=black&moves=f5d6c3d3c4f4")
                wait_ready(page)
            boxes = {sel: page.locator(sel).bounding_box() for sel in ("#board", "#status", "#back", "#forward")}
            out = [sel for sel, b in boxes.items() if not inside(b, w, h)]
            t.check(not out, f"{name} {w}x{h} {scheme}: board, status, ◀ and ▶ within the first screen",
                    " ".join(f"{s}={boxes[s]}" for s in out))
            wide = page.evaluate("document.documentElement.scrollWidth")
            t.check(wide <= w, f"{name} {scheme}: nothing wider than the screen", str(wide))
            board, back, side = boxes["#board"], boxes["#back"], page.locator("#side").bounding_box()
            if name == "portrait":
                gap = back["y"] - (board["y"] + board["height"])
                t.check(0 <= gap <= 60, "portrait: the navigation right under the board", f"{gap:.0f} px below")
            if name == "landscape":
                t.check(side["x"] >= board["x"] + board["width"] and side["y"] < board["y"] + board["height"],
                        "landscape: the controls beside the board", f"{board} {side}")
                page.screenshot(path=os.path.join(ROOT, "target", "web-shots", f"board-landscape-{scheme}.png"))
            ctx.close()


def review_page(browser, base):
    ctx, page = open_page(browser, base, f"?human=both&moves={GAME}")
    page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=GAME, timeout=60000)
    wait_ready(page)
    page.click("#review")
    page.wait_for_selector('#review-status[data-state="reviewed"]', timeout=240000)
    return ctx, page


def review_figures(browser, base):
    """Each marked move's loss is its best value less its value as both are
    shown; the loss graph has a legend; the scale says whole discs."""
    # The game has moves whose unrounded loss is not what the rounded
    # values give ("c7 0 ... 3.5 discs lost; best e3 +3" before): the check
    # below can fail.
    native = Native(MOLLETT)
    native.must("newgame modern")
    native.must("set_option book off")
    disagree = 0
    for mv in split(GAME):
        w = native.must(f"review {mv} {DEPTH} {EXACT}").split()
        if float(w[4]) > 0 and round(float(w[4]), 1) != round(float(w[3])) - round(float(w[1])):
            disagree += 1
        native.must(f"play {mv}")
    native.close()
    t.check(disagree > 0, "the game has losses its rounded values disagree with", str(disagree))
    ctx, page = review_page(browser, base)
    bad = []
    shown = 0
    by_class = {}  # the losses shown, by class
    shifted, unexplained = [], []  # classes moved by winning chances; a reason said where none was
    for k in range(1, len(GAME) // 2 + 1):
        page.click(f'.ply[data-ply="{k}"]')
        page.wait_for_selector(f'.ply.current[data-ply="{k}"]', timeout=5000)
        text = page.text_content("#review-status")
        m = re.search(r"(\S+?)(\?\?|\?!|\?)? ([+-]?\d+(?:\.\d)?): ([^,]+), (\d+(?:\.\d)?) discs? lost; best (\S+) ([+-]?\d+(?:\.\d)?)", text)
        if not m:
            continue
        shown += 1
        by_class.setdefault(m.group(4), set()).add(m.group(5))
        # A class other than the discs' alone (2, 4, 8) says why.
        loss_shown = float(m.group(5))
        by_discs = "blunder" if loss_shown >= 8 else "mistake" if loss_shown >= 4 else "inaccuracy" if loss_shown >= 2 else "good"
        order = ["good", "inaccuracy", "mistake", "blunder"]
        said = ("raised" if "result it puts at risk" in text else "lowered" if "result stands" in text else None)
        if m.group(4) in order and order.index(m.group(4)) != order.index(by_discs):
            up = order.index(m.group(4)) > order.index(by_discs)
            shifted.append((m.group(0), said if said == ("raised" if up else "lowered") else None))
        elif said:
            unexplained.append(m.group(0))
        value, loss, best = float(m.group(3)), float(m.group(5)), float(m.group(7))
        # ... and "1 disc", not "1 discs".
        if abs(best - value - loss) > 1e-9 or (m.group(5) == "1") != (" disc lost" in m.group(0)):
            bad.append(m.group(0))
    t.check(shown > 10 and not bad, "every loss shown is the best value less the value, as shown",
            f"{shown} shown; " + "; ".join(bad[:4]))
    # The classes go by discs (2 lost is an inaccuracy, 4 a mistake, 8 a
    # blunder), moved by winning chances (docs/analyze.md): a loss shown
    # from 2 discs is never "good", and a move marked other than its discs
    # say (near the result's edge, or with the result decided) says why,
    # in the right direction; no other move says so.
    good = by_class.get("good", set())
    t.check(all(float(x) < 2 for x in good), "no loss shown from 2 discs is good", str(by_class))
    wrong = [(g, s) for g, s in shifted if s is None]
    t.check(shifted and not wrong and not unexplained,
            f"a class moved from its discs' says why, and only then ({len(shifted)} moved)",
            f"{len(shifted)} moved; unsaid: {wrong[:3]}; said without a move: {unexplained[:3]}")
    # One value per ply: the graph's point of each reviewed move is the
    # review's value, and says what it is (the review's depth, or exact).
    wrong = page.evaluate("""() => {
        const reviews = window.mollett.reviews, wrong = [];
        reviews.forEach((r, k) => {
            if (!r) return;
            const dot = document.querySelector(`#graph circle[data-ply="${k + 1}"]`);
            const black = r.side === 'black' ? r.value : -r.value;
            const kind = r.exact ? 'exact' : `depth ${r.depth}`;
            const m = dot && /: ([+-]?[\\d.]+) \\((.*)\\)$/.exec(dot.textContent);
            if (!m || m[2] !== kind || Math.abs(+m[1] - black) > 0.5) wrong.push([k + 1, dot && dot.textContent, black, kind]);
        });
        return wrong;
    }""")
    t.check(not wrong, "each reviewed ply's graph point is the review's value and says its depth or exact", str(wrong[:4]))
    # ... and with hints on, the squares show the review's values of the
    # moves there (not the hints' own search), and say so; a move more than
    # 8 discs below the best has the review's bound, shown as one ("≤-15").
    page.check("#hints")
    page.click('.ply[data-ply="20"]')
    page.wait_for_function("""() => window.mollett.ply === 20 && document.querySelectorAll('[data-legal]').length > 0
        && [...document.querySelectorAll('[data-legal]')].every((e) => e.dataset.value)""", timeout=30000)
    hv = page.evaluate("""() => ({
        squares: Object.fromEntries([...document.querySelectorAll('[data-legal]')].map((e) => [e.dataset.square,
            [e.dataset.value, e.querySelector('.value').textContent]])),
        review: window.mollett.reviews[20].values,
        source: document.querySelector('#hint-info').dataset.source})""")
    want = {m: [("≤" if bound[:1] == [True] else "") + f"{v:g}", ("≤" if bound[:1] == [True] else "")]
            for m, v, *bound in hv["review"]}
    shown = {sq: [data, text[:1] if text[:1] == "≤" else ""] for sq, (data, text) in hv["squares"].items()}
    t.check(shown == want and hv["source"] == "review",
            "hints on at a reviewed ply: each square's value is the review's", str(hv))
    t.check(any(b[:1] == [True] for _, _, *b in hv["review"]) and any(not b for _, _, *b in hv["review"][1:]),
            "that review has values and bounds (moves more than 8 discs below the best)", str(hv["review"]))
    page.uncheck("#hints")
    page.check("#show-loss")
    page.wait_for_function("() => document.querySelectorAll('#graph-legend .key').length === 3", timeout=2000)
    legend = page.evaluate("() => [...document.querySelectorAll('#graph-legend .key')].map((k) => [k.dataset.line, k.textContent])")
    lines = [k for k, _ in legend]
    t.check(lines == ["eval", "loss-black", "loss-second"] and all(text.strip() for _, text in legend),
            "the loss graph has a legend: the evaluation and each side's losses", str(legend))
    labels = page.evaluate("() => [...document.querySelectorAll('#graph text.label')].map((l) => l.textContent)")
    scale = [l for l in labels if re.search(r"[+-]\d", l)]
    t.check(scale and all(re.search(r"[+-]\d+$", l) for l in scale[:2]),
            "the graph's scale is labelled in whole discs", str(labels))
    page.uncheck("#show-loss")
    # The page draws at the next animation frame (ctrl.js's redraw).
    page.wait_for_function("() => document.querySelectorAll('#graph-legend .key').length === 1", timeout=2000)
    legend = page.evaluate("() => [...document.querySelectorAll('#graph-legend .key')].map((k) => k.dataset.line)")
    t.check(legend == ["eval"], "without Loss graph the legend names the evaluation alone", str(legend))
    t.check(not page.errors, "no page errors", "; ".join(page.errors))
    ctx.close()


def practice_hints(browser, base):
    """Practice: a wrong try gets where the best move is (a corner, an edge,
    a quarter), not the move; a second wrong try gets the move."""
    ctx, page = review_page(browser, base)
    page.click("#practice")
    page.wait_for_selector('#review-status[data-state="practice"]', timeout=10000)
    settle(page)
    mistake = page.evaluate("() => { const r = window.mollett.reviews; const n = window.mollett.ply; return r[n]; }")
    wrong, best = mistake["move"], mistake["best"]
    page.click(f'[data-square="{wrong}"]')
    page.wait_for_selector('#review-status[data-result="worse"]', timeout=60000)
    first = page.text_content("#review-status")
    t.check(f"{wrong} loses" in first and "hint" in first and not re.search(rf"\b{best}\b", first),
            f"a first wrong try ({wrong}) gets a hint, not the best move ({best})", first)
    where = re.search(r"best move is (in a corner|on the edge (\w\d)–(\w\d)|in the quarter (\w\d)–(\w\d))", first)
    ok = False
    if where:
        f, r = best[0], int(best[1])
        if where.group(1) == "in a corner":
            ok = f in "ah" and r in (1, 8)
        elif where.group(2):
            a, b = where.group(2), where.group(3)
            ok = (a[0] == b[0] == f) or (a[1] == b[1] == str(r))
        else:
            a, b = where.group(4), where.group(5)
            ok = a[0] <= f <= b[0] and int(a[1]) <= r <= int(b[1])
    t.check(ok, f"the hint's region holds the best move {best}", first)
    page.evaluate("() => { document.querySelector('#review-status').dataset.result = ''; }")
    page.click(f'[data-square="{wrong}"]')
    page.wait_for_function("(b) => document.querySelector('#review-status').dataset.result === 'worse' && "
                           "document.querySelector('#review-status').textContent.includes(b)", arg=best, timeout=60000)
    t.check(True, "a second wrong try gets the best move")
    page.click(f'[data-square="{best}"]')
    page.wait_for_function("(sq) => (document.querySelector('#review-status').textContent + "
                           "document.querySelector('#message').textContent).includes(sq + ' is as good')",
                           arg=best, timeout=60000)
    t.check(True, "the best move is accepted")
    t.check(not page.errors, "no page errors", "; ".join(page.errors))
    ctx.close()


def every_legal_square_valued(browser, base):
    """With hints on, in a position the book holds with only some of the
    legal moves (d3 c3 b3 d2: 4 of 8), every legal square has a value."""
    native = Native(MOLLETT)
    native.must("newgame modern")
    for mv in ("d3", "c3", "b3", "d2"):
        native.must(f"play {mv}")
    legal = sorted(native.must("legal").split())
    book = [line.split()[0] for line in native.must("hint 64").split("\n") if line.endswith("book")]
    native.close()
    t.check(0 < len(book) < len(legal), "the book holds d3c3b3d2 with some of its moves only", f"{book} of {legal}")
    ctx, page = open_page(browser, base, "?human=both&hints=1&moves=d3c3b3d2")
    wait_ready(page)
    try:
        page.wait_for_function("(n) => document.querySelectorAll('[data-legal][data-value]').length === n",
                               arg=len(legal), timeout=30000)
    except Exception:  # noqa: BLE001  the check says what is missing
        pass
    v = view(page)
    t.check(v["legal"] == legal and sorted(v["values"]) == legal,
            "every legal square has a value, not a dot alone", f"values on {sorted(v['values'])} of {v['legal']}")
    kinds = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('[data-legal]')].map((e) => [e.dataset.square, e.dataset.kind]))")
    t.check(all(kinds[m] == "book" for m in book), "the book's moves keep the book's values", str(kinds))
    t.check(not page.errors, "no page errors", "; ".join(page.errors))
    ctx.close()


def no_spoiler(browser, base):
    """Playing the engine with hints off, the thinking line has the clock
    but not the engine's line or value; with hints on it has them."""
    for hints in ("0", "1"):
        # Level 18 at 36 empties thinks for seconds, its steps reported.
        ctx, page = open_page(browser, base, f"?human=white&level=18&hints={hints}&moves={LEVEL_POSITION}")
        page.wait_for_selector('#status[data-state="engine-thinking"]', timeout=60000)
        seen = set()
        for _ in range(30):
            seen.add(page.text_content("#thinking"))
            if page.locator('#status[data-state="human-to-move"]').count():
                break
            page.wait_for_timeout(200)
        spoilers = [s for s in seen if re.search(r"depth|exact|[+-]\d|\b[a-h][1-8]\b", s)]
        if hints == "0":
            t.check(not spoilers and any(re.search(r"\d+ s", s) for s in seen),
                    "hints off against the engine: the clock, no line or value", "; ".join(spoilers[:3]))
        else:
            t.check(bool(spoilers), "hints on: the engine's line and value show while it thinks", "; ".join(seen))
        ctx.close()


def main():
    if not os.path.isfile(os.path.join(SITE, "index.html")):
        print(f"FAIL no {SITE}/index.html: run scripts/web/build.sh first")
        sys.exit(1)
    os.makedirs(os.path.join(ROOT, "target", "web-shots"), exist_ok=True)
    base = serve(SITE)
    checks = [back_against_engine, edit_board, first_screen, review_figures, practice_hints,
              every_legal_square_valued, no_spoiler]
    run_checks(t, checks, base)


if __name__ == "__main__":
    main()
