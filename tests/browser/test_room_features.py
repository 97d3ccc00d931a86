#!/usr/bin/env python3
"""The room page's friend play (issue 67) against mollett-server, as people
use it: names shown as text, a takeback asked on one's own turn, a draw
declined then agreed, an abort, a claim of a game the other side left, a
seat moved to another device by its link (and its QR code), sound and the
tab title on one's turn, every game downloadable after rematches, messages
that end with what they describe, the page's own heartbeat (a proxy this
test controls drops the traffic: the page says it is offline, its clocks
stand, and it reconnects), phone portrait and landscape layouts, and every
frame the pages send checked against tests/data/rooms/wire.json.

    MOLLETT_WEB=target/web python3 tests/browser/test_room_features.py

The server binary is found as test_rooms.py finds it; screenshots go to
MOLLETT_SHOTS (target/web-shots) and, when ROOM_SHOTS is set, there too.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, launch, png_colours  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_rooms import Server, create_room, view, wait_settled  # noqa: E402

SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
SHOTS = [os.environ.get("MOLLETT_SHOTS", os.path.join(ROOT, "target", "web-shots"))]
if os.environ.get("ROOM_SHOTS"):
    SHOTS.append(os.environ["ROOM_SHOTS"])
PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
WIRE = json.load(open(os.path.join(ROOT, "tests", "data", "rooms", "wire.json")))
# The page's heartbeat (room.js): a ping after 3 s of silence, dead after
# 5 s more without an answer; checked with a margin for a loaded machine.
OFFLINE_WITHIN_S = 3 + 5 + 4
# The server's claim time for this test's rooms.
CLAIM_AFTER_S = 1

t = Failures()
SENT = []  # every frame a page sent, as text


# Counts the tones the page starts (WebAudio oscillators), before any of its scripts run.
TONES = """
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) { window.__tones++; return start.apply(this, a); };
"""


def context(browser, **kw):
    ctx = browser.new_context(**kw)
    ctx.add_init_script(TONES)
    return ctx


def page_of(ctx, errors):
    page = ctx.new_page()
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: SENT.append(payload)))
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def text(page, sel):
    return page.text_content(sel) or ""


def seat_label(page, colour):
    return page.evaluate(f"document.querySelector('.seat[data-colour=\"{colour}\"] b').textContent")


def legal_click(page):
    """The page's first legal square, clicked; returns it."""
    sq = view(page)["legal"][0]
    page.click(f'[data-square="{sq}"]')
    return sq


