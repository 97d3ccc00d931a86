#!/usr/bin/env python3
"""Against the engine and in analysis (issue 68), as a player sees them in
Debian's headless Chromium: resign (with its confirm step) ends the game
with the result in the status, the saved games list and the GGF record;
a clock for both sides, where the human who lets it run out loses on time
and the engine, told its time (`time_left`), never does; the evaluation
bar beside the board with hints on (hidden with hints off); the engine's
best three lines under the board, each legal on the native engine; the
`?` overlay of keyboard shortcuts (a modal dialog: focus kept in it and
given back, Escape or a click outside closes it); a swipe on the board
for back and forward on a touch screen, a tap still playing a square.

    MOLLETT_WEB=target/web MOLLETT=target/ci/mollett python3 tests/browser/test_features.py
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, Native, run_checks, serve  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
READY = '#status[data-state="human-to-move"], #status[data-state="game-over"]'

t = Failures()


def split(moves):
    return [moves[i:i + 2] for i in range(0, len(moves), 2)]


def status(page):
    return page.evaluate("() => [document.querySelector('#status').dataset.state, document.querySelector('#status').textContent]")


def ply(page):
    return page.evaluate("() => window.mollett.ply")


def click_square(page, sq):
    page.click(f'[data-square="{sq}"]')


def legal(page):
    return page.evaluate("() => [...document.querySelectorAll('[data-legal]')].map(e => e.dataset.square)")


def resign(browser, base):
    page = browser.new_page()
    page.goto(f"{base}?human=black&level=1")
    page.wait_for_selector(READY, timeout=60000)
    click_square(page, "f5")
    page.wait_for_function("() => window.mollett.ply === 2 && document.querySelector('#status').dataset.state === 'human-to-move'",
                           timeout=60000)
    page.click("#resign")
    t.check(page.is_visible("#resign-confirm") and status(page)[0] == "human-to-move",
            "Resign asks first and the game goes on meanwhile", str(status(page)))
    page.click("#resign-no")
    t.check(not page.is_visible("#resign-confirm") and status(page)[0] == "human-to-move" and legal(page),
            "No keeps the game", str(status(page)))
    page.click("#resign")
    page.click("#resign-yes")
    state, text = status(page)
    t.check(state == "game-over" and "White wins (black resigned)" in text,
            "Yes ends the game, the status says who won and that black resigned", text)
    t.check(legal(page) == [] and page.is_disabled("#resign"), "after resigning no square is offered and Resign is off")
    before = page.evaluate("() => window.mollett.transcript()")
    click_square(page, "d3")
    page.wait_for_timeout(300)
    page.click("#engine-move")
    page.wait_for_timeout(500)
    t.check(page.evaluate("() => window.mollett.transcript()") == before, "a click on the board or Engine move plays nothing after resigning")
    page.click("#save-game")
    page.click("#saved summary")
    item = page.text_content("#saved-list li")
    t.check("White wins (black resigned)" in item, "the saved games list shows the resignation", item)
    with page.expect_download() as d:
        page.click("#download-ggf")
    ggf = open(d.value.path()).read()
    t.check("RE[-64.000:r]" in ggf, "the GGF record's RE says white won by resignation", ggf[:200])
    # The result is kept in the address, so a reload (or the link) shows
    # the game resigned, not waiting for black's move.
    t.check("result=resign-black" in page.url, "the address keeps the resignation", page.url)
    page.reload()
    page.wait_for_function("() => document.querySelector('#status').dataset.state === 'game-over'", timeout=60000)
    t.check("White wins (black resigned)" in status(page)[1] and legal(page) == [] and page.is_disabled("#resign"),
            "after a reload the game is still resigned", str(status(page)))
    # A new game starts afresh.
    page.click("#new-modern")
    page.wait_for_selector(READY, timeout=60000)
    t.check(status(page)[0] == "human-to-move" and "d3" in legal(page) and "result=" not in page.url,
            "a new game after resigning can be played", page.url)
    # The saved game keeps its result too.
    if not page.is_visible("#saved-list li .open"):
        page.click("#saved summary")
    page.click("#saved-list li .open")
    page.wait_for_function("() => document.querySelector('#status').dataset.state === 'game-over'", timeout=60000)
    t.check("White wins (black resigned)" in status(page)[1], "the saved game reopens resigned", str(status(page)))
    page.close()


def clock_flag(browser, base):
    """A 3 s clock: the engine answers within its time, then the human who
    does not move loses on time."""
    page = browser.new_page()
    page.goto(f"{base}?human=black&level=4&clock=3+0")
    page.wait_for_selector(READY, timeout=60000)
    t.check(page.is_visible("#clocks") and page.input_value("#clock-control") == "custom",
            "clock=3+0 shows both clocks and the custom control")
    # The clocks start at the first move, not at the page's load.
    page.wait_for_timeout(1200)
    idle = page.evaluate("""() => [document.querySelectorAll('#clocks .running').length,
        +document.querySelector('#clocks [data-side="black"]').dataset.ms]""")
    t.check(idle == [0, 3000], "before the first move no clock runs (black's still 3 s after 1.2 s)", str(idle))
    click_square(page, "f5")
    page.wait_for_function("() => window.mollett.ply === 2 && document.querySelector('#status').dataset.state === 'human-to-move'",
                           timeout=20000)
    white = int(page.get_attribute('#clocks [data-side="second"]', "data-ms"))
    t.check(0 < white <= 3000, "the engine's move arrived within its time", f"{white} ms left")
    log = page.evaluate("() => window.mollett.log")
    told = [line for line in log if line.startswith("time_left")]
    t.check(bool(told) and re.fullmatch(r"time_left white \d+\.\d\d 0", told[-1]) and float(told[-1].split()[2]) <= 3,
            "the engine is told its time left (time_left)", str(told))
    running = page.evaluate("() => document.querySelector('#clocks .running').dataset.side")
    t.check(running == "black", "black's clock runs on black's turn", running)
    start = time.time()
    page.wait_for_function("() => document.querySelector('#status').dataset.state === 'game-over'", timeout=10000)
    waited = time.time() - start
    state, text = status(page)
    t.check("White wins on time (black ran out of time)" in text, "black's flag ends the game on time", text)
    t.check(waited < 4, "the flag falls when the 3 s are spent", f"{waited:.1f} s")
    t.check(page.text_content('#clocks [data-side="black"] .time') == "0:00.0" and legal(page) == [],
            "black's clock shows 0:00.0 and no move is offered")
    page.close()


def clock_kept(browser, base):
    """A reload keeps the clocks where they were (the time away counts),
    rather than setting both back to the control's time."""
    page = browser.new_page()
    page.goto(f"{base}?human=black&level=1&clock=60+0")
    page.wait_for_selector(READY, timeout=60000)
    click_square(page, "f5")
    page.wait_for_function("() => window.mollett.ply === 2 && document.querySelector('#status').dataset.state === 'human-to-move'",
                           timeout=20000)
    page.wait_for_timeout(1000)
    black = lambda: int(page.get_attribute('#clocks [data-side="black"]', "data-ms"))
    before = black()
    page.reload()
    page.wait_for_function("() => window.mollett.ply === 2 && document.querySelector('#status').dataset.state === 'human-to-move'",
                           timeout=60000)
    after = black()
    t.check(after <= before and page.evaluate("() => document.querySelector('#clocks .running').dataset.side") == "black",
            "after a reload black's clock goes on from where it was, running", f"{before} ms -> {after} ms")
    page.close()


