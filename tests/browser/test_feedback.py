#!/usr/bin/env python3
"""What the board page tells a player who slips, and the Hindi font
(issue 68), in Debian's headless Chromium: a GGF move that is no square
named by its number, a binary file said to be no game record (none of
its bytes quoted), a GGF's illegal move named with its ply; the
move list's plies one tab stop, the arrow keys stepping through them; a click on a square that cannot
be played said in the player's language, with a flash and a shake only
where motion is welcome; the Hindi pages drawn with the shipped
Devanagari font (every character of the Hindi table in its range), which
no other language's page fetches.

    MOLLETT_WEB=target/web python3 tests/browser/test_feedback.py
"""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, run_checks, serve  # noqa: E402

SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
READY = '#status[data-state="human-to-move"]'
DESKTOP = {"width": 1200, "height": 800}
START = "---------------------------O*------*O---------------------------"

t = Failures()


def open_page(browser, base, query, **ctx_args):
    ctx = browser.new_context(viewport=DESKTOP, **ctx_args)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(base + query)
    page.wait_for_selector(READY, timeout=60000)
    return ctx, page


def table(page, lang):
    return page.evaluate("async (l) => (await import('./shared/i18n/' + l + '.js')).default", lang)


def said(page, want, timeout=20000):
    """Waits for the message line to read `want`; returns what it reads."""
    try:
        page.wait_for_function("(w) => document.querySelector('#message').textContent === w", arg=want,
                               timeout=timeout)
    except Exception:  # noqa: BLE001  the check below says what it read
        pass
    return page.text_content("#message")


def load(page, text):
    page.fill("#paste", text)
    page.click("#load")


def messages(browser, base):
    """A GGF whose move is no square names it and its number, and loads
    nothing; a binary file is said to be binary, none of its bytes quoted;
    a GGF's illegal move is named with its ply; a long bad move is cut."""
    ctx, page = open_page(browser, base, "?lang=en")
    tab = table(page, "en")
    before = page.text_content("#transcript")
    for moves, k, text in [("B[zz]", 1, "zz"), ("B[F5]W[zz]", 2, "zz")]:
        ggf = f"(;GM[Othello]PC[test]PB[a]PW[b]TY[8]BO[8 {START} *]{moves};)"
        load(page, ggf)
        want = tab["board.err.ggf"].replace("{error}", tab["board.err.notSquare"].replace("{text}", text)
                                            .replace("{k}", str(k)))
        got = said(page, want)
        t.check(got == want, f"GGF {moves}: the message names move {k}, {text!r}", got)
        t.check(page.text_content("#transcript") == before, f"GGF {moves}: the game is as it was")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "picture.ggf")
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
        page.click("#new-modern")
        page.wait_for_selector(READY, timeout=60000)
        page.evaluate("() => { document.querySelector('#message').textContent = ''; }")
        page.set_input_files("#open-file", path)
        page.wait_for_function("() => document.querySelector('#message').textContent !== ''", timeout=20000)
        got = page.text_content("#message")
        raw = re.findall(r"[\x00-\x1f\x7f-\x9f\ufffd]", got)
        t.check(got == tab["board.err.binary"] and not raw and "\\x" not in got,
                "a binary file: said to be no transcript, GGF or position, none of its bytes quoted", repr(got))
        t.check(page.text_content("#transcript") == "", "a binary file: the game is as it was")
    # A GGF with an illegal move names it and its ply, as a GGF (the 3rd: a1).
    load(page, f"(;GM[Othello]PC[test]BO[8 {START} *]B[F5]W[D6]B[A1];)")
    want = tab["board.err.ggfIllegal"].replace("{move}", "a1").replace("{ply}", "3")
    got = said(page, want)
    t.check(got == want, "GGF with an illegal move: the message names it and its ply", got)
    t.check(page.text_content("#transcript") == "", "GGF with an illegal move: the game is as it was")
    load(page, f"(;GM[Othello]BO[8 {START} *]B[{'x' * 500}];)")
    try:
        page.wait_for_function("() => document.querySelector('#message').textContent.includes('xxx')", timeout=20000)
    except Exception:  # noqa: BLE001  the check below says what it read
        pass
    got = page.text_content("#message")
    t.check(len(got) < 200 and "…" in got, "GGF with a 500-character move: the message quotes it cut", len(got))
    t.check(not page.errors, "messages: no script errors", page.errors[:3])
    ctx.close()