def friend_game(browser, server):
    """Names, sound and title, a takeback on one's own turn, messages that
    end, a draw declined then agreed, rematches, an abort, a resignation,
    and every game's downloads."""
    errors = []
    a_ctx, b_ctx = context(browser), context(browser, viewport=PORTRAIT)
    a, b = page_of(a_ctx, errors), page_of(b_ctx, errors)
    link, room = create_room(a, server.base, "modern", "black")
    b.goto(link)
    for p in (a, b):
        wait_settled(p, "")

    # A name is text: markup in it is shown, not obeyed.
    name = "<b>Ann</b> & <i>co"
    a.fill("#room-name", name)
    a.click("#room-name-set")
    b.wait_for_function("(n) => document.querySelector('.seat[data-colour=\"black\"] b').textContent.startsWith(n)",
                        arg=name, timeout=10000)
    t.check(seat_label(b, "black") == f"{name} (black)" and seat_label(a, "black") == f"{name} (black, you)"
            and a.evaluate("document.querySelectorAll('.seat b b, .seat b i').length") == 0,
            "names: the seat's name shows on both pages as text, markup and all", seat_label(b, "black"))
    a.evaluate("() => window.mollett.send({type: 'name', name: 'x'.repeat(30)})")
    a.wait_for_function("() => /at most 24/.test(document.querySelector('#message').textContent)", timeout=10000)
    t.check(seat_label(b, "black").startswith(name), "names: a name of 30 characters is refused (bad-name, said), the name stays")

    # Sound and title on one's turn. A click unlocks audio on each page.
    b.click("#room-moves")
    base_title = b.title()
    t.check(a.title() == "● Your move — Mollett" and not base_title.startswith("●"),
            "title: the tab says '● Your move — Mollett' on the mover's page only", f"{a.title()!r} / {base_title!r}")
    tones_b = b.evaluate("window.__tones")
    a.click('[data-square="f5"]')
    wait_settled(b, "f5")
    b.wait_for_function("() => document.title.startsWith('●')", timeout=5000)
    t.check(b.evaluate("window.__tones") > tones_b and a.title() == base_title,
            "sound: a tone when it becomes one's turn; the title follows the turn",
            f"{tones_b} -> {b.evaluate('window.__tones')}, a: {a.title()!r}")
    b.click("#room-sound")
    t.check(text(b, "#room-sound") == "Sound: off" and b.evaluate("localStorage.getItem('mollett-room-sound')") == "off",
            "sound: the mute toggle says so and is kept in this browser")
    b.click('[data-square="d6"]')
    wait_settled(a, "f5d6")
    tones_b = b.evaluate("window.__tones")
    a.click('[data-square="c3"]')
    wait_settled(b, "f5d6c3")
    time.sleep(0.3)
    t.check(b.evaluate("window.__tones") == tones_b, "sound: muted, no tone on one's turn")
    b.reload()
    wait_settled(b, "f5d6c3")
    t.check(text(b, "#room-sound") == "Sound: off", "sound: muted after a reload")

    # A takeback asked on one's own turn: the opponent's reply and one's
    # own move before it go, and the asker moves again.
    t.check(view(b)["state"] == "human-to-move", "takeback: white to move at f5d6c3")
    b.click("#room-undo")
    a.wait_for_selector("#room-accept:visible", timeout=10000)
    a.click("#room-accept")
    for p in (a, b):
        wait_settled(p, "f5")
    said = [text(p, "#message") for p in (a, b)]
    t.check(view(b)["state"] == "human-to-move" and all("d6 c3 taken back" in m and "White to move again" in m for m in said),
            "takeback on one's own turn: d6 and c3 go, white moves again, the message names both moves", str(said))

    # An undo declined is said, and the message ends when an offer comes.
    transcript = "f5" + legal_click(b)
    wait_settled(a, transcript)
    a.click("#room-undo")  # on a's own turn: b's reply and a's f5 would go
    b.wait_for_selector("#room-decline:visible", timeout=10000)
    b.click("#room-decline")
    a.wait_for_function("() => /Undo declined/.test(document.querySelector('#message').textContent)", timeout=10000)
    t.check(view(a)["transcript"] == transcript, "undo declined: the board stays, and it is said")

    # A draw offered and declined; offered again and agreed.
    b.click("#room-draw")
    a.wait_for_selector("#room-draw-decline:visible", timeout=10000)
    t.check("White offers a draw." == text(a, "#message") and "Undo declined" not in text(a, "#message")
            and text(b, "#room-draw") == "Draw offered…",
            "draw: the offer is said to the other seat (the earlier 'Undo declined' is gone)", text(a, "#message"))
    a.click("#room-draw-decline")
    b.wait_for_function("() => /Draw declined/.test(document.querySelector('#message').textContent)", timeout=10000)
    t.check("offers a draw" not in text(a, "#message") and a.is_hidden("#room-draw-accept"),
            "draw declined: said to the offerer, the offer's note and buttons gone", text(a, "#message"))
    transcript += legal_click(a)
    wait_settled(b, transcript)
    t.check("Draw declined" not in text(b, "#message"), "draw declined: the note ends with the next move", text(b, "#message"))
    a.click("#room-draw")
    b.wait_for_selector("#room-draw-accept:visible", timeout=10000)
    b.click("#room-draw-accept")
    for p in (a, b):
        p.wait_for_selector('#status[data-state="game-over"]', timeout=10000)
    t.check(all("a draw by agreement" in view(p)["status"] and text(p, "#message") == "" for p in (a, b)),
            "draw agreed: the game is over, drawn by agreement; no offer note stays", view(a)["status"])
    game1 = transcript

    # Rematch: game 2, colours swapped; aborted before white has placed.
    a.click("#room-rematch")
    b.wait_for_selector("#room-rematch:visible", timeout=10000)
    b.click("#room-rematch")
    for p in (a, b):
        wait_settled(p, "")
    t.check(view(a)["seat"] == "white" and "Game 2" in text(a, "#message"), "rematch: game 2, colours swapped, said",
            f"{view(a)['seat']} {text(a, '#message')!r}")
    t.check(a.is_visible("#room-abort") and a.is_hidden("#room-resign") and a.is_hidden("#room-draw"),
            "abort: offered before both sides have placed, instead of resign and draw")
    game2 = legal_click(b)
    wait_settled(a, game2)
    t.check(a.is_visible("#room-abort"), "abort: still offered while white has not placed")
    a.click("#room-abort")
    for p in (a, b):
        p.wait_for_selector('#status[data-state="game-over"]', timeout=10000)
    t.check(all(view(p)["status"].startswith("Game aborted (no result).") for p in (a, b)),
            "abort: the game ends with no result on both pages", view(b)["status"])

    # Game 3: an undo declined, then a resignation ends that message.
    a.click("#room-rematch")
    b.wait_for_selector("#room-rematch:visible", timeout=10000)
    b.click("#room-rematch")
    for p in (a, b):
        wait_settled(p, "")
    game3 = legal_click(a)
    wait_settled(b, game3)
    game3 += legal_click(b)
    wait_settled(a, game3)
    b.click("#room-undo")
    a.wait_for_selector("#room-decline:visible", timeout=10000)
    a.click("#room-decline")
    try:
        b.wait_for_function("() => /Undo declined/.test(document.querySelector('#message').textContent)", timeout=10000)
    except Exception:  # noqa: BLE001  the check below says what was shown
        pass
    t.check("Undo declined" in text(b, "#message"), "undo declined after one's own move: said to the asker", text(b, "#message"))
    t.check(a.is_hidden("#room-abort") and a.is_visible("#room-resign"), "abort: gone once both sides have placed; resign instead")
    a.click("#room-resign")
    a.click("#room-resign")
    for p in (a, b):
        p.wait_for_selector('#status[data-state="game-over"]', timeout=10000)
    t.check(all(text(p, "#message") == "" for p in (a, b)) and "resigned" in view(b)["status"],
            "messages end: 'Undo declined' does not stay up through a resignation", text(b, "#message"))

    # Every game's downloads, from the links the page shows.
    links = a.eval_on_selector_all("#room-games li", "els => els.map((li) => [...li.querySelectorAll('a')].map((a) => a.getAttribute('href')))")
    t.check(links == [[f"/api/rooms/{room}/games/{n}.ggf", f"/api/rooms/{room}/games/{n}.txt"] for n in (1, 2)]
            and a.get_attribute("#room-txt", "href") == f"/api/rooms/{room}/games/3.txt",
            "downloads: games 1 and 2 listed after the rematches, the buttons are game 3's", str(links))
    got = [server.get(links[0][1]).strip(), server.get(links[1][1]).strip(), server.get(a.get_attribute("#room-txt", "href")).strip()]
    t.check(got == [game1, game2, game3], "downloads: each game's transcript is that game", f"{got} != {[game1, game2, game3]}")
    ggf1, ggf2 = server.get(links[0][0]), server.get(links[1][0])
    t.check("RE[+0.000:s]" in ggf1 and game1[:2].upper() in ggf1.upper() and "RE[" not in ggf2 and "(;" in ggf2,
            "downloads: game 1's GGF is the agreed draw, game 2's (aborted) has no result", ggf1[:200])
    t.check(not errors, "friend game: no page errors", "; ".join(errors[:3]))
    a_ctx.close()
    b_ctx.close()


