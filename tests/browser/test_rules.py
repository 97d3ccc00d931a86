#!/usr/bin/env python3
"""The "How to play" pages (rules.html) in Debian's headless Chromium: both
rule sets in all five languages load with <html lang> set and no missing
or raw string; every language table has English's keys; every example
board, before and after each step, equals the native engine's for the same
lines, and what the texts say of them (the disc turned, the squares, the
counts) holds on the native engine; nothing overflows at phone width; the
language follows lang= and the browser; the board page's words in each
language, and in Polish and Hindi none of its English words (level list,
squares' labels, hint, thinking, message, graph, notes); screenshots of every page at phone width go to target/web-shots/.

    MOLLETT=target/ci/mollett python3 tests/browser/test_rules.py
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, Native, board_of, launch, png_colours, serve  # noqa: E402
from playwright.sync_api import Error as PlaywrightError, sync_playwright  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
SHOTS = os.environ.get("MOLLETT_SHOTS", os.path.join(ROOT, "target", "web-shots"))
LANGS = ["en", "pl", "de", "es", "hi"]
VARIANTS = ["modern", "classic"]
PHONE = {"width": 390, "height": 844}
READY = 'body[data-state="ready"], body[data-state="error"]'

t = Failures()


def page_examples(page):
    """Each example figure: its id, step, state, the discs and dots drawn,
    the squares marked turned, and its note."""
    return page.evaluate("""() => [...document.querySelectorAll('figure.example')].map((f) => {
        const discs = {}, legal = [], turned = [];
        for (const c of f.querySelectorAll('[data-square]')) {
            if (c.dataset.disc) discs[c.dataset.square] = c.dataset.disc;
            if (c.hasAttribute('data-legal')) legal.push(c.dataset.square);
            if (c.classList.contains('turned')) turned.push(c.dataset.square);
        }
        return {id: f.dataset.example, step: +f.dataset.step, state: f.dataset.state, discs,
                legal: legal.sort(), turned: turned.sort(), note: f.querySelector('.ex-note').textContent,
                status: f.querySelector('.ex-status').textContent};
    })""")


def native_board(native, lines):
    for line in lines:
        native.must(line)
    return native.must("showboard")


def same(view, show, second):
    discs, legal, _, _ = board_of(show)
    want = {sq: ("black" if c == "black" else second) for sq, c in discs.items()}
    return view["discs"] == want and view["legal"] == legal, (want, legal)


def counts(show):
    """(black, second, empty, status line, supplies or None) of a native drawing."""
    discs, _, status, line = board_of(show)
    m = re.match(r"black (\d+) (?:white|red) (\d+)(?: supply (\d+) (\d+))?", line)
    b, s = int(m[1]), int(m[2])
    supply = (int(m[3]), int(m[4])) if m[3] else None
    return b, s, 64 - b - s, status, supply


# What the texts say of each example, checked on the native engine's
# position after all its steps (`after`) or before the first (`before`),
# and on the discs the page marks as turned by the last step.
def claims(variant, ex_id, native, lines_before, lines_after, turned):
    second = "red" if variant == "classic" else "white"
    before = native_board(native, lines_before)
    after = native_board(native, lines_after)
    b0, s0, e0, st0, sup0 = counts(before)
    b1, s1, e1, st1, sup1 = counts(after)
    discs1 = board_of(after)[0]
    if ex_id == "first":
        t.check(discs1.get("d4") == "black" and (b1, s1) == (4, 1) and turned == ["d4"],
                f"{variant} first: d3 turns d4, black 4 {second} 1", (discs1.get("d4"), b1, s1, turned))
    elif ex_id == "line":
        ok, why = native.ask("play a6")
        t.check(not ok, f"{variant} line: a6 (open line) is refused natively", why)
        t.check(turned == ["b4", "c4"], f"{variant} line: a4 turns b4 and c4", turned)
    elif ex_id == "several":
        t.check(len(turned) == 7 and discs1.get("b4") == "second", f"{variant} several: c3 turns 7 discs, b4 stays",
                (turned, discs1.get("b4")))
    elif ex_id == "pass":
        t.check(st0 == "black to move, must pass",
                f"{variant} pass: black has no move", st0)
        t.check(st1 == "black to move", f"{variant} pass: after the pass and c1 black moves again", st1)
    elif ex_id == "supply":
        t.check(st0 == "black to move, must pass" and sup0 == (0, 1),
                "classic supply: black is out of discs and must pass", (st0, sup0))
        board = "".join({"black": "X", "second": "O"}.get(board_of(before)[0].get(f + str(r)), "-")
                        for r in range(1, 9) for f in "abcdefgh")
        native.must(f"setboard {board} X 1 0")
        t.check(native.must("legal") == "g6", "classic supply: with a disc in hand black could play g6")
        t.check(st1 == "game over" and "g6" in discs1, "classic supply: red plays g6 and the game is over", st1)
    elif ex_id == "end":
        t.check(st1 == "game over" and (b1, s1, e1) == (40, 23, 1) and "h8" not in discs1,
                f"{variant} end: game over 40 to 23 with h8 empty", (st1, b1, s1))
        if variant == "classic":
            t.check(sup1 == (0, 1), "classic end: black's 32nd disc, red keeps one in hand", sup1)
    elif ex_id == "wipe":
        t.check(st1 == "game over" and (b1, s1, e1) == (15, 0, 49) and s0 == 3 and turned == ["b2", "c3", "d4"],
                f"{variant} wipe: a1 turns b2 c3 d4, 15 to 0 with 49 empty", (st1, b1, s1, e1, turned))
    elif ex_id == "placements":
        want = {"d4": "black", "d5": "black", "e4": "second", "e5": "second"}
        t.check(discs1 == want and turned == [], "classic placements: parallel centre, nothing turned", discs1)
    else:
        t.check(False, f"{variant} {ex_id}: no claim checked for this example")


def walk_examples(page, native, variant):
    """Plays every example through its button, comparing each board with
    the native engine's for the same lines."""
    second = "red" if variant == "classic" else "white"
    defs = page.evaluate("window.mollettRules.examples")
    t.check(len(defs) == (8 if variant == "classic" else 6), f"{variant}: every example is on the page", len(defs))
    for ex in defs:
        try:
            walk_example(page, native, variant, second, ex)
        except (AssertionError, TimeoutError, PlaywrightError) as e:
            t.check(False, f"{variant} {ex['id']}: the example plays through", str(e)[:300])