def move_list_keys(browser, base):
    """The move list's plies are one tab stop: Tab from the button before
    it lands on the current ply and the next Tab leaves the list; the
    arrow keys, Home and End step through the game there, the focus
    following the current ply; a branch beside a ply is reached with Tab
    and Enter plays into it, the focus on its ply."""
    ctx, page = open_page(browser, base, "?lang=en&human=both")
    load(page, "f5d6c3d3c4")
    page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5d6c3d3c4'",
                           timeout=20000)
    page.wait_for_selector(READY, timeout=60000)
    focus = "() => { const a = document.activeElement; return {ply: a.dataset.ply || null, id: a.id, " \
            "inList: !!a.closest('#moves'), current: a.classList.contains('current'), text: a.textContent}; }"

    def at_ply(k):
        page.wait_for_function("(k) => document.querySelector('#moves .ply.current')?.dataset.ply === k "
                               "|| (k === null && !document.querySelector('#moves .ply.current'))", arg=k,
                               timeout=20000)
        return page.evaluate(focus)

    stops = page.eval_on_selector_all("#moves button", "bs => bs.filter((b) => b.tabIndex >= 0).length")
    t.check(stops == 1, "move list: one tab stop among its five plies", stops)
    page.focus("#download-ggf")
    page.keyboard.press("Tab")
    at = page.evaluate(focus)
    t.check(at["inList"] and at["current"] and at["ply"] == "5", "move list: Tab lands on the current ply (5)", at)
    page.keyboard.press("Tab")
    t.check(not page.evaluate(focus)["inList"], "move list: the next Tab leaves the list", page.evaluate(focus))
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at = at_ply("3")
    t.check(at["ply"] == "3" and at["current"] and page.text_content("#transcript") == "f5d6c3",
            "move list: two ArrowLefts go back to ply 3, the focus on it", at)
    page.keyboard.press("Home")
    at = at_ply(None)
    t.check(at["ply"] == "1" and page.text_content("#transcript") == "",
            "move list: Home goes to the start, the focus on the first ply", at)
    page.keyboard.press("End")
    at = at_ply("5")
    t.check(at["ply"] == "5" and at["current"], "move list: End goes to the last ply, the focus on it", at)
    page.keyboard.press("ArrowLeft")
    at = at_ply("4")
    stops = page.eval_on_selector_all("#moves button", "bs => bs.filter((b) => b.tabIndex >= 0).map((b) => b.dataset.ply)")
    t.check(at["ply"] == "4" and stops == ["4"], "move list: still one tab stop, the current ply", (at, stops))
    # A branch: another move at ply 5 leaves c4 beside it.
    page.wait_for_selector(READY, timeout=60000)
    other = next(sq for sq in page.eval_on_selector_all("[data-legal]", "es => es.map((e) => e.dataset.square)")
                 if sq != "c4")
    page.click(f'[data-square="{other}"]')
    page.wait_for_function("(m) => document.querySelector('#transcript').textContent === 'f5d6c3d3' + m", arg=other,
                           timeout=20000)
    page.wait_for_selector(READY, timeout=60000)
    page.focus("#download-ggf")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    alt = page.evaluate("() => document.activeElement.classList.contains('alt') && document.activeElement.textContent")
    t.check(alt == "c4", f"move list: after {other}, Tab from the current ply reaches the branch c4", alt)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5d6c3d3c4'", timeout=20000)
    at = page.evaluate(focus)
    t.check(at["current"] and at["ply"] == "5" and "c4" in at["text"],
            "move list: Enter on the branch plays it, the focus on its ply", at)
    t.check(not page.errors, "move list: no script errors", page.errors[:3])
    ctx.close()


def refused_square(browser, base):
    """A click on a square the player cannot play: the message says so in
    the page's language, the square is ringed and (motion welcome) shakes,
    nothing is played; a legal move then clears the message. With reduced
    motion the ring stays and the shake does not run."""
    for lang, motion in [("en", "no-preference"), ("pl", "reduce")]:
        ctx, page = open_page(browser, base, f"?lang={lang}&human=both", reduced_motion=motion)
        tab = table(page, lang)
        for sq, why in [("a1", "empty"), ("d4", "taken")]:
            page.click(f'[data-square="{sq}"]')
            want = tab["board.msg.notLegal"].replace("{move}", sq)
            got = said(page, want, timeout=5000)
            t.check(got == want, f"{lang}: a click on {sq} ({why}) is said to be no legal move", got)
            look = page.eval_on_selector(f'[data-square="{sq}"]', """e => ({refused: e.classList.contains('refused'),
                animation: getComputedStyle(e).animationName, ring: getComputedStyle(e).boxShadow})""")
            shakes = look["animation"] == "refuse"
            t.check(look["refused"] and look["ring"] != "none" and shakes == (motion == "no-preference"),
                    f"{lang}: {sq} ringed, {'shaking' if motion == 'no-preference' else 'still (reduced motion)'}",
                    look)
        t.check(page.text_content("#transcript") == "", f"{lang}: nothing was played")
        page.click('[data-square="f5"]')
        page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5'", timeout=20000)
        t.check(page.text_content("#message") == "", f"{lang}: a legal move clears the message",
                page.text_content("#message"))
        page.wait_for_timeout(800)
        t.check(page.eval_on_selector_all(".square.refused", "es => es.length") == 0,
                f"{lang}: the ring goes after a moment")
        t.check(not page.errors, f"{lang}: no script errors", page.errors[:3])
        ctx.close()
    # Enter on a square the keyboard is on, when it cannot be played.
    ctx, page = open_page(browser, base, "?lang=en&human=both")
    page.click('[data-square="f5"]')
    page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5'", timeout=20000)
    page.wait_for_selector(READY, timeout=60000)
    page.focus('[data-square="f5"]')
    page.keyboard.press("Enter")
    want = table(page, "en")["board.msg.notLegal"].replace("{move}", "f5")
    t.check(said(page, want, timeout=5000) == want, "Enter on a taken square says it is no legal move")
    ctx.close()


