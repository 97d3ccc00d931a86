#!/usr/bin/env python3
"""The board page as a returning player uses it (issue 56), in Debian's
headless Chromium at desktop and phone width: going back through a pass,
an empty Load refused, every level answering with a clock and a working
Move now, a transcript after Edit board, the state while nothing thinks,
the move list following the ply, the Position after the game, no book
values without hints, the empty boxes saying so; then games kept and
shared: the address following the game (reload, Back/Forward, a copied
link), the current game kept across a closed tab, saved games reopened,
GGF and transcript files out and in (a WTHOR game round-trips).

    MOLLETT_WEB=target/web MOLLETT=target/ci/mollett python3 tests/browser/test_board.py
"""

import os
import re
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, Native, board_of, run_checks, serve  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
WTHOR = os.path.join(ROOT, "corpus", "wthor", "WTH_2010.wtb")
READY = '#status[data-state="human-to-move"], #status[data-state="game-over"]'
SIZES = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}
# The game: three passes, 61 plies, black moves last.
PASS_GAME = ("d3c5b6f3f4e3g3c4e6c6c3c2d6e2b2b3a2b5e1a3b4a1b1c1d1f1d2a4a5f6g6a6f5f2g1h1h3h4h5"
             "g2g5g4f7h6h2f8h7g7e8d8a7g8h8e7c8d7b7a8")
# The midgame position for level 18: 36 empties, black (the engine) to move.
LEVEL_POSITION = "f5d6c3d3c4f4e6f6e3c5c6b5d7e7b6b3f8c7a4c8d8f2a3a5"

t = Failures()


def split(moves):
    return [moves[i:i + 2] for i in range(0, len(moves), 2)]


def view(page):
    """What the player sees: discs by square, legal squares, the state, the
    transcript, the position string, the ply marked in the move list."""
    return page.evaluate("""() => {
        const discs = {}, legal = [], values = {};
        for (const el of document.querySelectorAll('[data-square]')) {
            if (el.dataset.disc) discs[el.dataset.square] = el.dataset.disc;
            if (el.hasAttribute('data-legal')) legal.push(el.dataset.square);
            const v = el.querySelector('.value');
            if (v && v.textContent) values[el.dataset.square] = v.textContent;
        }
        const cur = document.querySelector('.ply.current');
        return {discs, legal: legal.sort(), values,
                state: document.querySelector('#status').dataset.state,
                status: document.querySelector('#status').textContent,
                transcript: document.querySelector('#transcript').textContent,
                obf: document.querySelector('#obf').textContent,
                message: document.querySelector('#message').textContent,
                notes: document.querySelector('#notes').textContent,
                ply: cur ? +cur.dataset.ply : 0};
    }""")


def wait_ready(page, timeout=60000):
    page.wait_for_selector(READY, timeout=timeout)


def settle(page, ms=400):
    """Lets a refresh's job run, then waits for a position to be shown."""
    page.wait_for_timeout(ms)
    # As long as wait_ready: on two busy cores (CI, the suite before it) a
    # new Worker's first answer once took over 30 s here.
    page.wait_for_function("() => !['loading'].includes(document.querySelector('#status').dataset.state)",
                           timeout=60000)


def native_after(moves, variant="modern"):
    """The native engine's drawing after `moves` (passes added where due),
    and the number of plies with the passes."""
    native = Native(MOLLETT)
    native.must(f"newgame {variant}")
    plies = 0
    for mv in moves:
        if native.must("legal") == "pass":
            native.must("play pass")
            plies += 1
        native.must(f"play {mv}")
        plies += 1
    show = native.must("showboard")
    native.close()
    return show, plies


def same_board(page_view, show, second="white"):
    discs, _, _, _ = board_of(show)
    return page_view["discs"] == {sq: ("black" if c == "black" else second) for sq, c in discs.items()}


def click_move(page, mv):
    """A click on a square; returns once the move is in the transcript."""
    before = page.inner_text("#transcript")
    page.click(f'[data-square="{mv}"]')
    page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=before + mv)
    wait_ready(page)


