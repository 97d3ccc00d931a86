#!/usr/bin/env python3
"""The report page (`mollett report --html`) as a person opens it, in
Debian's headless Chromium: made from real games (Mollett against itself at
two depths, a match with its SPRT and a three-engine tournament), it opens
without errors, fetches nothing but itself, shows the text report's numbers,
draws every plot at a readable size on a desktop and a phone screen, and a
game's link opens that game on the browser board beside it.

    MOLLETT=target/ci/mollett python3 tests/browser/test_report.py
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from pagecheck import ROOT, Failures, launch, png_colours, serve  # noqa: E402
from playwright.sync_api import TimeoutError as PageTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

MOLLETT = os.environ.get("MOLLETT", os.path.join(ROOT, "target", "ci", "mollett"))
SITE = os.environ.get("MOLLETT_WEB", os.path.join(ROOT, "target", "web"))
SHOTS = os.environ.get("MOLLETT_SHOTS", os.path.join(ROOT, "target", "web-shots"))
OPENINGS = os.path.join(ROOT, "corpus", "openings", "modern-2000.txt")

t = Failures()


def mollett(*args):
    """Runs the engine's command line; stdout, or the failure's stderr."""
    run = subprocess.run([MOLLETT, *args], capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise SystemExit(f"mollett {' '.join(args)} failed: {run.stderr}")
    return run.stdout


def engine(name, depth):
    return ["--engine", f"name={name} cmd={MOLLETT} time=frac init=set_option depth {depth}"]


def make_results(folder):
    """A match (8 games, clocked, with move times and values in its GGF
    twin) and a three-engine round robin, played by real engines."""
    match = os.path.join(folder, "match.txt")
    mollett("match", *engine("deep", 3), *engine("shallow", 1), "--games", "8", "--tc", "10+0.1",
            "--openings", OPENINGS, "--concurrency", "2", "--out", match, "--quiet")
    tour = os.path.join(folder, "tour.txt")
    mollett("tournament", *engine("d1", 1), *engine("d2", 2), *engine("d3", 3), "--rounds", "2",
            "--tc", "10+0.1", "--openings", OPENINGS, "--concurrency", "2", "--out", tour, "--quiet")
    return match, tour


def site_beside(folder):
    """The board's site linked file by file into `folder`, so that a report
    written there has the board beside it."""
    for name in os.listdir(SITE):
        os.symlink(os.path.join(SITE, name), os.path.join(folder, name))


def text_value(text, label):
    for line in text.splitlines():
        if line.startswith(label + ": "):
            return line[len(label) + 2:]
    raise AssertionError(f"no {label} in the text report")


def open_page(browser, url, width, height):
    """Opens `url`; every request the page makes and every error it reports."""
    page = browser.new_page(viewport={"width": width, "height": height})
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return page, requests, errors


def plot_sizes(page):
    """Each plot's id, its drawing's size on screen, and the height of its
    smallest text (tick labels) as drawn."""
    return page.evaluate("""() => [...document.querySelectorAll('figure.plot')].map(f => {
        const svg = f.querySelector('svg');
        const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
        const texts = svg ? [...svg.querySelectorAll('text')].map(e => e.getBoundingClientRect().height)
                                .filter(h => h > 0) : [];
        return {id: f.id, width: box.width, height: box.height, texts: texts.length,
                smallest: texts.length ? Math.min(...texts) : 0};
    })""")


def check_page(browser, base, name, report_text, expected_plots, sprt):
    url = base + name
    page, requests, errors = open_page(browser, url, 1280, 900)
    t.check(not errors, f"{name} opens without errors", "; ".join(errors))
    t.check(requests == [url], f"{name} fetches nothing but itself", ", ".join(requests))
    page_text = {k: page.inner_text(f"#{k}") for k in ("games", "faults")}
    t.check(page_text["games"] == text_value(report_text, "Games"), f"{name} game count is the text report's",
            f"{page_text['games']} against {text_value(report_text, 'Games')}")
    if sprt:
        label = next(line.split(": ")[0] for line in report_text.splitlines() if line.startswith("SPRT "))
        t.check(page.inner_text("#sprt") == text_value(report_text, label), f"{name} SPRT verdict is the text report's")
    for key, label in (("wdl", "W-D-L"), ("elo", "Elo"), ("los", "LOS")):
        if page.locator(f"#{key}").count():
            t.check(page.inner_text(f"#{key}") == text_value(report_text, label),
                    f"{name} {label} is the text report's", page.inner_text(f"#{key}"))
    if page.locator("tr.rating").count():
        # The ratings table's engine, rating and W-D-L, row by row, as the text report ranks them.
        rows = page.evaluate("""() => [...document.querySelectorAll('tr.rating')].map(
            r => [...r.cells].map(c => c.textContent))""")
        ranked = [line.split() for line in report_text.splitlines() if line[:3].strip().rstrip(".").isdigit()
                  and line[3:4] == "."]
        same = [[r[1], r[2], r[5]] for r in rows] == [[w[1], w[2], w[5]] for w in ranked]
        t.check(same and len(rows) >= 2, f"{name} ratings are the text report's ({len(rows)} engines)",
                f"{rows} against {ranked}")
    plots = plot_sizes(page)
    ids = sorted(p["id"] for p in plots)
    t.check(ids == sorted(expected_plots), f"{name} has its plots", f"{ids} against {sorted(expected_plots)}")
    small = [p for p in plots if p["width"] < 480 or p["height"] < 250 or p["texts"] < 4 or p["smallest"] < 12]
    t.check(not small, f"{name} draws each of {len(plots)} plots at least 480x250 px with text at least 12 px tall",
            str(small))
    blank = []
    for p in plots:
        colours = png_colours(page.locator(f"#{p['id']} svg").screenshot())
        if colours < 4:
            blank.append(f"{p['id']} ({colours} colours)")
    t.check(not blank, f"{name} no plot is blank", ", ".join(blank))
    os.makedirs(SHOTS, exist_ok=True)
    shot = os.path.join(SHOTS, name.replace(".html", "-desktop.png"))
    colours = png_colours(page.screenshot(path=shot, full_page=True))
    t.check(colours >= 8, f"{name} desktop screenshot is not blank ({colours}+ colours, {shot})")
    page.close()
    # A phone: every plot fits the screen's width and is still drawn large enough to read.
    page, _, errors = open_page(browser, url, 390, 844)
    fit = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    plots = plot_sizes(page)
    narrow = [p for p in plots if p["width"] < 300 or p["width"] > 390 or p["smallest"] < 9.9]
    t.check(fit and not narrow and not errors,
            f"{name} at phone width: no sideways scroll, plots 300-390 px wide, text at least 10 px tall",
            f"fit {fit} {narrow} {errors}")
    page.screenshot(path=os.path.join(SHOTS, name.replace(".html", "-phone.png")), full_page=True)
    page.close()


def check_board_link(browser, base, name, match):
    """The first game's link opens the board with that game's moves, at its end."""
    page, _, _ = open_page(browser, base + name, 1280, 900)
    link = page.locator("a.board").first
    href = link.get_attribute("href")
    moves = href.split("moves=")[1].split("&")[0]
    with page.expect_navigation():
        link.click()
    # The board shows the moves at once; its state settles once its engine has loaded.
    try:
        page.wait_for_function("(t) => document.querySelector('#transcript').textContent === t && "
                               "document.querySelector('#status').dataset.state === 'game-over'",
                               arg=moves.replace("pa", ""), timeout=60000)
    except PageTimeout:
        pass  # said by the check below
    state = page.evaluate("() => document.querySelector('#status').dataset.state")
    shown = page.inner_text("#transcript")
    # The games were played two at a time, so the file is in the order they
    # ended, not the page's: the link's game is one of its lines.
    with open(match) as f:
        recorded = any(f"moves={moves} " in line for line in f)
    t.check(recorded and shown == moves.replace("pa", "") and state == "game-over",
            f"{name} a game's link opens it on the board, played to its end ({len(moves) // 2} plies)",
            f"state {state}, transcript {shown}")
    page.close()


def main():
    folder = tempfile.mkdtemp(prefix="mollett-report-")
    try:
        match, tour = make_results(folder)
        if os.path.isdir(SITE):
            site_beside(folder)
        text = mollett("report", match, "--html", os.path.join(folder, "match.html"),
                       "--sprt", "elo0=0", "elo1=100")
        tour_text = mollett("report", tour, "--html", os.path.join(folder, "tour.html"))
        empty = os.path.join(folder, "empty.txt")
        open(empty, "w").close()
        mollett("report", empty, "--html", os.path.join(folder, "empty.html"))
        base = serve(folder)
        common = ["plot-openings", "plot-colours", "plot-discs", "plot-move-times", "plot-game-times", "plot-evals"]
        with sync_playwright() as p:
            browser = launch(p)
            check_page(browser, base, "match.html", text, ["plot-elo", "plot-llr", *common], True)
            check_page(browser, base, "tour.html", tour_text, ["plot-ratings", *common], False)
            page, requests, errors = open_page(browser, base + "empty.html", 1280, 900)
            t.check(page.locator("#no-games").count() == 1 and not errors,
                    "a file without games gives a page that says no games", "; ".join(errors))
            page.close()
            if os.path.isdir(SITE):
                check_board_link(browser, base, "match.html", match)
            else:
                t.check(False, f"the board's site {SITE} is there (scripts/web/build.sh)")
            browser.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    t.exit()


main()