def walk_example(page, native, variant, second, ex):
    """One example, step by step; the last step's claims checked."""
    fig = f'figure[data-example="{ex["id"]}"]'
    view = None
    for k in range(len(ex["steps"]) + 1):
        view = next(v for v in page_examples(page) if v["id"] == ex["id"])
        ok, want = same(view, native_board(native, ex["lines"][k]), second)
        t.check(ok and view["step"] == k, f"{variant} {ex['id']} step {k}: board equals the native engine's",
                (view, want))
        if k > 0 and "try" in ex["steps"][k - 1]:
            t.check(view["note"] != "" and view["turned"] == [],
                    f"{variant} {ex['id']}: the tried square is refused on the page", view["note"])
        if k < len(ex["steps"]):
            page.click(f"{fig} .ex-step")
            page.wait_for_selector(f'{fig}[data-step="{k + 1}"][data-state="ready"]', timeout=20000)
    claims(variant, ex["id"], native, ex["lines"][0], ex["lines"][-1], view["turned"])
    page.click(f"{fig} .ex-again")
    page.wait_for_selector(f'{fig}[data-step="0"][data-state="ready"]', timeout=20000)


def faq_and_counts(page, variant, lang):
    """Issue 68: the FAQ's seventh question (is it Othello?) is shown and
    says what the rule texts say (Waterman's and Mollett's Reversi, Othello
    of 1973, the 32-disc supply); the pass example's text counts the moves played
    to reach its board (the discs on it, less Othello's four at the start
    in modern) and names no other number."""
    what = f"{variant} {lang}"
    faq = page.eval_on_selector_all("dl.faq dt", "ds => ds.map((d) => [d.textContent, d.nextElementSibling.textContent])")
    t.check(len(faq) == 7, f"{what}: the FAQ has its seven questions", [q for q, _ in faq])
    if len(faq) == 7:
        answer = faq[6][1]
        t.check(all(n in answer for n in ("Waterman", "Mollett", "1973", "32", "Othello")),
                f"{what}: the Othello answer names Waterman's and Mollett's Reversi, 1973's Othello, the 32 discs",
                answer[:120])
    view = next(v for v in page_examples(page) if v["id"] == "pass")
    played = len(view["discs"]) - (4 if variant == "modern" else 0)
    text = " ".join(page.eval_on_selector_all("section#pass > p", "ps => ps.map((p) => p.textContent)"))
    said = {int(n) for n in re.findall(r"(?<![a-h\d])\d+(?!\d)", text)}
    t.check(said == {played}, f"{what}: the pass example's text says the {played} moves on its board", said)
    # Issue 68's translation slips, gone.
    slip = {"pl": "oznaczają litery", "de": "der 59. Zug", "es": "Sale la disposición"}.get(lang)
    t.check(not slip or slip not in page.text_content("main"), f"{what}: no \"{slip}\" on the page")