def open_page(browser, base, query, size="desktop", context=None):
    ctx = context or browser.new_context(viewport=SIZES[size], has_touch=size == "phone", is_mobile=size == "phone")
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{base}{query}")
    return ctx, page


# ---- the bugs ----

def before_first_pass(moves):
    """The moves of `moves` before its first pass (the native engine's)."""
    native = Native(MOLLETT)
    native.must("newgame modern")
    for i, mv in enumerate(moves):
        if native.must("legal") == "pass":
            break
        native.must(f"play {mv}")
    native.close()
    return moves[:i]


def back_through_passes(browser, base):
    """1. ◀ (phone) and ← (desktop) go back one ply at a time through the
    passes to the start; a click on a ply of the move list shows that ply,
    the plies before a pass included. A pass is said while its ply, or the
    move right after it, is shown, and no longer: on the phone the page
    plays the game's first pass itself, and going back leaves no note of it."""
    _, whole = native_after(split(PASS_GAME))
    upto = "".join(before_first_pass(split(PASS_GAME)))
    for size, game, plies in (("desktop", PASS_GAME, whole), ("phone", upto, len(upto) // 2 + 1)):
        ctx, page = open_page(browser, base, f"?human=both&moves={game}", size)
        wait_ready(page)
        start = view(page)
        seen = [start["ply"]]
        for _ in range(plies + 5):
            if size == "desktop":
                page.keyboard.press("ArrowLeft")
            else:
                page.click("#back")
            settle(page, 60)
            seen.append(view(page)["ply"])
        steps_ok = all(b == max(a - 1, 0) for a, b in zip(seen, seen[1:]))
        t.check(start["ply"] == plies and steps_ok and seen[-1] == 0,
                f"{size}: back goes one ply at a time from {plies} through the passes to the start",
                str(seen))
        t.check("passes" not in view(page)["notes"], f"{size}: back at the start, no pass is said",
                f"{start['notes']!r} -> {view(page)['notes']!r}")
        # Every ply of the move list, the passes and the plies before them.
        wrong, notes = [], []
        moves = page.evaluate("() => [...document.querySelectorAll('.ply')].map(p => p.textContent.replace(/^\\d+\\. /, ''))")
        for ply in range(1, plies + 1):
            page.click(f'.ply[data-ply="{ply}"]')
            settle(page, 60)
            v = view(page)
            if v["ply"] != ply:
                wrong.append((ply, v["ply"]))
            if ("passes" in v["notes"]) != ("pass" in moves[max(ply - 2, 0):ply]):
                notes.append((ply, v["notes"]))
        t.check(not wrong, f"{size}: a click on each ply of the move list shows that ply", str(wrong[:5]))
        t.check(not notes and "pass" in moves, f"{size}: a pass is said at its ply and the next, at no other",
                str(notes[:5]))
        t.check(not page.errors, f"{size}: no page errors going back", "; ".join(page.errors))
        ctx.close()


def empty_load_refused(browser, base):
    """2. Load with an empty box says so and changes nothing."""
    game = PASS_GAME[:40]
    ctx, page = open_page(browser, base, f"?human=both&moves={game}")
    wait_ready(page)
    before = view(page)
    for text in ("", "   \n "):
        page.fill("#paste", text)
        page.click("#load")
        settle(page)
        after = view(page)
        t.check(after["transcript"] == game and after["discs"] == before["discs"] and after["ply"] == before["ply"],
                f"an empty Load ({text!r}) leaves the game as it was", after["transcript"])
        t.check("Nothing loaded" in after["message"], "an empty Load says that nothing was loaded", after["message"])
    page.click("#last")
    t.check(view(page)["transcript"] == game, "the game is still all there (▶|)")
    ctx.close()


def levels_answer(browser, base):
    """3. Every level states its time; level 18 at 36 empties moves within
    its cap with a clock counting; Move now during an endgame solve (no
    step reported yet) plays at once."""
    ctx, page = open_page(browser, base, f"?level=18&human=white&moves={LEVEL_POSITION}")
    labels = page.evaluate("() => [...document.querySelectorAll('#level option')].map(o => o.textContent)")
    stated = [label for label in labels if label.startswith("level ") and " s" in label]
    t.check(len(stated) == 60, "each of the 60 levels states its seconds a move", str(labels[17:19]))
    cap = page.evaluate("async () => (await import('./board/ops.js')).levelSeconds(18)")
    page.wait_for_selector('#status[data-state="engine-thinking"]', timeout=30000)
    started = time.time()
    page.wait_for_timeout(2500)
    clock1 = page.inner_text("#thinking")
    page.wait_for_timeout(1500)
    clock2 = page.inner_text("#thinking")
    t.check(f"at most {cap} s" in clock1 and clock1 != clock2,
            f"a clock counts while the engine thinks ({clock1.split('  ')[0]!r} then {clock2.split('  ')[0]!r})")
    page.wait_for_function("(n) => document.querySelector('#transcript').textContent.length > n",
                           arg=len(LEVEL_POSITION), timeout=(cap + 20) * 1000)
    took = time.time() - started
    played = view(page)["transcript"]
    native_after(split(played))  # raises if the move is illegal
    t.check(len(played) == len(LEVEL_POSITION) + 2 and took <= cap + 10,
            f"level 18 moves at 36 empties within its {cap} s cap ({played[-2:]} after about {took:.0f} s)")
    ctx.close()
    # Level 30 at the same position (a minute's cap): Move now one second
    # in plays at once.
    ctx, page = open_page(browser, base, f"?level=30&human=white&moves={LEVEL_POSITION}")
    page.wait_for_selector('#status[data-state="engine-thinking"]', timeout=30000)
    page.wait_for_timeout(1000)
    page.click("#move-now")
    try:
        page.wait_for_function("(n) => document.querySelector('#transcript').textContent.length > n",
                               arg=len(LEVEL_POSITION), timeout=8000)
        played = view(page)["transcript"]
        native_after(split(played))  # raises if illegal
        t.check(True, f"Move now a second into level 30's search plays at once ({played[-2:]}, legal natively)")
    except Exception as e:  # noqa: BLE001
        t.check(False, "Move now a second into level 30's search plays at once", str(e).split("\n")[0])
    ctx.close()


def transcript_after_edit(browser, base):
    """4. A transcript loaded after Edit board is read from the start."""
    ctx, page = open_page(browser, base, "?human=both")
    wait_ready(page)
    page.click("#edit")
    page.click('[data-square="e5"]')  # white's e5 taken off: f5 is illegal now
    # Every state the status shows from Done on, with e5's disc then: the
    # old position must not be offered for play while the engine takes
    # the edited one.
    page.evaluate("""() => { window.shown = []; const st = document.querySelector('#status');
        new MutationObserver(() => window.shown.push([st.dataset.state,
            document.querySelector('[data-square="e5"]').dataset.disc || ''])).observe(st, {attributes: true, childList: true}); }""")
    page.click("#setup-done")
    wait_ready(page)
    edited = view(page)
    shown = page.evaluate("() => window.shown")
    t.check(not any(state == "human-to-move" and disc for state, disc in shown),
            "after Done the old board is never offered for play", str(shown))
    page.fill("#paste", "f5d6c3")
    page.click("#load")
    page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5d6c3'", timeout=10000)
    wait_ready(page)
    show, _ = native_after(["f5", "d6", "c3"])
    after = view(page)
    t.check("e5" not in edited["discs"], "Done after Edit board shows the edited board once ready (e5 empty)",
            edited["status"])
    t.check(same_board(after, show), "a transcript after Edit board is read from the start position",
            f"{after['message']} {sorted(after['discs'].items())}")
    t.check("start position" in after["message"], "the message says it was read from the start", after["message"])
    ctx.close()


def nothing_thinks_after_back(browser, base):
    """5. Gone back to a ply where the engine is to move, the state says
    nothing thinks, and Move now has the engine play there."""
    ctx, page = open_page(browser, base, "?human=black&level=2&moves=f5d6c3")
    page.wait_for_function("() => document.querySelector('#transcript').textContent.length === 8", timeout=30000)
    wait_ready(page)
    page.click("#back")
    page.wait_for_timeout(1500)
    v = view(page)
    t.check(v["ply"] == 3 and v["state"] == "engine-to-move",
            "back at a ply where the engine is to move: data-state engine-to-move, not engine-thinking", v["state"])
    t.check(page.inner_text("#thinking") == "", "and no thinking line", page.inner_text("#thinking"))
    page.click("#move-now")
    page.wait_for_function("() => document.querySelector('.ply.current') && "
                           "document.querySelector('.ply.current').dataset.ply === '4'", timeout=20000)
    wait_ready(page)
    v = view(page)
    t.check(v["state"] == "human-to-move" and len(v["transcript"]) == 8,
            "Move now there has the engine play, and it is the human's turn", v["state"])
    ctx.close()


def engine_move_during_hints(browser, base):
    """Engine move while hints deepen (the Worker is restarted to stop
    them) plays a move of the position shown."""
    ctx, page = open_page(browser, base, f"?human=both&hints=1&hintdepth=30&moves={LEVEL_POSITION}")
    page.wait_for_function("() => /depth [3-9]/.test(document.querySelector('#hint-info').textContent)", timeout=30000)
    page.click("#engine-move")
    page.wait_for_function("(n) => document.querySelector('#transcript').textContent.length > n",
                           arg=len(LEVEL_POSITION), timeout=20000)
    played = view(page)["transcript"]
    try:
        native_after(split(played))
        ok = played.startswith(LEVEL_POSITION) and len(played) == len(LEVEL_POSITION) + 2
    except AssertionError:
        ok = False
    t.check(ok, f"Engine move while hints deepen plays a legal move of the position shown ({played[len(LEVEL_POSITION):]})")
    ctx.close()


def move_list_follows(browser, base):
    """7. The move list keeps the current ply in sight, desktop and phone."""
    for size in ("desktop", "phone"):
        ctx, page = open_page(browser, base, f"?human=both&moves={PASS_GAME}", size)
        wait_ready(page)
        inside = """() => { const l = document.querySelector('#moves').getBoundingClientRect();
            const c = document.querySelector('.ply.current');
            if (!c) return false; const r = c.getBoundingClientRect();
            return r.top >= l.top - 1 && r.bottom <= l.bottom + 1; }"""
        at_end = page.evaluate(inside)
        page.click('.ply[data-ply="2"]')
        settle(page)
        at_two = page.evaluate(inside)
        page.click("#last")
        settle(page)
        back_end = page.evaluate(inside)
        t.check(at_end and at_two and back_end,
                f"{size}: the current ply is in sight in the move list (end, ply 2, end)", f"{at_end} {at_two} {back_end}")
        ctx.close()


def position_after_the_game(browser, base):
    """7. After the game the Position string names nobody to move ("-",
    not "X"), and reads back as the same finished game."""
    ctx, page = open_page(browser, base, f"?human=both&moves={PASS_GAME}")
    wait_ready(page)
    v = view(page)
    side = v["obf"].split()[1] if v["obf"] else ""
    t.check(v["state"] == "game-over" and side == "-",
            f"after the game the Position names nobody to move ({v['obf'][-3:]!r})")
    page.fill("#paste", v["obf"])
    page.click("#load")
    settle(page)
    w = view(page)
    t.check(w["state"] == "game-over" and w["discs"] == v["discs"] and w["obf"] == v["obf"],
            "that Position reads back as the same finished game", w["message"])
    # "-" for a position that is not over is refused, nothing changed.
    page.fill("#paste", "---------------------------OX------XO--------------------------- -")
    page.click("#load")
    settle(page)
    x = view(page)
    t.check(x["discs"] == w["discs"] and "not loaded" in x["message"],
            "a position with nobody to move that is not over is refused", x["message"])
    ctx.close()


def no_book_values_without_hints(browser, base):
    """7. Hints off: no values on the board, not even the book's; hints on
    the book's values show."""
    ctx, page = open_page(browser, base, "?human=both")
    wait_ready(page)
    page.wait_for_timeout(1500)
    t.check(view(page)["values"] == {}, "hints off: no value on any square at the start (a book position)",
            str(view(page)["values"]))
    page.check("#hints")
    page.wait_for_function("() => document.querySelector('[data-square] .value:not(:empty)')", timeout=30000)
    t.check(len(view(page)["values"]) == 4, "hints on: the four first moves have values")
    page.uncheck("#hints")
    page.wait_for_timeout(500)
    t.check(view(page)["values"] == {}, "hints off again: the values go")
    # Nor does the graph show the engine's view (its curve, its points'
    # tooltips "ply 3: -10 (book)"), the values it had with hints on or
    # any it could find after two moves.
    page.click('[data-square="f5"]')
    page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5'")
    page.click('[data-square="d6"]')
    page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5d6'")
    page.wait_for_timeout(1500)
    graph = page.evaluate("""() => ({points: document.querySelector('#graph').dataset.points,
        shapes: document.querySelectorAll('#graph circle, #graph title, #graph path.eval').length})""")
    t.check(graph == {"points": "0", "shapes": 0}, "hints off: the graph has no value, point or curve", str(graph))
    page.check("#hints")
    page.wait_for_function("() => +document.querySelector('#graph').dataset.points >= 3", timeout=30000)
    t.check(page.locator("#graph path.eval").count() == 1, "hints on: the graph draws the engine's curve again")
    ctx.close()


def empty_boxes_say_so(browser, base):
    """7. At the start the move list and the transcript say there are no
    moves rather than showing bare bars."""
    for size in ("desktop", "phone"):
        ctx, page = open_page(browser, base, "?human=both", size)
        wait_ready(page)
        said = page.evaluate("""() => ['#moves', '#transcript'].map(s =>
            getComputedStyle(document.querySelector(s), '::before').content)""")
        t.check(all("No moves yet" in s for s in said), f"{size}: the empty move list and transcript say so", str(said))
        page.click('[data-square="f5"]')
        page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f5'")
        said = page.evaluate("""() => getComputedStyle(document.querySelector('#transcript'), '::before').content""")
        t.check(said in ("none", "normal", ""), f"{size}: with a move the placeholder goes", said)
        ctx.close()


# ---- games kept and shared ----

def address_follows(browser, base):
    """Reload, Back and Forward land on the same position; the address
    names the variant, the moves and the ply."""
    for size in ("desktop", "phone"):
        ctx, page = open_page(browser, base, "?human=both", size)
        wait_ready(page)
        for mv in ("f5", "d6", "c3", "d3"):
            click_move(page, mv)
        page.click("#back")
        settle(page)
        before = view(page)
        url = page.url
        t.check("moves=f5d6c3d3" in url and "ply=3" in url and "variant=modern" in url,
                f"{size}: the address names the moves and the ply shown", url)
        page.reload()
        wait_ready(page)
        after = view(page)
        t.check(after["ply"] == 3 and after["discs"] == before["discs"] and page.url == url,
                f"{size}: a reload shows the same ply of the same game", f"{after['ply']} {page.url}")
        page.click("#last")
        settle(page)
        page.go_back()
        settle(page)
        t.check(view(page)["ply"] == 3 and page.url == url, f"{size}: browser Back goes to the ply before", page.url)
        page.go_back()
        settle(page)
        t.check(view(page)["ply"] == 4, f"{size}: Back again: the ply before that (the last move)", str(view(page)["ply"]))
        page.go_back()
        settle(page)
        t.check(view(page)["ply"] == 3 and "/?" in page.url, f"{size}: and again, still on the page", page.url)
        page.go_forward()
        settle(page)
        t.check(view(page)["ply"] == 4, f"{size}: Forward comes back", str(view(page)["ply"]))
        t.check(not page.errors, f"{size}: no page errors", "; ".join(page.errors))
        ctx.close()


def share_link(browser, base):
    """Share copies the address; the link opened elsewhere shows the same
    position. Without the clipboard the link is shown to copy."""
    ctx = browser.new_context(viewport=SIZES["desktop"])
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base.rstrip("/"))
    _, page = open_page(browser, base, f"?variant=classic&human=both&moves=d4e5d5e4f4", context=ctx)
    wait_ready(page)
    page.click('.ply[data-ply="4"]')
    settle(page)
    shown = view(page)
    page.click("#share")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('copied')")
    link = page.evaluate("() => navigator.clipboard.readText()")
    other = browser.new_context(viewport=SIZES["phone"], is_mobile=True, has_touch=True)
    _, copy = open_page(browser, base, link.replace(base, ""), context=other)
    wait_ready(copy)
    got = view(copy)
    t.check(got["ply"] == 4 and got["discs"] == shown["discs"] and got["transcript"] == "d4e5d5e4"
            and copy.evaluate("() => document.body.dataset.variant") == "classic",
            "a shared link opens the same position of the same game elsewhere", link)
    other.close()
    ctx.close()
    ctx, page = open_page(browser, base, "?human=both&moves=f5d6")
    wait_ready(page)
    page.evaluate("() => { Object.defineProperty(navigator, 'clipboard', {value: undefined}); }")
    page.click("#share")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('http')")
    t.check("moves=f5d6" in view(page)["message"], "without a clipboard the link is shown", view(page)["message"])
    ctx.close()


def current_game_kept(browser, base):
    """The game survives closing the tab: the bare address brings it back."""
    ctx, page = open_page(browser, base, "?human=both")
    wait_ready(page)
    for mv in ("f5", "f6", "e6"):
        click_move(page, mv)
    before = view(page)
    page.close()
    _, page = open_page(browser, base, "", context=ctx)
    wait_ready(page)
    after = view(page)
    t.check(after["transcript"] == "f5f6e6" and after["discs"] == before["discs"],
            "the game is back after the tab was closed", after["transcript"])
    t.check("last game" in after["message"], "and the page says so", after["message"])
    page.click("#new-modern")
    settle(page)
    t.check(view(page)["transcript"] == "", "New game starts afresh")
    ctx.close()


def saved_games(browser, base):
    """A saved game is listed (name, date, result), reopens equal (moves,
    ply, position), and is deleted; the list survives a reload."""
    ctx, page = open_page(browser, base, f"?human=both&moves={PASS_GAME}", "phone")
    wait_ready(page)
    page.click('.ply[data-ply="50"]')
    settle(page)
    saved = view(page)
    page.fill("#game-name", "the pass game")
    page.click("#save-game")
    page.goto(f"{base}?human=both&moves=f5d6c3")
    wait_ready(page)
    page.click("#save-game")
    page.reload()
    wait_ready(page)
    rows = page.evaluate("""() => [...document.querySelectorAll('#saved-list li')].map(li => ({
        name: li.querySelector('.open').textContent, date: li.querySelector('time').dateTime,
        result: li.querySelector('.result').textContent}))""")
    t.check(len(rows) == 2 and rows[1]["name"] == "the pass game" and rows[1]["date"][:4].isdigit()
            and "wins" in rows[1]["result"] and "unfinished" in rows[0]["result"],
            "two saved games listed with name, date and result", str(rows))
    page.click("#new-classic")
    settle(page)
    page.click("#saved summary")
    page.click('#saved-list li:nth-child(2) .open')
    page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=saved["transcript"])
    settle(page)
    back = view(page)
    t.check(back["ply"] == 50 and back["discs"] == saved["discs"] and back["obf"] == saved["obf"],
            "a saved game reopens equal: the same moves, ply and position", f"ply {back['ply']}")
    page.click('#saved-list li:nth-child(1) .delete')
    page.reload()
    wait_ready(page)
    names = page.evaluate("() => [...document.querySelectorAll('#saved-list .open')].map(b => b.textContent)")
    t.check(names == ["the pass game"], "a deleted game stays deleted after a reload", str(names))
    ctx.close()