def claim(browser, server):
    """The other side leaves after both have placed: the one who stayed is
    told, may claim after the server's time, and wins by it."""
    errors = []
    a_ctx, b_ctx = context(browser), context(browser)
    a, b = page_of(a_ctx, errors), page_of(b_ctx, errors)
    link, _ = create_room(a, server.base, "modern", "black")
    b.goto(link)
    wait_settled(a, "")
    tr = legal_click(a)
    wait_settled(b, tr)
    tr += legal_click(b)
    wait_settled(a, tr)
    t.check(a.is_hidden("#room-claim") and text(a, "#room-notice") == "", "claim: no notice or button while both are here")
    b_ctx.close()
    a.wait_for_function("() => /White has left the game/.test(document.querySelector('#room-notice').textContent)", timeout=10000)
    a.wait_for_selector("#room-claim:visible", timeout=(CLAIM_AFTER_S + 10) * 1000)
    t.check("claim the win" in text(a, "#room-notice"), "claim: the notice says the other left and the win may be claimed", text(a, "#room-notice"))
    a.click("#room-claim")
    a.wait_for_selector('#status[data-state="game-over"]', timeout=10000)
    t.check(view(a)["status"] == "Game over: You won (White left the game)." and text(a, "#room-notice") == "",
            "claim: the game ends, black reads it won because white left (no disc score); the notice ends", view(a)["status"])
    t.check(not errors, "claim: no page errors", "; ".join(errors[:3]))
    a_ctx.close()