def text_problems(page):
    """Raw keys or unfilled {placeholders} in the text shown."""
    return page.evaluate(r"""() => {
        const bad = [];
        const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n; (n = walk.nextNode());) {
            const s = n.textContent.trim();
            if (/^(rules|ex|st|colour|board|room)\.[\w.]+$/.test(s) || /\{\w+\}/.test(s)) bad.push(s.slice(0, 60));
        }
        for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]'))
            for (const a of ['aria-label', 'title', 'placeholder'])
                if (/^(rules|ex|st|colour|board|room)\./.test(el.getAttribute(a) || '')) bad.push(el.getAttribute(a));
        return bad;
    }""")


def overflow(page):
    """Elements whose content is wider than their box, or that reach past
    the viewport."""
    return page.evaluate("""() => {
        const out = [], vw = document.documentElement.clientWidth;
        for (const el of document.body.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0) continue;
            const name = el.tagName + (el.className ? '.' + el.className : '') + ' ' + (el.textContent || '').slice(0, 30);
            if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) out.push('overflows: ' + name);
            if (r.right > vw + 1 || r.left < -1) out.push('past the viewport: ' + name);
        }
        if (document.documentElement.scrollWidth > vw + 1) out.push('page scrolls sideways');
        return out;
    }""")


def board_pages(browser, base):
    """The board page in each language at phone width: <html lang>, its
    words from the table (not English's), no raw key, nothing overflowing;
    its language switch; its link to the rules page."""
    for lang in LANGS:
        page = browser.new_page(viewport=PHONE)
        page.goto(base + f"?lang={lang}")
        page.wait_for_selector('#status[data-state="human-to-move"]', timeout=30000)
        what = f"board page {lang}"
        want = page.evaluate("""async (l) => {
            const tab = (await import('./shared/i18n/' + l + '.js')).default;
            return {newModern: tab['board.newModern'], toMove: tab['board.toMove'], howto: tab['board.howto']};
        }""", lang)
        t.check(page.evaluate("document.documentElement.lang") == lang, f"{what}: <html lang> is {lang}")
        t.check(page.text_content("#new-modern").strip() == want["newModern"], f"{what}: buttons in {lang}",
                page.text_content("#new-modern"))
        howto = page.locator("a#howto")
        t.check(howto.text_content().strip() == want["howto"]
                and howto.get_attribute("href") == f"rules.html?variant=modern&lang={lang}",
                f"{what}: a link to How to play in {lang}", howto.get_attribute("href"))
        status = page.text_content("#status")
        t.check(lang == "en" or ("to move" not in status and "white" not in status), f"{what}: status line in {lang}", status)
        bad = text_problems(page)
        t.check(not bad, f"{what}: no raw key or unfilled placeholder shown", bad[:5])
        over = overflow(page)
        t.check(not over, f"{what}: nothing overflows at 390 px", over[:5])
        page.screenshot(path=os.path.join(SHOTS, f"board-{lang}-phone.png"), full_page=True)
        page.close()


# The English words of the board page that a page in another language must
# not show (each checked where it would appear).
ENGLISH = {
    "level list": r"\blevel\b|a move|at most|under 1|\babout\b|time per move",
    "square labels": r"empty|legal move|last move|\bblack\b|\bwhite\b",
    "hint line": r"book values|hints|depth|exact",
    "message": r"not loaded|illegal|the game is as it was|Transcript",
    "graph labels": r"\bblack\b|\bwhite\b|discs lost",
    "notes": r"Note|unknown address parameter|ignored",
    "thinking line": r"thinking|at most|depth|selective|exact|nodes",
}
# The midgame position of issue 56's level 18: black (the engine) to move.
LEVEL_POSITION = "f5d6c3d3c4f4e6f6e3c5c6b5d7e7b6b3f8c7a4c8d8f2a3a5"


def english_in(what, text):
    return re.findall(ENGLISH[what], text, flags=re.I)