def wthor_game_with_pass():
    """The first game of WTHOR 2010 with a pass, as squares."""
    data = open(WTHOR, "rb").read()
    count = struct.unpack("<I", data[4:8])[0]
    native = Native(MOLLETT)
    try:
        for g in range(min(count, 400)):
            raw = data[16 + 68 * g + 8:16 + 68 * (g + 1)]
            moves = ["abcdefgh"[b % 10 - 1] + str(b // 10) for b in raw if b]
            native.must("newgame modern")
            passes = 0
            for mv in moves:
                if native.must("legal") == "pass":
                    native.must("play pass")
                    passes += 1
                native.must(f"play {mv}")
            if passes and native.must("showboard").split("\n")[9] == "game over":
                return moves
    finally:
        native.close()
    raise AssertionError("no WTHOR 2010 game with a pass in the first 400")


def files_round_trip(browser, base):
    """GGF out and in round-trips a WTHOR game (a pass in it); a transcript
    file too; a set-up game's transcript file keeps its position."""
    moves = wthor_game_with_pass()
    game = "".join(moves)
    show, plies = native_after(moves)
    ctx, page = open_page(browser, base, f"?human=both&moves={game}")
    wait_ready(page)
    with tempfile.TemporaryDirectory() as tmp:
        with page.expect_download() as dl:
            page.click("#download-ggf")
        ggf = os.path.join(tmp, "game.ggf")
        dl.value.save_as(ggf)
        with page.expect_download() as dl:
            page.click("#download-transcript")
        txt = os.path.join(tmp, "game.txt")
        dl.value.save_as(txt)
        text = open(ggf).read()
        t.check(text.count("PA") >= 1 and "".join(m.lower() for m in re.findall(r"[BW]\[([A-H][1-8])", text)) == game,
                f"the GGF written holds the WTHOR game's {len(moves)} moves and its pass", text[:80])
        t.check(open(txt).read().strip() == game, "the transcript file holds the moves")
        for name, path in (("GGF", ggf), ("transcript", txt)):
            fresh = browser.new_context(viewport=SIZES["phone"], is_mobile=True, has_touch=True)
            _, p2 = open_page(browser, base, "?human=both", context=fresh)
            wait_ready(p2)
            p2.set_input_files("#open-file", path)
            p2.wait_for_function("(t) => document.querySelector('#transcript').textContent === t", arg=game, timeout=30000)
            wait_ready(p2)
            v = view(p2)
            t.check(same_board(v, show) and v["state"] == "game-over" and v["ply"] == plies,
                    f"the {name} file opened in a fresh browser is the same game ({plies} plies, the board native)",
                    v["message"])
            fresh.close()
        # A set-up game: its position and moves come back from its file.
        page.goto(f"{base}?human=both")
        wait_ready(page)
        board = ["-"] * 64
        for sq, c in (("d4", "O"), ("e4", "X"), ("d5", "X"), ("e5", "X"), ("f5", "X")):
            board["abcdefgh".index(sq[0]) + 8 * (int(sq[1]) - 1)] = c
        setup = "".join(board) + " O"  # white to move: f6 is legal
        page.fill("#paste", setup)
        page.click("#load")
        # The page was already ready (the kept game came back with the
        # address): wait for the set-up position itself, with no moves.
        page.wait_for_function("() => document.querySelector('#transcript').textContent === ''")
        wait_ready(page)
        click_move(page, "f6")
        shown = view(page)
        with page.expect_download() as dl:
            page.click("#download-transcript")
        dl.value.save_as(txt)
        page.click("#new-modern")
        settle(page)
        page.set_input_files("#open-file", txt)
        page.wait_for_function("() => document.querySelector('#transcript').textContent === 'f6'", timeout=10000)
        wait_ready(page)
        t.check(view(page)["discs"] == shown["discs"], "a set-up game's transcript file opens its position and moves",
                open(txt).read())
    ctx.close()


def main():
    if not os.path.isfile(os.path.join(SITE, "index.html")):
        print(f"FAIL no {SITE}/index.html: run scripts/web/build.sh first")
        sys.exit(1)
    base = serve(SITE)
    checks = [back_through_passes, empty_load_refused, levels_answer, transcript_after_edit,
              nothing_thinks_after_back, engine_move_during_hints, move_list_follows, position_after_the_game,
              no_book_values_without_hints, empty_boxes_say_so, address_follows, share_link,
              current_game_kept, saved_games, files_round_trip]
    run_checks(t, checks, base)


if __name__ == "__main__":
    main()
