#!/usr/bin/env python3
"""Rooms (issue 55, docs/rooms.md) as people use them: mollett-server
started here on a free loopback port with a fresh database, and browser
contexts as people on their own devices. Two people play a whole classic and
a whole modern game by clicks, and after every ply both boards are the
native engine's board for the transcript; an undo asked and declined changes
nothing, accepted takes back one move on both boards; a third person
watches and cannot move, not even by a message of their own; a reload and a
server killed with kill -9 and started again both carry on; a rematch swaps
the seats; a room made from the board page in Polish is Polish for both
players; screenshots at phone width; and `mollett room-play` seats the
native engine, which a browser plays to the end.

    MOLLETT=target/ci/mollett MOLLETT_WEB=target/web python3 tests/browser/test_rooms.py

The server binary is MOLLETT_SERVER, else target/ci/mollett-server, else
target/release/mollett-server.
"""

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, Native, board_of, launch, png_colours  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
SHOTS = os.environ.get("MOLLETT_SHOTS", os.path.join(ROOT, "target", "web-shots"))
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
SETTLED = ("human-to-move", "opponent-to-move", "watching", "game-over")

t = Failures()


def server_binary():
    for path in (os.environ.get("MOLLETT_SERVER"),
                 os.path.join(ROOT, "target", "ci", "mollett-server"),
                 os.path.join(ROOT, "target", "release", "mollett-server")):
        if path and os.access(path, os.X_OK):
            return path
    sys.exit("test_rooms: no mollett-server binary (cargo build --profile ci -p mollett-server)")