def board_words(browser, base):
    """The board page's words beyond its buttons, in Polish and Hindi: the
    level list, the square labels (a legal square, a disc, the last move),
    the hint line, a refused transcript's message, the graph's labels, the
    address's notes and the thinking line show none of English's words,
    and the square labels are the table's."""
    for lang in ["pl", "hi"]:
        what = f"board page {lang}"
        page = browser.new_page(viewport=PHONE)
        page.goto(base + f"?lang={lang}&hints=1&colour=red")
        page.wait_for_selector('#status[data-state="human-to-move"]', timeout=30000)
        tab = page.evaluate("async (l) => (await import('./shared/i18n/' + l + '.js')).default", lang)
        levels = page.eval_on_selector_all("#level option", "os => os.map((o) => o.textContent)")
        t.check(len(levels) == 61 and not english_in("level list", " | ".join(levels)),
                f"{what}: the level list in {lang}", levels[5:7] + levels[-1:])
        notes = page.text_content("#notes")
        t.check("colour" in notes and not english_in("notes", notes), f"{what}: the address's note in {lang}", notes)
        page.wait_for_function("() => document.querySelector('#hint-info').textContent !== ''", timeout=30000)
        hint = page.text_content("#hint-info")
        t.check(not english_in("hint line", hint), f"{what}: the hint line in {lang}", hint)
        labels = dict(page.evaluate(
            "() => [...document.querySelectorAll('[data-square]')].map(e => [e.dataset.square, e.getAttribute('aria-label')])"))
        t.check(labels["d4"] == f"d4, {tab['board.sq.white']}" and labels["d5"] == f"d5, {tab['board.sq.black']}"
                and labels["f5"].startswith(f"f5, {tab['board.sq.empty']}, {tab['board.sq.legal']}")
                and labels["a1"] == f"a1, {tab['board.sq.empty']}"
                and not english_in("square labels", " | ".join(labels.values())),
                f"{what}: the squares' labels in {lang}", [labels[q] for q in ("d4", "d5", "f5", "a1")])
        page.click('[data-square="f5"]')
        page.wait_for_function("() => document.querySelector('#transcript').textContent.length === 4 && "
                               "document.querySelector('#status').dataset.state === 'human-to-move'", timeout=30000)
        last = page.eval_on_selector(".square.last", "e => e.getAttribute('aria-label')")
        t.check(last.endswith(f", {tab['board.sq.last']}") and not english_in("square labels", last),
                f"{what}: the last move's label in {lang}", last)
        graph = " | ".join(page.eval_on_selector_all("#graph text", "ts => ts.map((x) => x.textContent)"))
        t.check(graph and not english_in("graph labels", graph), f"{what}: the graph's labels in {lang}", graph)
        page.fill("#paste", "f5f5")
        page.click("#load")
        want = tab["board.err.illegal"].replace("{k}", "2").replace("{move}", "f5")
        page.wait_for_function("(w) => document.querySelector('#message').textContent === w", arg=want, timeout=20000)
        t.check(not english_in("message", page.text_content("#message")), f"{what}: a refused transcript said in {lang}",
                page.text_content("#message"))
        # The engine thinking at level 18 in the midgame: the clock and the
        # search's steps (shown with hints on; without, the clock alone).
        page.goto(base + f"?lang={lang}&level=18&human=white&hints=1&moves={LEVEL_POSITION}")
        page.wait_for_function("() => document.querySelector('#thinking').textContent.includes('  ')", timeout=30000)
        thinking = page.text_content("#thinking")
        t.check(not english_in("thinking line", thinking), f"{what}: the thinking line in {lang}", thinking)
        page.close()