def ranges_of(css_range):
    out = []
    for part in css_range.split(","):
        m = re.fullmatch(r"\s*U\+([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?\s*", part)
        lo = int(m[1], 16)
        out.append((lo, int(m[2], 16) if m[2] else lo))
    return out


def fonts_of(page, selector):
    """The fonts Chromium drew `selector`'s text with (DevTools'
    platform fonts): [(family, custom, glyphs)]."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cdp.detach()
    return [(f["familyName"], f["isCustomFont"], f["glyphCount"]) for f in fonts]


def hindi_font(browser, base):
    """lang=hi: the page fetches the Devanagari font, its face is loaded,
    and Hindi text is drawn with it; each character of the Hindi table
    that the face is for is in its unicode-range. lang=en (board and
    rules page): no font file is fetched."""
    for query, pick in [("?lang=hi", "#new-modern"), ("rules.html?lang=hi", "h1"),
                        ("?lang=en", "#new-modern"), ("rules.html?lang=en", "h1")]:
        hindi = "lang=hi" in query
        ctx = browser.new_context(viewport=DESKTOP)
        page = ctx.new_page()
        fetched = []
        page.on("request", lambda r: fetched.append(r.url) if r.url.endswith(".woff2") else None)
        page.goto(base + query)
        page.wait_for_selector(READY if not query.startswith("rules") else 'body[data-state="ready"]', timeout=60000)
        page.evaluate("document.fonts.ready.then(() => true)")
        faces = page.evaluate("""() => [...document.fonts].map((f) => ({family: f.family, status: f.status,
            weight: f.weight, range: f.unicodeRange}))""")
        ours = [f for f in faces if "Mollett Devanagari" in f["family"]]
        what = f"{query}"
        t.check(len(ours) == 2, f"{what}: the page declares the Devanagari faces", faces)
        if hindi:
            t.check(any(f["status"] == "loaded" and f["weight"] == "400" for f in ours)
                    and page.evaluate("document.fonts.check('16px \"Mollett Devanagari\"', 'खेल')"),
                    f"{what}: the Devanagari face is loaded", ours)
            t.check(any("Devanagari" in u for u in fetched), f"{what}: the font file is fetched", fetched)
            drawn = fonts_of(page, pick)
            t.check(any(custom and "Devanagari" in fam and n > 0 for fam, custom, n in drawn),
                    f"{what}: {pick}'s Hindi text is drawn with the shipped font", drawn)
            if ours:
                covered = ranges_of(ours[0]["range"])
                # A count's value is an object of plural forms.
                text = "".join(v if isinstance(v, str) else "".join(v.values()) for v in table(page, "hi").values())
                missing = sorted({c for c in text if 0x900 <= ord(c) <= 0x97F
                                  and not any(lo <= ord(c) <= hi for lo, hi in covered)})
                t.check(not missing, f"{what}: every Devanagari character of the Hindi table is in the font "
                        "(else run scripts/web/devanagari-font.py)", missing)
        else:
            t.check(not fetched and all(f["status"] == "unloaded" for f in ours),
                    f"{what}: no font file is fetched", (fetched, ours))
        ctx.close()


def main():
    if not os.path.isfile(os.path.join(SITE, "index.html")):
        print(f"FAIL no {SITE}/index.html: run scripts/web/build.sh first")
        sys.exit(1)
    base = serve(SITE)
    run_checks(t, [messages, move_list_keys, refused_square, hindi_font], base)


if __name__ == "__main__":
    main()