class Server:
    """mollett-server on a free port of 127.0.0.1, its database in a
    temporary folder that outlives a kill -9 (a restart reads it back)."""

    def __init__(self, extra=()):
        self.binary = server_binary()
        self.extra = list(extra)  # more flags (test_room_features.py: --claim-after)
        self.dir = tempfile.mkdtemp(prefix="mollett-rooms-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}/"
        self.proc = None
        self.start()

    def start(self):
        self.log = open(os.path.join(self.dir, "server.log"), "ab")
        self.proc = subprocess.Popen(
            [self.binary, "--addr", f"127.0.0.1:{self.port}", "--db", os.path.join(self.dir, "rooms.db"),
             "--site", SITE,
             # Every room here is made from 127.0.0.1: more than one
             # address's burst (docs/rooms.md, Limits).
             "--rooms-burst", "100", *self.extra], stdout=self.log, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.base, timeout=2).read()
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        sys.exit(f"test_rooms: the server did not start:\n{self.log_text()}")

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log.close()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def log_text(self):
        with open(os.path.join(self.dir, "server.log"), "rb") as f:
            return f.read().decode(errors="replace")[-3000:]

    def get(self, path):
        with urllib.request.urlopen(self.base + path.lstrip("/"), timeout=10) as r:
            return r.read().decode()


def view(page):
    """What a person sees: discs by square, legal squares, the status."""
    return page.evaluate("""() => {
        const discs = {}, legal = [];
        for (const el of document.querySelectorAll('[data-square]')) {
            if (el.dataset.disc) discs[el.dataset.square] = el.dataset.disc;
            if (el.hasAttribute('data-legal')) legal.push(el.dataset.square);
        }
        const st = document.querySelector('#status');
        return {discs, legal: legal.sort(), state: st.dataset.state, seat: st.dataset.seat,
                status: st.textContent, transcript: document.querySelector('#transcript').textContent};
    }""")


def wait_settled(page, transcript, timeout=30000):
    """Until the page shows `transcript` and a settled state (not loading,
    not reconnecting, no move on its way)."""
    page.wait_for_function(
        "([t, ok]) => document.querySelector('#transcript').textContent === t && "
        "ok.includes(document.querySelector('#status').dataset.state) && "
        "!/Move sent/.test(document.querySelector('#status').textContent)",
        arg=[transcript, list(SETTLED)], timeout=timeout)


def native_view(native, variant, transcript):
    """The native engine's discs and legal squares after a transcript
    (passes left out, played where forced), and whether the game is over."""
    native.must(f"newgame {variant}")
    for i in range(0, len(transcript), 2):
        if native.must("legal") == "pass":
            native.must("play pass")
        native.must(f"play {transcript[i:i + 2]}")
    passed = native.must("legal") == "pass"
    if passed:
        native.must("play pass")
    discs, legal, status, counts = board_of(native.must("showboard"))
    second = "red" if variant == "classic" else "white"
    over = native.must("legal") == ""
    return {sq: ("black" if c == "black" else second) for sq, c in discs.items()}, legal, over, counts, passed and not over


PASSES = []  # (variant, transcript) where a forced pass was checked on the pages


def check_boards(native, variant, transcript, players, watchers, what):
    """Every page shows the native board; only the mover's page marks the
    native legal squares, every other page none."""
    discs, legal, over, _, passed = native_view(native, variant, transcript)
    ok = True
    for page in players + watchers:
        v = view(page)
        ok &= v["discs"] == discs
        # A forced pass is announced on every page.
        ok &= not passed or "has no move and passes" in page.text_content("#message")
        if v["state"] == "human-to-move":
            ok &= page in players and v["legal"] == legal and not over
        else:
            ok &= v["legal"] == []
        ok &= (v["state"] == "game-over") == over
    movers = [p for p in players if view(p)["state"] == "human-to-move"]
    ok &= len(movers) == (0 if over else 1)
    if passed:
        PASSES.append((variant, transcript))
    return ok, over


def mover(players):
    """The player page whose turn it is (None when the game is over)."""
    for page in players:
        if view(page)["state"] == "human-to-move":
            return page
    return None


def play_ply(page, rng, players, watchers, transcript):
    """The mover clicks one of its legal squares; every page shows it."""
    sq = rng.choice(view(page)["legal"])
    page.click(f'[data-square="{sq}"]')
    transcript += sq
    for p in players + watchers:
        wait_settled(p, transcript)
    return transcript


def create_room(page, base, variant, color):
    page.goto(f"{base}?room=new&variant={variant}&color={color}")
    page.wait_for_function("document.querySelector('#room-link').textContent.includes('room=')", timeout=15000)
    link = page.text_content("#room-link")
    room = link.split("room=")[1]
    return link, room


def forged_move(page, base, room, token, square, ply):
    """A message of one's own, as anyone could send from the console: the
    server's answer to a move with `token` (None: a newcomer)."""
    return page.evaluate("""([url, token, square, ply]) => new Promise((done) => {
        const ws = new WebSocket(url);
        ws.onopen = () => ws.send(JSON.stringify({type: 'hello', token}));
        ws.onmessage = (e) => {
            const m = JSON.parse(e.data);
            if (m.type === 'welcome') ws.send(JSON.stringify({type: 'move', square, ply}));
            else if (m.type === 'error') { ws.close(); done(m.code); }
        };
        setTimeout(() => done('no answer'), 5000);
    })""", [base.replace("http", "ws") + f"ws/{room}", token, square, ply])


def audit(page, where):
    """axe-core (npm, target/axe, installed by scripts/browser-tests.sh) on
    the room page: no serious or critical violation."""
    axe = os.path.join(ROOT, "target", "axe", "node_modules", "axe-core", "axe.min.js")
    if not t.part("axe", os.path.isfile(axe), f"axe-core on the room page ({where}) is installed",
                  f"no {axe}: npm install --prefix target/axe axe-core (scripts/browser-tests.sh does)"):
        return
    page.add_script_tag(path=axe)
    found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']}).then("
                          "r => r.violations.map(v => [v.id, v.impact, v.nodes.length]))")
    serious = [v for v in found if v[1] in ("serious", "critical")]
    t.check(not serious, f"axe-core on the room page ({where}): no serious or critical violations", str(serious))


def shot(page, name):
    os.makedirs(SHOTS, exist_ok=True)
    page.set_viewport_size(PHONE)
    path = os.path.join(SHOTS, f"room-{name}.png")
    data = page.screenshot(path=path, full_page=True)
    t.check(png_colours(data) > 8, f"screenshot {name} at phone width is drawn", path)