def qr_text(page):
    """The QR code on the page, read by zbarimg (Debian's zbar-tools)."""
    path = os.path.join(tempfile.mkdtemp(prefix="mollett-qr-"), "qr.png")
    page.locator("#room-qr svg").screenshot(path=path)
    out = subprocess.run(["zbarimg", "--raw", "-q", path], capture_output=True, text=True)
    return out.stdout.strip()


def transfer(browser, server):
    """'Continue on another device': the link (and its QR code) moves the
    seat; the old page says so and watches; the link works once."""
    errors = []
    a_ctx, b_ctx, c_ctx, d_ctx = context(browser), context(browser), context(browser, viewport=PORTRAIT), context(browser)
    a, b, c, d = (page_of(x, errors) for x in (a_ctx, b_ctx, c_ctx, d_ctx))
    link, room = create_room(a, server.base, "modern", "black")
    b.goto(link)
    wait_settled(a, "")
    old_token = a.evaluate(f"localStorage.getItem('mollett-room-{room}')")
    a.click("#room-transfer")
    a.wait_for_selector("#room-transfer-box:visible", timeout=10000)
    moved = text(a, "#room-transfer-link")
    t.check(re.fullmatch(re.escape(link) + r"&seat=[0-9a-f]{32}", moved) is not None,
            "transfer: the page shows the link ?room=ID&seat=TOKEN", moved)
    if t.part("zbarimg", shutil.which("zbarimg") is not None, "transfer: the QR code reads back (zbarimg) as the link",
              "no zbarimg: install Debian's package zbar-tools (apt-get install zbar-tools)"):
        decoded = qr_text(a)
        t.check(decoded == moved, "transfer: the QR code reads back (zbarimg) as the link", f"{decoded!r}")
    else:
        t.check(a.evaluate("document.querySelectorAll('#room-qr svg path').length") == 1, "transfer: a QR code is drawn")
    for d_ in SHOTS:
        os.makedirs(d_, exist_ok=True)
        a.screenshot(path=os.path.join(d_, "room-transfer.png"), full_page=True)
    c.goto(moved)
    c.wait_for_selector('#status[data-seat="black"]', timeout=10000)
    a.wait_for_selector('#status[data-seat="spectator"]', timeout=10000)
    new_token = c.evaluate(f"localStorage.getItem('mollett-room-{room}')")
    t.check("seat=" not in c.url and new_token and new_token != old_token and view(c)["state"] == "human-to-move",
            "transfer: the new device holds black with a token of its own; its address drops the link", c.url)
    t.check("Your seat moved to another device" in view(a)["status"] and a.is_hidden("#room-transfer-box")
            and a.evaluate(f"localStorage.getItem('mollett-room-{room}')") is None,
            "transfer: the old page says its seat moved and watches; its retired token is dropped", view(a)["status"])
    sq = legal_click(c)
    for p in (a, b, c):
        wait_settled(p, sq)
    t.check(view(a)["legal"] == [] and view(b)["state"] == "human-to-move", "transfer: the new device plays; the old one only watches")
    d.goto(moved)
    d.wait_for_selector('#status[data-seat="spectator"]', timeout=10000)
    # The seat is said before the server's reason reaches the message line.
    try:
        d.wait_for_function("() => document.querySelector('#message').textContent.includes('used already or has expired')",
                            timeout=10000)
    except Exception:  # noqa: BLE001 - the check below says what is wrong
        pass
    t.check("used already or has expired" in text(d, "#message"), "transfer: the link works once; opened again it watches, and says why",
            text(d, "#message"))
    a.reload()
    wait_settled(a, sq)
    t.check(view(a)["seat"] == "spectator", "transfer: the old page reloaded still watches")
    t.check(not errors, "transfer: no page errors", "; ".join(errors[:3]))
    for x in (a_ctx, b_ctx, c_ctx, d_ctx):
        x.close()


