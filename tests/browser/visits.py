"""A visit to the board page as a player makes it, through mollett-server
serving target/web: what crossed the network (Chromium's own count, the
DevTools protocol's encoded bytes, headers included) before the first legal
square could be clicked and once the engine's data had arrived, how long
until playable, and the server's CPU time for it. Shared by
tests/browser/test_load.py (the targets, in CI) and scripts/web/load_time.py
(the figures in BENCHMARKS.md)."""

import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from pagecheck import ROOT

SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
# What a modern game's engine reads first (web/www/shared/engine.js's NEEDS):
# fetched while the player looks at the board.
MODERN_DATA = ("/data/modern-weights.", "/data/modern-book.")


def server_binary(release_first=False):
    """MOLLETT_SERVER, else the test build (target/ci, what `cargo test
    --profile ci` just built), else release; the benchmark asks release first."""
    builds = [os.path.join(ROOT, "target", b, "mollett-server") for b in ("ci", "release")]
    for path in [os.environ.get("MOLLETT_SERVER")] + (builds[::-1] if release_first else builds):
        if path and os.access(path, os.X_OK):
            return path
    raise SystemExit("no mollett-server binary (cargo build --profile ci -p mollett-server)")


class Server:
    """mollett-server on a free port of 127.0.0.1 serving SITE; `cpu()` is
    its CPU time so far (user + system, seconds)."""

    def __init__(self, release_first=False):
        self.dir = tempfile.TemporaryDirectory(prefix="mollett-visit-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}/"
        self.proc = subprocess.Popen(
            [server_binary(release_first), "--addr", f"127.0.0.1:{self.port}", "--db", os.path.join(self.dir.name, "rooms.db"),
             "--site", SITE], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "api/rooms/0", timeout=2).read()
            except urllib.error.HTTPError:
                break  # it answers (404: no such room)
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.proc.poll() is not None or time.time() > deadline:
                    raise SystemExit("mollett-server did not start")
                time.sleep(0.1)

    def cpu(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.dir.cleanup()


def visit(context, url):
    """Opens `url` in a new page of `context` (a fresh context: a first
    visit; one that visited before: a second, from its cache). Returns
    {secs, playable, total, files}: seconds to the first legal square, bytes
    received by then, bytes once the modern engine's data is had (or 30 s),
    and {url: (bytes, status, content-encoding, cache-control)}."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    received, finished, answers = {}, {}, {}
    cdp.on("Network.dataReceived",
           lambda e: received.__setitem__(e["requestId"], received.get(e["requestId"], 0) + e["encodedDataLength"]))
    cdp.on("Network.loadingFinished", lambda e: finished.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.on("Network.responseReceived", lambda e: answers.__setitem__(e["requestId"], e["response"]))

    def count():
        return sum(finished.get(r, received.get(r, 0)) for r in set(received) | set(finished))

    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("[data-legal]", timeout=30000)
    secs = time.perf_counter() - start
    playable = count()
    deadline = time.time() + 30
    data_done = lambda: all(any(m in answers[r]["url"] and r in finished for r in answers) for m in MODERN_DATA)
    cached = lambda: page.evaluate(
        "() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/data/modern-')).length") >= 2
    while not (data_done() or cached()) and time.time() < deadline:
        page.wait_for_timeout(50)
    page.wait_for_timeout(200)
    total = count()
    files = {}
    for r, a in answers.items():
        h = {k.lower(): v for k, v in a.get("headers", {}).items()}
        files[a["url"]] = (finished.get(r, 0), a.get("status"), h.get("content-encoding"), h.get("cache-control"))
    page.close()
    return {"secs": secs, "playable": playable, "total": total, "files": files}