def classic_game(browser, server, native):
    """Classic by clicks, with undo, a spectator, a reload, a server restart
    and a rematch."""
    base = server.base
    rng = random.Random(55)
    a_ctx, b_ctx, c_ctx = browser.new_context(), browser.new_context(viewport=PHONE), browser.new_context()
    a, b, c = a_ctx.new_page(), b_ctx.new_page(), c_ctx.new_page()
    errors = []
    for p in (a, b, c):
        p.on("pageerror", lambda e: errors.append(str(e)))
    link, room = create_room(a, base, "classic", "black")
    t.check(link == f"{base}?room={room}" and len(room) == 32, "classic: #room-link is the room's full URL", link)
    t.check(a.url == link, "classic: the address became the room's link", a.url)
    token_a = a.evaluate(f"localStorage.getItem('mollett-room-{room}')")
    t.check(bool(token_a) and len(token_a) >= 32, "classic: the creator's token is kept in localStorage")
    a.wait_for_selector('#status[data-state="waiting"]', timeout=15000)
    t.check(view(a)["seat"] == "black" and view(a)["legal"] == [], "classic: creator is black and waits, no legal squares")
    b.goto(link)
    for p in (a, b):
        wait_settled(p, "")
    c.goto(link)
    wait_settled(c, "")
    t.check(view(b)["seat"] == "red", "classic: the link's opener takes red", view(b)["seat"])
    t.check(view(c)["seat"] == "spectator" and view(c)["state"] == "watching", "classic: a third person watches", str(view(c)))
    players, watchers = [a, b], [c]
    transcript = ""
    all_ok = True
    ok, _ = check_boards(native, "classic", transcript, players, watchers, "start")
    all_ok &= ok
    for _ in range(12):
        transcript = play_ply(mover(players), rng, players, watchers, transcript)
        ok, _ = check_boards(native, "classic", transcript, players, watchers, transcript)
        all_ok &= ok

    # A spectator's own message, and a player's out of turn, are refused.
    legal = view(mover(players))["legal"]
    code = forged_move(c, base, room, None, legal[0], len(transcript) // 2)
    t.check(code == "no-seat", "classic: a spectator's forged move is refused (no-seat)", code)
    waiting = [p for p in players if p is not mover(players)][0]
    token_w = waiting.evaluate(f"localStorage.getItem('mollett-room-{room}')")
    code = forged_move(c, base, room, token_w, legal[0], len(transcript) // 2)
    t.check(code == "not-your-turn", "classic: a move out of turn with the seat's own token is refused", code)
    time.sleep(0.3)
    ok, _ = check_boards(native, "classic", transcript, players, watchers, "after forgeries")
    t.check(ok and all(view(p)["transcript"] == transcript for p in players + watchers),
            "classic: the forged messages changed nothing")

    # Undo: asked and declined changes nothing; asked and accepted takes back one move.
    last = [p for p in players if p is not mover(players)][0]  # who made the last move
    other = mover(players)
    last.click("#room-undo")
    other.wait_for_selector("#room-decline:visible", timeout=10000)
    other.click("#room-decline")
    last.wait_for_function("() => !window.mollett.state.undo", timeout=10000)
    for p in players + watchers:
        wait_settled(p, transcript)
    ok, _ = check_boards(native, "classic", transcript, players, watchers, "undo declined")
    t.check(ok, "classic: an undo asked and declined changes nothing on any board")
    last.click("#room-undo")
    other.wait_for_selector("#room-accept:visible", timeout=10000)
    other.click("#room-accept")
    transcript = transcript[:-2]
    for p in players + watchers:
        wait_settled(p, transcript)
    ok, _ = check_boards(native, "classic", transcript, players, watchers, "undo accepted")
    t.check(ok and mover(players) is last, "classic: an undo accepted takes back one move on both boards, the asker moves again")

    # A reload carries on in the same seat.
    for _ in range(4):
        transcript = play_ply(mover(players), rng, players, watchers, transcript)
    b.reload()
    wait_settled(b, transcript)
    t.check(view(b)["seat"] == "red", "classic: a reload keeps the seat", view(b)["seat"])
    for _ in range(4):
        transcript = play_ply(mover(players), rng, players, watchers, transcript)
        ok, _ = check_boards(native, "classic", transcript, players, watchers, transcript)
        all_ok &= ok
    t.check(all_ok, "classic: after every ply so far both boards (and the watcher's) are the native board")
    shot(a, "classic-black")
    audit(b, "a player to move, phone width")
    shot(b, "classic-red")

    # The server killed and started again: both pages carry on by themselves.
    server.kill9()
    a.wait_for_selector('#status[data-state="connecting"]', timeout=15000)
    t.check(view(a)["legal"] == [], "classic: no legal squares while the server is away")
    server.start()
    for p in players + watchers:
        wait_settled(p, transcript, timeout=40000)
    ok, _ = check_boards(native, "classic", transcript, players, watchers, "after restart")
    t.check(ok, "classic: after kill -9 and a restart every board is as it was, and the game goes on")
    all_ok = True
    over = False
    while not over:
        transcript = play_ply(mover(players), rng, players, watchers, transcript)
        ok, over = check_boards(native, "classic", transcript, players, watchers, transcript)
        all_ok &= ok
    t.check(all_ok, "classic: played to the end, every ply on both boards the native board")
    _, _, _, counts, _ = native_view(native, "classic", transcript)
    words = counts.split()  # "black B red R supply ..."
    black, red = int(words[1]), int(words[3])
    hi, lo = max(black, red), min(black, red)
    # Each seat reads its own result, the watcher who won; all the score.
    if black == red:
        said = {a: f"Draw {hi}-{lo}", b: f"Draw {hi}-{lo}", c: f"a draw, {hi}-{lo}"}
    else:
        won, lost = (a, b) if black > red else (b, a)
        said = {won: f"You won {hi}-{lo}", lost: f"You lost {lo}-{hi}",
                c: f"{'Black' if black > red else 'Red'} wins {hi}-{lo}"}
    t.check(all(said[p] in view(p)["status"] for p in players + watchers),
            "classic: each player reads 'You won' / 'You lost' / 'Draw' with the score, the watcher who won",
            f"{counts} / {[view(p)['status'] for p in players + watchers]}")
    t.check(server.get(f"/api/rooms/{room}/game.txt").strip() == transcript, "classic: game.txt is the transcript")
    ggf = server.get(f"/api/rooms/{room}/game.ggf")
    t.check("(;" in ggf and transcript[:2].upper() in ggf.upper(), "classic: game.ggf is a GGF record of the game")
    href = a.get_attribute("#room-open", "href")
    t.check(href.endswith(f"?variant=classic&moves={transcript}"), "classic: Open on the board links the transcript", href)
    shot(a, "classic-over")
    audit(a, "a player, game over")
    audit(c, "a spectator")

    # Rematch: both offer, a new game starts with the colours swapped.
    a.click("#room-rematch")
    b.wait_for_selector("#room-rematch:visible", timeout=10000)
    b.click("#room-rematch")
    for p in players:
        wait_settled(p, "")
    t.check(view(a)["seat"] == "red" and view(b)["seat"] == "black" and mover(players) is b,
            "classic: a rematch swaps the colours", f"{view(a)['seat']} {view(b)['seat']}")
    b_ctx.close()
    a.wait_for_selector('.seat[data-colour="black"][data-presence="away"]', timeout=10000)
    t.check(True, "classic: a player who leaves is shown away")
    t.check(not errors, "classic: no page errors", "; ".join(errors[:3]))
    a_ctx.close()
    c_ctx.close()


def modern_game(browser, server, native):
    """Modern by clicks, the creator taking white; both boards after every
    ply. The seed's game has two forced passes, each announced on both pages."""
    rng = random.Random(2)
    a_ctx, b_ctx = browser.new_context(viewport=PHONE), browser.new_context()
    a, b = a_ctx.new_page(), b_ctx.new_page()
    link, room = create_room(a, server.base, "modern", "white")
    b.goto(link)
    for p in (a, b):
        wait_settled(p, "")
    t.check(view(a)["seat"] == "white" and view(b)["seat"] == "black", "modern: creator white, opener black")
    transcript, over, all_ok = "", False, True
    while not over:
        transcript = play_ply(mover([a, b]), rng, [a, b], [], transcript)
        ok, over = check_boards(native, "modern", transcript, [a, b], [], transcript)
        all_ok &= ok
    t.check(all_ok, f"modern: a whole game ({len(transcript) // 2} moves) by clicks, both boards the native board after every ply")
    t.check(sum(v == "modern" for v, _ in PASSES) == 2, "modern: both forced passes announced on both pages", str(PASSES))
    shot(a, "modern-white")
    shot(b, "modern-black")
    a_ctx.close()
    b_ctx.close()


# A name written right to left that ends in a neutral character: shown as
# its writer wrote it ("!" at its left) only inside an isolate of its own;
# without one the "!" joins the label's left-to-right text beside it.
RTL_NAME = "\u05e9\u05dc\u05d5\u05dd!"


def seat_name(page, colour):
    """The seat's label as a user sees it: its text, the name's element,
    and where the name's first letter, its "!" and the label's "(" are
    drawn."""
    return page.evaluate("""(colour) => {
        const label = document.querySelector(`.seat[data-colour="${colour}"] b`);
        const iso = label.querySelector('bdi, [dir="auto"]');
        if (!iso) return {text: label.textContent, isolated: false};
        const r = document.createRange();
        const box = (node, i) => { r.setStart(node, i); r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
        const name = iso.firstChild, after = iso.nextSibling;
        const first = box(name, 0), bang = box(name, name.data.length - 1);
        const paren = box(after, after.data.indexOf('('));
        return {text: label.textContent, isolated: true, name: iso.textContent,
                bangLeft: bang.right <= first.left + 0.5, parenRight: paren.left >= iso.getBoundingClientRect().right - 0.5};
    }""", colour)


def on_screen(page, sel):
    """Whether `sel` is drawn wholly inside the viewport (and not scrolled to)."""
    return page.evaluate("""(sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    }""", sel)


def player_view(browser, server):
    """What a player meets in a room (issue 77), black on a phone held
    upright, white on one held sideways, and a watcher: no board-page
    control that does nothing (navigation, Undo/Redo) under the board, the
    room's own "Ask to undo" instead; the name field for seats only; a
    right-to-left name isolated from the label around it; and a
    resignation that says who won, to each seat as "You won" / "You lost",
    with no disc score as if the discs had decided it."""
    a_ctx, b_ctx, c_ctx = (browser.new_context(viewport=v) for v in (PHONE, LANDSCAPE, PHONE))
    a, b, c = a_ctx.new_page(), b_ctx.new_page(), c_ctx.new_page()
    errors = []
    for p in (a, b, c):
        p.on("pageerror", lambda e: errors.append(str(e)))
    link, room = create_room(a, server.base, "modern", "black")
    b.goto(link)
    for p in (a, b):
        wait_settled(p, "")
    c.goto(link)
    wait_settled(c, "")
    pages = (("black, portrait", a), ("white, landscape", b), ("watcher, portrait", c))
    nav = "#first, #back, #forward, #last, #undo, #redo"
    for who, page in pages:
        shown = page.eval_on_selector_all(nav, "els => els.filter((e) => e.getClientRects().length).map((e) => e.id)")
        t.check(shown == [], f"player view ({who}): the board page's navigation and Undo/Redo are not shown", str(shown))
    t.check(all(p.is_visible("#room-undo") for p in (a, b)) and c.is_hidden("#room-undo"),
            "player view: the seats have the room's 'Ask to undo', the watcher none")
    t.check(a.is_visible("#room-name") and b.is_visible("#room-name") and on_screen(b, "#status"),
            "player view: both seats have the name field")
    t.check(c.is_hidden("#room-name") and c.is_hidden("#room-name-set"),
            "player view: the watcher has no name field (the server refuses a watcher's name)")

    a.fill("#room-name", RTL_NAME)
    a.click("#room-name-set")
    for p in (a, b, c):
        p.wait_for_function("(n) => document.querySelector('.seat[data-colour=\"black\"]').textContent.includes(n)",
                            arg=RTL_NAME, timeout=10000)
    for who, page, label in (("the named player", a, f"{RTL_NAME} (black, you)"), ("the other player", b, f"{RTL_NAME} (black)"),
                             ("the watcher", c, f"{RTL_NAME} (black)")):
        got = seat_name(page, "black")
        t.check(got["text"] == label and got.get("isolated") and got["name"] == RTL_NAME and got["bangLeft"] and got["parenRight"],
                f"player view ({who}): a right-to-left name is drawn isolated, as written, left of the label's own words", str(got))

    # Both sides place a disc (resign, not abort), then white resigns.
    tr = ""
    for mover, other in ((a, b), (b, a)):
        sq = view(mover)["legal"][0]
        mover.click(f'[data-square="{sq}"]')
        tr += sq
        for p in (a, b, c):
            wait_settled(p, tr)
    b.click("#room-resign")
    b.click("#room-resign")
    for p in (a, b, c):
        p.wait_for_selector('#status[data-state="game-over"]', timeout=10000)
    said = {p: view(p)["status"] for p in (a, b, c)}
    want = {a: "Game over: You won (White resigned).", b: "Game over: You lost (White resigned).",
            c: "Game over: Black wins (White resigned)."}
    for who, page in pages:
        t.check(said[page] == want[page] and not re.search(r"\d+-\d+", said[page]),
                f"player view ({who}): the resignation says who won and why, no disc score", said[page])
        t.check(on_screen(page, "#status") and on_screen(page, "#board"),
                f"player view ({who}): the result and the board on the first screen")
    shot_as = {a: "portrait", b: "landscape"}
    for page, shape in shot_as.items():
        os.makedirs(SHOTS, exist_ok=True)
        data = page.screenshot(path=os.path.join(SHOTS, f"room-resigned-{shape}.png"))
        t.check(png_colours(data) > 8, f"player view: screenshot of the end, {shape}")
    audit(b, "a seat named right to left, landscape, game over")
    audit(c, "a watcher, portrait, game over")
    t.check(not errors, "player view: no page errors", "; ".join(errors[:3]))
    for ctx in (a_ctx, b_ctx, c_ctx):
        ctx.close()


FAKE = os.path.join(ROOT, "tests", "data", "fake_gtp.py")


def room_play(browser, server, native, spec, what, restart=False):
    """`mollett room-play` seats an engine; a browser plays it to the end
    (with `restart`, the server is killed with kill -9 and started again at
    the browser's turn after 20 moves: the engine's seat reconnects too)."""
    rng = random.Random(3)
    ctx = browser.new_context()
    a = ctx.new_page()
    link, room = create_room(a, server.base, "modern", "black")
    engine = subprocess.Popen([MOLLETT, "room-play", "--room", link, "--engine", spec],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    transcript, all_ok, over, restarted = "", True, False, False
    while not over:
        # The browser's turn (or the end) comes after the engine's reply.
        a.wait_for_function(
            "(t) => document.querySelector('#transcript').textContent.startsWith(t) && "
            "['human-to-move', 'game-over'].includes(document.querySelector('#status').dataset.state)",
            arg=transcript, timeout=60000)
        transcript = view(a)["transcript"]
        ok, over = check_boards(native, "modern", transcript, [a], [], transcript)
        all_ok &= ok
        if restart and len(transcript) == 20:
            # An engine's seat declines a takeback, every time it is asked.
            for _ in range(2):
                a.click("#room-undo")
                time.sleep(1)
                undo = a.evaluate("window.mollett.state.undo")
                t.check(undo is None and view(a)["transcript"] == transcript and view(a)["state"] == "human-to-move",
                        "room-play: the engine's seat declines an undo, nothing changes", str(undo))
        if restart and not restarted and len(transcript) >= 40 and not over:
            restarted = True
            server.kill9()
            server.start()
            wait_settled(a, transcript, timeout=40000)
        if not over:
            sq = rng.choice(view(a)["legal"])
            a.click(f'[data-square="{sq}"]')
            transcript += sq
    t.check(all_ok, f"room-play {what}: a whole game against the engine ({len(transcript) // 2} moves), the board the native board at every turn of the browser")
    try:
        out, err = engine.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        engine.kill()
        out, err = engine.communicate()
    t.check(engine.returncode == 0 and "game over" in err and out == "" and restarted == ("reconnecting" in err)
            and err.count("declined") == (2 if restart else 0),
            f"room-play {what}: ends by itself at the end, the result on stderr, stdout quiet", f"rc {engine.returncode} {err!r}")
    full = subprocess.run([MOLLETT, "room-play", "--room", link, "--engine", f"cmd={MOLLETT}"],
                          capture_output=True, text=True, timeout=30)
    t.check(full.returncode != 0 and len(full.stderr.strip().splitlines()) == 1 and "seat" in full.stderr,
            "room-play: a room without a free seat is one error line and a failure", full.stderr)
    ctx.close()


def room_play_illegal(browser, server):
    """An engine answering an illegal move: one error line, exit status 2,
    and the move is never sent (the room still waits for it)."""
    ctx = browser.new_context()
    a = ctx.new_page()
    link, room = create_room(a, server.base, "modern", "black")
    engine = subprocess.Popen([MOLLETT, "room-play", "--room", link, "--engine", f"cmd={FAKE} --illegal 1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_settled(a, "")
    a.click('[data-square="d3"]')
    try:
        out, err = engine.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        engine.kill()
        out, err = engine.communicate()
    lines = err.strip().splitlines()
    t.check(engine.returncode == 2 and lines[-1].startswith("mollett: ") and "d4" in lines[-1] and "not a legal move" in lines[-1],
            "room-play: an engine's illegal answer is one error line and exit status 2", err)
    time.sleep(0.3)
    t.check(view(a)["transcript"] == "d3" and view(a)["state"] == "opponent-to-move",
            "room-play: the illegal move was not sent", str(view(a)))
    ctx.close()


def create_form(browser, server):
    """The board page's "Play a friend" form makes a clocked room; the
    clock shows the minutes given and the board page itself still plays."""
    ctx = browser.new_context()
    a = ctx.new_page()
    a.goto(server.base)
    a.wait_for_selector('#status[data-state="human-to-move"]', timeout=30000)
    a.click("#room-create summary")
    a.select_option("#room-variant", "classic")
    a.select_option("#room-color", "black")
    a.fill("#room-minutes", "5")
    a.fill("#room-increment", "2")
    a.click("#room-create-go")
    a.wait_for_selector('#status[data-state="waiting"]', timeout=15000)
    clocks = a.eval_on_selector_all(".clock", "els => els.map((e) => e.textContent)")
    t.check("room=" in a.url and view(a)["seat"] == "black" and clocks == ["5:00", "5:00"],
            "create form: a classic room with a 5+2 clock, the creator black", f"{a.url} {clocks}")
    # With both seats taken black's clock runs, counted down on the page
    # between the server's states; red's stands.
    b = browser.new_context().new_page()
    b.goto(a.url)
    a.wait_for_selector('#status[data-state="human-to-move"]', timeout=15000)
    secs = lambda text: int(text.split(":")[0]) * 60 + float(text.split(":")[1])  # noqa: E731
    before = [secs(x) for x in a.eval_on_selector_all(".clock", "els => els.map((e) => e.textContent)")]
    time.sleep(2.2)
    after = [secs(x) for x in a.eval_on_selector_all(".clock", "els => els.map((e) => e.textContent)")]
    t.check(1 <= before[0] - after[0] <= 4 and after[1] == before[1] == 300,
            "create form: black's clock counts down on the page, red's stands", f"{before} {after}")
    b.context.close()
    a.goto(f"{server.base}?room={'0' * 32}")
    a.wait_for_selector('#status[data-state="error"]', timeout=15000)
    t.check(view(a)["legal"] == [] and "does not exist" in view(a)["status"],
            "a link to a room the server does not have says so", view(a)["status"])
    ctx.close()


# English words a room page in another language must not show.
ENGLISH = (r"Waiting for|send them|You play|You are watching|Your move|to move|Move sent|\(you\)|seat free"
           r"|Ask to undo|Resign|Rematch|Room link|Leave the room|Open on the board|Download transcript"
           r"|empty|legal move|last move|\bblack\b|\bwhite\b")


def room_in_polish(browser, server):
    """A room made from the board page in Polish (lang=) is in Polish: its
    status while waiting and once both seats are taken, the seats, the
    buttons, the squares' labels, for the creator and for the friend who
    opens the link; none of the room's English words shows."""
    ctx = browser.new_context(viewport=PHONE)
    a = ctx.new_page()
    a.goto(server.base + "?lang=pl")
    a.wait_for_selector('#status[data-state="human-to-move"]', timeout=30000)
    a.click("#room-create summary")
    a.select_option("#room-color", "black")
    a.click("#room-create-go")
    a.wait_for_selector('#status[data-state="waiting"]', timeout=15000)
    tab = a.evaluate("async () => (await import('./shared/i18n/pl.js')).default")

    def words(page):
        return page.evaluate("""() => [document.querySelector('#status').textContent,
            ...[...document.querySelectorAll('#side button:not([hidden]), #side a, #side b, .seat, #message')].map((e) => e.textContent),
            ...[...document.querySelectorAll('[data-square]')].map((e) => e.getAttribute('aria-label'))].join(' | ')""")

    status = view(a)["status"]
    t.check(status.startswith(tab["room.waiting"]) and "lang=pl" in a.url and a.evaluate("document.documentElement.lang") == "pl",
            "Polish room: the creator waits in Polish, the address keeps lang=pl", f"{a.url} {status}")
    english = re.findall(ENGLISH, words(a), flags=re.I)
    t.check(not english, "Polish room: no English while waiting", english)
    b = browser.new_context(viewport=PHONE).new_page()
    b.goto(a.url)
    a.wait_for_selector('#status[data-state="human-to-move"]', timeout=15000)
    b.wait_for_selector('#status[data-state="opponent-to-move"]', timeout=15000)
    t.check(a.text_content("#room-resign") == tab["room.resign"] and a.text_content("#room-undo") == tab["room.askUndo"]
            and view(a)["status"].startswith(tab["room.yourMove"].replace("{c}", tab["colour.black.w"])),
            "Polish room: the buttons and the status of the player to move are the table's",
            f'{a.text_content("#room-resign")} / {a.text_content("#room-undo")} / {view(a)["status"]}')
    seats = a.eval_on_selector_all(".seat .presence", "els => els.map((e) => e.textContent)")
    t.check(seats == [tab["room.presence.online"]] * 2, "Polish room: both seats online, in Polish", seats)
    for who, page in (("creator", a), ("friend", b)):
        english = re.findall(ENGLISH, words(page), flags=re.I)
        t.check(not english, f"Polish room: no English on the {who}'s page", english)
    # A refusal from the server (a move out of turn, sent as the page sends
    # moves) is said in Polish, not in the server's English words.
    b.evaluate("() => window.mollett.send({type: 'move', square: 'd3', ply: 0})")
    want = tab["room.error.not-your-turn"]
    try:
        b.wait_for_function("(w) => document.querySelector('#message').textContent.includes(w)", arg=want, timeout=10000)
        said = True
    except Exception:  # noqa: BLE001  the check below reports what was shown
        said = False
    t.check(said, "Polish room: the server's refusal is said in Polish", b.text_content("#message"))
    a.screenshot(path=os.path.join(SHOTS, "room-pl-phone.png"), full_page=True)
    b.context.close()
    ctx.close()


def main():
    if not os.path.exists(os.path.join(SITE, "room", "room.js")):
        sys.exit(f"test_rooms: no built site at {SITE} (scripts/web/build.sh)")
    server = Server()
    native = Native(MOLLETT)
    # As pagecheck.run_checks: only the checks named on the command line,
    # when any are; one that cannot finish fails and the others still run.
    only = sys.argv[1:]
    try:
        with sync_playwright() as p:
            browser = launch(p)
            checks = [
                ("create_form", lambda: create_form(browser, server)),
                ("room_in_polish", lambda: room_in_polish(browser, server)),
                ("player_view", lambda: player_view(browser, server)),
                ("classic_game", lambda: classic_game(browser, server, native)),
                ("modern_game", lambda: modern_game(browser, server, native)),
                ("room_play", lambda: room_play(browser, server, native, f"cmd={MOLLETT} init=set_option level 1",
                                                "(Mollett, GTP, the server restarted mid-game)", restart=True)),
                ("room_play_nboard", lambda: room_play(browser, server, native, f"cmd={FAKE} --nboard proto=nboard",
                                                       "(an NBoard engine)")),
                ("room_play_illegal", lambda: room_play_illegal(browser, server)),
            ]
            for name, check in checks:
                if only and name not in only:
                    continue
                try:
                    check()
                except Exception as e:  # noqa: BLE001  a check that cannot finish fails; the others run
                    t.check(False, f"{name} ran to its end", str(e).split("\n")[0])
                    if os.environ.get("DEBUG"):
                        raise
            print(f"     forced passes announced on the pages: {len(PASSES)} {PASSES}")
            browser.close()
    finally:
        native.close()
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)
    t.exit()


if __name__ == "__main__":
    main()