class Proxy:
    """A loopback TCP proxy to the server whose traffic the test can stop
    (held, not refused: a phone in a tunnel, where nothing closes)."""

    def __init__(self, port):
        self.target = port
        self.open = threading.Event()
        self.open.set()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}/"
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(src, dst), daemon=True).start()

    def pump(self, src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                self.open.wait()
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def secs(clock):
    m, s = clock.split(":")
    return int(m) * 60 + float(s)


def clocks(page):
    return page.eval_on_selector_all(".clock", "els => els.map((e) => e.textContent)")


def heartbeat(browser, server):
    """The traffic of one page dropped: it says it is offline within its
    heartbeat's limit, its clocks stand, and it reconnects after."""
    errors = []
    proxy = Proxy(server.port)
    a_ctx, b_ctx = context(browser), context(browser)
    a, b = page_of(a_ctx, errors), page_of(b_ctx, errors)
    a.goto(f"{proxy.base}?room=new&variant=modern&color=black&minutes=5")
    a.wait_for_selector('#status[data-state="waiting"]', timeout=15000)
    room = a.url.split("room=")[1].split("&")[0]
    b.goto(f"{server.base}?room={room}")
    wait_settled(a, "")
    time.sleep(1.2)
    c0 = clocks(a)
    time.sleep(1.1)
    t.check(clocks(a)[0] != c0[0], "heartbeat: black's clock runs on the page before the drop", f"{c0} {clocks(a)}")
    before = clocks(a)
    proxy.open.clear()
    began = time.time()
    a.wait_for_function("() => document.querySelector('#status').dataset.state === 'connecting' && "
                        "/offline/.test(document.querySelector('#status').textContent)", timeout=(OFFLINE_WITHIN_S + 10) * 1000)
    took = time.time() - began
    t.check(took <= OFFLINE_WITHIN_S, f"heartbeat: the page says it is offline {took:.1f} s after its traffic stopped (limit {OFFLINE_WITHIN_S} s)",
            view(a)["status"])
    t.check(view(a)["legal"] == [], "heartbeat: no legal squares while offline")
    c1 = clocks(a)
    time.sleep(1.5)
    t.check(clocks(a) == c1 and secs(c1[0]) <= secs(before[0]) and c1[1] == before[1] == "5:00",
            "heartbeat: the page's clocks stand while it is offline (where they were, not back at the last state's)",
            f"before {before}, offline {c1} then {clocks(a)}")
    for d_ in SHOTS:
        os.makedirs(d_, exist_ok=True)
        a.screenshot(path=os.path.join(d_, "room-offline.png"), full_page=True)
    time.sleep(2)
    t.check(view(a)["state"] == "connecting", "heartbeat: still offline while the traffic is held", view(a)["state"])
    proxy.open.set()
    began = time.time()
    wait_settled(a, "", timeout=30000)
    t.check(view(a)["state"] == "human-to-move" and "offline" not in view(a)["status"],
            f"heartbeat: the page reconnects by itself {time.time() - began:.1f} s after the traffic came back", view(a)["status"])
    sq = legal_click(a)
    wait_settled(b, sq)
    t.check(True, "heartbeat: after the reconnect the page's move reaches the other player")
    t.check(not errors, "heartbeat: no page errors", "; ".join(errors[:3]))
    a_ctx.close()
    b_ctx.close()


def inside(page, more):
    """The board, each seat and each clock (and the selectors `more`):
    bounding boxes outside the viewport (none is right), and whether the
    page scrolled."""
    return page.evaluate("""(more) => {
        const w = innerWidth, h = innerHeight, out = [];
        for (const sel of ['#board', '.seat[data-colour="black"]', '.seat[data-colour="white"]',
                           '.clock[data-colour="black"]', '.clock[data-colour="white"]', '#status', ...more]) {
            const el = document.querySelector(sel);
            if (!el) { out.push(sel + ' missing'); continue; }
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5)
                out.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
        }
        const board = document.querySelector('#board').getBoundingClientRect();
        return {outside: out, scrolled: scrollY, wide: document.scrollingElement.scrollWidth > w, board: Math.round(board.width)};
    }""", more)


def layout(browser, server):
    """Phone portrait (390x844) and landscape (844x390), light and dark: the
    board, both seats and both clocks on one screen, nothing scrolled; and a
    draw offer's note and its answer there too."""
    for scheme in ("light", "dark"):
        a_ctx = context(browser, viewport=PORTRAIT, color_scheme=scheme)
        b_ctx = context(browser, viewport=LANDSCAPE, color_scheme=scheme)
        a, b = a_ctx.new_page(), b_ctx.new_page()
        a.goto(f"{server.base}?room=new&variant=classic&color=black&minutes=5&increment=2")
        a.wait_for_selector('#status[data-state="waiting"]', timeout=15000)
        b.goto(a.url)
        wait_settled(a, "")
        wait_settled(b, "")
        a.fill("#room-name", "Ann")
        a.click("#room-name-set")
        b.fill("#room-name", "Bartholomew the Second")
        b.click("#room-name-set")
        tr = legal_click(a)
        wait_settled(b, tr)
        tr += legal_click(b)
        wait_settled(a, tr)
        b.wait_for_function("() => /Ann/.test(document.querySelector('#room-seats').textContent)", timeout=10000)
        b.click("#room-draw")
        a.wait_for_selector("#room-draw-accept:visible", timeout=10000)
        b.wait_for_function("() => /You offered a draw/.test(document.querySelector('#message').textContent)", timeout=10000)
        for page, shape, more in ((a, "portrait", ["#supply", "#message", "#room-draw-accept", "#room-draw-decline"]),
                                  (b, "landscape", ["#supply", "#message"])):
            got = inside(page, more)
            t.check(not got["outside"] and got["scrolled"] == 0 and not got["wide"] and got["board"] >= 240,
                    f"layout {shape} {scheme}: board ({got['board']} px), seats, clocks and the draw offer on one screen, no scrolling", str(got))
            for d_ in SHOTS:
                os.makedirs(d_, exist_ok=True)
                data = page.screenshot(path=os.path.join(d_, f"room-{shape}-{scheme}.png"))
            t.check(png_colours(data) > 8, f"layout {shape} {scheme}: screenshot drawn")
        a_ctx.close()
        b_ctx.close()


def json_type(v):
    return {bool: "boolean", int: "number", float: "number", str: "string", type(None): "null",
            list: "array", dict: "object"}[type(v)]


def wire_check():
    """Every frame the pages sent is a message of the contract: its type is
    one of wire.json's client_in, with the fields of that type's examples
    and their JSON types; and the tests made the page send every type."""
    shapes = {}
    for ex in WIRE["client_in"]:
        fields = shapes.setdefault(ex["type"], {})
        for k, v in ex.items():
            fields.setdefault(k, set()).add(json_type(v))
    bad, seen = [], set()
    for frame in SENT:
        try:
            msg = json.loads(frame)
        except (TypeError, ValueError):
            bad.append(f"not JSON: {frame!r}")
            continue
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind not in shapes:
            bad.append(f"unknown type: {frame}")
            continue
        seen.add(kind)
        want = shapes[kind]
        if set(msg) != set(want) or any(json_type(v) not in want[k] for k, v in msg.items()):
            bad.append(f"fields or types unlike wire.json's {kind}: {frame}")
    t.check(not bad, f"wire: all {len(SENT)} frames the pages sent match tests/data/rooms/wire.json", "; ".join(bad[:5]))
    missing = sorted(set(shapes) - seen)
    t.check(not missing, "wire: the pages sent every message type of the contract in these tests", str(missing))


def main():
    if not os.path.exists(os.path.join(SITE, "room", "room.js")):
        sys.exit(f"test_room_features: no built site at {SITE} (scripts/web/build.sh)")
    server = Server(extra=["--claim-after", str(CLAIM_AFTER_S)])
    try:
        with sync_playwright() as p:
            browser = launch(p)
            friend_game(browser, server)
            claim(browser, server)
            transfer(browser, server)
            heartbeat(browser, server)
            layout(browser, server)
            wire_check()
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)
    t.exit()


if __name__ == "__main__":
    main()