def main():
    base = serve(SITE)
    os.makedirs(SHOTS, exist_ok=True)
    native = Native(MOLLETT)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport=PHONE)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        # Every language has exactly English's keys.
        page.goto(base + "rules.html?lang=en")
        page.wait_for_selector(READY, timeout=30000)
        keys = page.evaluate("""async () => {
            const out = {};
            for (const l of ['en', 'pl', 'de', 'es', 'hi'])
                out[l] = Object.keys((await import('./shared/i18n/' + l + '.js')).default).sort();
            return out;
        }""")
        for lang in LANGS:
            missing = sorted(set(keys["en"]) - set(keys[lang]))
            extra = sorted(set(keys[lang]) - set(keys["en"]))
            t.check(not missing and not extra, f"{lang}: the same keys as English", f"missing {missing} extra {extra}")

        # A count names its noun in the form the number needs ("1 move", not
        # "1 moves"; Polish "1 ruch", "2 ruchy", "5 ruchów"): every English
        # text that counts something ("{n} moves") is a plural object, and in
        # every language such a key has each form Intl.PluralRules gives
        # whole numbers there.
        # The rules' pass example alone counts a fixed number of moves.
        plural = page.evaluate("""async () => {
            const out = {};
            for (const l of ['en', 'pl', 'de', 'es', 'hi']) {
                const table = (await import('./shared/i18n/' + l + '.js')).default;
                // The forms whole numbers up to 200 take (Spanish's "many" is for millions).
                const rules = new Intl.PluralRules(l);
                const forms = [...new Set(Array.from({length: 201}, (_, i) => rules.select(i)))];
                out[l] = {
                    counts: Object.keys(table).filter((k) => typeof table[k] === 'string'
                        && k !== 'rules.pass.body' && /\\{(n|done)\\} \\p{L}/u.test(table[k])),
                    short: Object.keys(table).filter((k) => typeof table[k] === 'object'
                        && forms.some((f) => !(f in table[k]))),
                    plural: Object.keys(table).filter((k) => typeof table[k] === 'object'),
                };
            }
            return out;
        }""")
        t.check(not plural["en"]["counts"], "every English text with a count has plural forms", plural["en"]["counts"])
        for lang in LANGS:
            flat = sorted(set(plural["en"]["plural"]) - set(plural[lang]["plural"]))
            t.check(not flat and not plural[lang]["short"], f"{lang}: every count has each plural form the language needs",
                    f"plain text {flat}, forms missing {plural[lang]['short']}")

        for variant in VARIANTS:
            for lang in LANGS:
                page.goto(base + f"rules.html?variant={variant}&lang={lang}")
                page.wait_for_selector(READY, timeout=30000)
                what = f"{variant} {lang}"
                t.check(page.evaluate("document.body.dataset.state") == "ready", f"{what}: every example drawn")
                t.check(page.evaluate("document.documentElement.lang") == lang, f"{what}: <html lang> is {lang}")
                bad = text_problems(page)
                t.check(not bad, f"{what}: no raw key or unfilled placeholder shown", bad[:5])
                over = overflow(page)
                t.check(not over, f"{what}: nothing overflows at 390 px", over[:5])
                t.check(page.locator("a.back").get_attribute("href") == f"./?variant={variant}&lang={lang}",
                        f"{what}: a link back to the board in this rule set and language")
                shot = os.path.join(SHOTS, f"rules-{variant}-{lang}-phone.png")
                page.screenshot(path=shot, full_page=True)
                t.check(png_colours(open(shot, "rb").read()) > 8, f"{what}: screenshot is not blank")
                faq_and_counts(page, variant, lang)
                if lang == "en":
                    walk_examples(page, native, variant)
                else:
                    # The boards do not depend on the language; the first
                    # position of each is compared again.
                    second = "red" if variant == "classic" else "white"
                    defs = {e["id"]: e for e in page.evaluate("window.mollettRules.examples")}
                    for view in page_examples(page):
                        ok, want = same(view, native_board(native, defs[view["id"]]["lines"][0]), second)
                        t.check(ok, f"{what} {view['id']}: board equals the native engine's", (view, want))

        # The switches: language in place (the address keeps it), rule set
        # by link; a wide screen lays the example beside its text.
        page.goto(base + "rules.html?variant=modern&lang=en")
        page.wait_for_selector(READY, timeout=30000)
        page.select_option("#lang", "pl")
        page.wait_for_function("document.documentElement.lang === 'pl'", timeout=10000)
        page.wait_for_selector(READY, timeout=30000)
        t.check("lang=pl" in page.url and page.locator("h1").text_content().startswith("Jak grać"),
                "the language switch changes the page and the address", page.url)
        page.click('nav.variants a[href*="classic"]')
        page.wait_for_selector(READY, timeout=30000)
        t.check(page.evaluate("document.body.dataset.variant") == "classic" and "lang=pl" in page.url,
                "the rule-set switch opens classic in the same language", page.url)
        page.set_viewport_size({"width": 1280, "height": 900})
        over = overflow(page)
        t.check(not over, "nothing overflows at 1280 px", over[:5])
        page.screenshot(path=os.path.join(SHOTS, "rules-classic-pl-desktop.png"), full_page=True)
        t.check(not errors, "no script errors", errors[:3])

        board_pages(browser, base)
        board_words(browser, base)

        # With no lang=, the browser's language decides; one we lack is English.
        for locale, want in [("de-DE", "de"), ("hi-IN", "hi"), ("fr-FR", "en")]:
            ctx = browser.new_context(locale=locale, viewport=PHONE)
            pg = ctx.new_page()
            pg.goto(base + "rules.html")
            pg.wait_for_selector(READY, timeout=30000)
            t.check(pg.evaluate("document.documentElement.lang") == want, f"browser language {locale} gives {want}")
            ctx.close()
        browser.close()
    native.close()
    t.exit()


if __name__ == "__main__":
    main()