def engine_in_time(browser, base):
    """Engine against engine, 8 s each for a whole game: neither flags."""
    page = browser.new_page()
    page.goto(f"{base}?human=none&level=10&clock=8+0")
    page.wait_for_function("() => document.querySelector('#status').dataset.state === 'game-over'", timeout=60000)
    state, text = status(page)
    left = page.evaluate("() => [...document.querySelectorAll('#clocks .board-clock')].map(e => +e.dataset.ms)")
    t.check("on time" not in text and re.search(r"wins \d+-\d+|draw", text), "the engine plays a whole game on an 8 s clock without flagging", text)
    t.check(all(ms > 0 for ms in left), "both engine clocks end above zero", str(left))
    page.close()


def evalbar_and_lines(browser, base):
    moves = "d3c5b6f3f4e3g3c4e6c6c3c2d6e2b2b3a2b5e1a3b4"  # 21 plies, out of the book: white to move
    page = browser.new_page()
    page.goto(f"{base}?human=both&hints=1&hintdepth=5&moves={moves}")
    page.wait_for_function("() => document.querySelector('#hint-info').textContent.includes('depth 5')", timeout=60000)
    values = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-legal]')]
        .map(e => [e.dataset.square, +e.dataset.value]))""")
    best = max(values.values())
    bar = page.evaluate("() => { const b = document.querySelector('#evalbar'); return {hidden: b.hidden, value: +b.dataset.value,"
                        " label: b.getAttribute('aria-label'), height: b.querySelector('.fill').style.height,"
                        " box: b.getBoundingClientRect().toJSON(), board: document.querySelector('#board').getBoundingClientRect().toJSON()} }")
    t.check(not bar["hidden"] and bar["value"] == -best, "the evaluation bar shows the best value, black's view (white to move)",
            f"bar {bar['value']} best for white {best}")
    t.check(bar["box"]["left"] >= bar["board"]["right"] - 1 and bar["box"]["height"] > bar["board"]["height"] * 0.9,
            "the bar stands beside the board, as tall", str(bar["box"]))
    share = 50 + max(-32, min(32, -best)) / 32 * 50
    t.check(abs(float(bar["height"].rstrip("%")) - share) < 0.01 and "ahead by" in bar["label"] or -best == 0,
            "black's share of the bar follows the value", f"{bar['height']} {bar['label']}")
    t.check(re.fullmatch(r"evaluation: (Black|White) ahead by \d+", bar["label"]) or -best == 0,
            "the bar's label gives the lead as a size (\"ahead by 13\", not \"by +13\")", bar["label"])
    lines = page.evaluate("() => [...document.querySelectorAll('#lines li')].map(li => ({move: li.dataset.move,"
                          " value: +li.dataset.value, pv: li.querySelector('.pv').textContent.split(' '),"
                          " text: li.textContent}))")
    # Each line reads as its value and then its moves, the first once ("-9 d2 e8 …", not "d2 -9 d2 e8 …").
    squares = [re.findall(r"[a-h][1-8]", ln["text"]) for ln in lines]
    t.check(lines and all(sq == ln["pv"] for sq, ln in zip(squares, lines)),
            "each line names its first move once", str([ln["text"] for ln in lines]))
    top = sorted(values.values(), reverse=True)[:3]
    t.check(len(lines) == 3 and [ln["value"] for ln in lines] == top and all(values[ln["move"]] == ln["value"] for ln in lines),
            "three engine lines, best first, with the squares' values", f"{lines} {values}")
    native = Native(MOLLETT)
    for ln in lines:
        native.must("newgame modern")
        for mv in split(moves):
            native.must(f"play {mv}")
        refused = [mv for mv in ln["pv"] if not native.ask(f"play {mv}")[0]]
        t.check(ln["pv"][0] == ln["move"] and len(ln["pv"]) >= 2 and not refused,
                f"the line of {ln['move']} starts with it, goes on, and the native engine plays it all", f"{ln['pv']} refused {refused}")
    native.close()
    board_on = page.locator("#board").bounding_box()
    page.uncheck("#hints")
    page.wait_for_timeout(300)
    t.check(page.is_hidden("#evalbar") and page.is_hidden("#lines"), "hints off: no bar and no lines")
    board_off = page.locator("#board").bounding_box()
    t.check(board_on == board_off, "turning hints off moves and sizes the board not at all", f"{board_on} -> {board_off}")
    # A button that does nothing now looks it (here Next mistake, with no review).
    look = page.evaluate("""() => ['#next-mistake', '#review'].map((s) => { const b = document.querySelector(s);
        const c = getComputedStyle(b); return [b.disabled, +c.opacity, c.cursor]; })""")
    t.check(look[0][0] and not look[1][0] and look[0][1] <= 0.6 and look[1][1] == 1 and look[0][2] == "not-allowed",
            "a disabled button is drawn faded, with no pointer; an enabled one is not", str(look))
    page.close()


def keys_overlay(browser, base):
    page = browser.new_page()
    page.goto(f"{base}?human=both&moves=f5d6c3")
    page.wait_for_selector(READY, timeout=60000)
    page.focus("#back")
    page.keyboard.press("?")
    info = page.evaluate("""() => { const d = document.querySelector('#keys-help');
        return {open: d.open, modal: d.matches(':modal'), inside: d.contains(document.activeElement),
                name: document.getElementById(d.getAttribute('aria-labelledby')).textContent,
                keys: [...d.querySelectorAll('dt')].map(e => e.textContent.trim())} }""")
    t.check(info["open"] and info["modal"] and info["inside"], "? opens the shortcuts as a modal dialog with the focus in it", str(info))
    t.check(info["name"] == "Keyboard shortcuts" and "←" in info["keys"] and "?" in info["keys"] and "n" in info["keys"],
            "the dialog is named and lists the keys", str(info))
    for _ in range(6):
        page.keyboard.press("Tab")
        if not page.evaluate("() => document.querySelector('#keys-help').contains(document.activeElement)"):
            break
    t.check(page.evaluate("() => document.querySelector('#keys-help').contains(document.activeElement)"),
            "Tab stays within the dialog")
    page.keyboard.press("ArrowLeft")
    t.check(ply(page) == 3, "the page's keys do nothing under the dialog", str(ply(page)))
    page.keyboard.press("Escape")
    t.check(not page.evaluate("() => document.querySelector('#keys-help').open")
            and page.evaluate("() => document.activeElement.id") == "back", "Escape closes it and gives the focus back")
    page.click("#keys-open")
    t.check(page.evaluate("() => document.querySelector('#keys-help').open"), "the ? button opens it too")
    page.mouse.click(5, 5)
    t.check(not page.evaluate("() => document.querySelector('#keys-help').open")
            and page.evaluate("() => document.activeElement.id") == "keys-open", "a click outside closes it, the focus back on ?")
    page.click("#keys-open")
    page.click("#keys-help h2")
    t.check(page.evaluate("() => document.querySelector('#keys-help').open"), "a click inside leaves it open")
    page.click("#keys-close")
    t.check(not page.evaluate("() => document.querySelector('#keys-help').open"), "Close closes it")
    page.close()


def swipe(browser, base):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(f"{base}?human=both&moves=f5d6c3d3")
    page.wait_for_selector(READY, timeout=60000)
    cdp = ctx.new_cdp_session(page)

    def drag(sq_from, dx, dy=0, steps=6):
        box = page.locator(f'[data-square="{sq_from}"]').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for k in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx * k / steps, "y": y + dy * k / steps}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(400)

    # Starting on a legal square (c5 after f5d6c3d3 is black's), the swipe
    # does not play it.
    here = legal(page)
    start = "c5" if "c5" in here else here[0]
    drag(start, 160)
    t.check(ply(page) == 3 and page.evaluate("() => document.querySelectorAll('#moves .ply').length") == 4,
            "a swipe to the right goes one ply back and plays nothing", f"ply {ply(page)}")
    drag("e4", -160)
    t.check(ply(page) == 4, "a swipe to the left goes one ply forward", f"ply {ply(page)}")
    drag("e4", 20, 150)
    t.check(ply(page) == 4, "a vertical drag is no swipe", f"ply {ply(page)}")
    sq = legal(page)[0]
    page.tap(f'[data-square="{sq}"]')
    page.wait_for_function("() => window.mollett.ply === 5", timeout=20000)
    t.check(page.evaluate("() => window.mollett.transcript()") == "f5d6c3d3" + sq, "a tap on a square still plays it")
    ctx.close()


def main():
    if not os.path.isfile(os.path.join(SITE, "index.html")):
        print(f"FAIL no {SITE}/index.html: run scripts/web/build.sh first")
        sys.exit(1)
    base = serve(SITE)
    checks = [resign, clock_flag, clock_kept, engine_in_time, evalbar_and_lines, keys_overlay, swipe]
    run_checks(t, checks, base)


if __name__ == "__main__":
    main()
