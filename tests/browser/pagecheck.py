"""What the browser tests share: a server on 127.0.0.1, Debian's Chromium
driven by Playwright (never a downloaded browser), a PNG read back without
Pillow, and the native engine as the oracle the page is compared with."""

import functools
import http.server
import os
import struct
import subprocess
import sys
import threading
import zlib

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium tries Google's hosts,
# which this machine's closed network refuses many times a second.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def skipped(part):
    """True when the comma-separated MOLLETT_SKIP names `part`."""
    return part in (s.strip() for s in os.environ.get("MOLLETT_SKIP", "").split(","))


class Failures:
    """Checks print one line each; the script exits non-zero if any failed."""

    def __init__(self):
        self.failed = []

    def check(self, ok, what, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""), flush=True)
        if not ok:
            self.failed.append(what)
        return ok

    def part(self, part, ok, what, why):
        """Whether the real part `part` that the check `what` needs is here
        (`ok`). Missing, the check fails with `why` (what to install), unless
        the comma-separated MOLLETT_SKIP names the part: then a line says it
        is skipped (named, it is skipped even where installed). CI never sets
        MOLLETT_SKIP; docs/testing.md lists the part names."""
        if skipped(part):
            print(f"skip {what}: MOLLETT_SKIP names {part}", flush=True)
            return False
        if ok:
            return True
        self.check(False, what, f"{why}; or set MOLLETT_SKIP={part} to skip it")
        return False

    def exit(self):
        if self.failed:
            print(f"{len(self.failed)} failed: {', '.join(self.failed)}")
            sys.exit(1)
        print("all passed")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, fmt, *args):
        pass


def serve(directory):
    """Serves `directory` on a free port of 127.0.0.1; returns its base URL."""
    handler = functools.partial(_Quiet, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/"


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def run_checks(t, checks, base):
    """Runs each `check(browser, base)` in one Chromium (only those named on
    the command line, when any are), then exits with `t`'s verdict. A check
    that cannot finish fails and the others still run (DEBUG=1 raises)."""
    from playwright.sync_api import sync_playwright
    only = sys.argv[1:]
    with sync_playwright() as p:
        browser = launch(p)
        for check in checks:
            if only and check.__name__ not in only:
                continue
            try:
                check(browser, base)
            except Exception as e:  # noqa: BLE001
                t.check(False, f"{check.__name__} ran to its end", str(e).split("\n")[0])
                if os.environ.get("DEBUG"):
                    raise
        browser.close()
    t.exit()


def png_colours(data, limit=64):
    """How many distinct colours a PNG screenshot has (up to `limit`): a
    blank page has one. Reads 8-bit RGB/RGBA PNGs, as Chromium writes them."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"PNG colour type {ctype} depth {depth}"
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 7 == 0:  # a sample of rows is enough to tell blank from drawn
            for x in range(0, width, 5):
                colours.add(bytes(line[x * channels:x * channels + 3]))
                if len(colours) >= limit:
                    return len(colours)
        prev = line
    return len(colours)


class Native:
    """The native engine over pipes: one GTP answer per command."""

    def __init__(self, binary):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise RuntimeError(f"native engine ended at {line!r}")
            if out == "\n":
                break
            lines.append(out.rstrip("\n"))
        text = "\n".join(lines)
        ok = text.startswith("=")
        body = text[1:]
        body = body[1:] if body.startswith((" ", "\n")) else body
        return ok, body

    def must(self, line):
        ok, body = self.ask(line)
        if not ok:
            raise AssertionError(f"native engine refused {line!r}: {body}")
        return body

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def board_of(showboard):
    """The native `showboard` drawing as (discs by square, legal squares,
    status line, discs line)."""
    lines = showboard.split("\n")
    discs, legal = {}, []
    for r, row in enumerate(lines[1:9]):
        for f, c in enumerate(row.split()[1:]):
            sq = "abcdefgh"[f] + str(r + 1)
            if c == "X":
                discs[sq] = "black"
            elif c == "O":
                discs[sq] = "second"
            elif c == "*":
                legal.append(sq)
    return discs, sorted(legal), lines[9], lines[10]
