#!/usr/bin/python3
"""Makes the Hindi pages' web font (web/www/shared/fonts/): Noto Sans
Devanagari from Debian's fonts-noto-core, cut to the characters the Hindi
table uses plus basic Latin, as WOFF2, and devanagari.css, whose @font-face
unicode-range lists exactly those characters. Run it again after the Hindi
table gains a character (test_feedback.py fails until then). Needs
python3-fonttools and python3-brotli (Debian's python3, not a venv's).

    /usr/bin/python3 scripts/web/devanagari-font.py [FONT_DIR]

FONT_DIR holds NotoSansDevanagari-{Regular,Bold}.ttf (default: the
installed package's, else one unpacked from `apt-get download
fonts-noto-core`).
"""
import glob
import os
import subprocess
import sys
import tempfile

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "web", "www", "shared", "fonts")
NOTO = "/usr/share/fonts/truetype/noto"


def font_dir():
    if len(sys.argv) > 1:
        return sys.argv[1]
    if os.path.exists(os.path.join(NOTO, "NotoSansDevanagari-Regular.ttf")):
        return NOTO
    tmp = tempfile.mkdtemp()
    subprocess.run(["apt-get", "download", "fonts-noto-core"], cwd=tmp, check=True)
    deb = glob.glob(os.path.join(tmp, "fonts-noto-core_*.deb"))[0]
    subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
    return tmp + NOTO


def ranges(codes):
    """Code points as CSS unicode-range items, runs joined: U+41-5A."""
    out, codes = [], sorted(codes)
    start = prev = codes[0]
    for c in codes[1:] + [None]:
        if c is not None and c == prev + 1:
            prev = c
            continue
        out.append(f"U+{start:X}" + (f"-{prev:X}" if prev != start else ""))
        if c is not None:
            start = prev = c
    return ", ".join(out)


def main():
    src = font_dir()
    table = glob.glob(os.path.join(ROOT, "web", "www", "**", "i18n", "hi.js"), recursive=True)[0]
    text = open(table, encoding="utf-8").read()
    wanted = {ord(c) for c in text if ord(c) > 0x7E} | set(range(0x20, 0x7F)) | {0x200C, 0x200D, 0x25CC}
    os.makedirs(OUT, exist_ok=True)
    covered = None
    for weight, name in ((400, "Regular"), (700, "Bold")):
        # The source's date kept: the same input gives the same bytes.
        font = TTFont(os.path.join(src, f"NotoSansDevanagari-{name}.ttf"), recalcTimestamp=False)
        have = set(font.getBestCmap()) & wanted
        covered = have if covered is None else covered & have
        opts = subset.Options()
        opts.layout_features = ["*"]  # conjuncts and vowel signs need the shaping tables
        opts.flavor = "woff2"
        opts.name_IDs = ["*"]  # keeps the copyright and licence entries
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=have)
        sub.subset(font)
        path = os.path.join(OUT, f"NotoSansDevanagari-{name}-hi.woff2")
        font.flavor = "woff2"
        font.save(path)
        print(f"{path}: {os.path.getsize(path)} bytes, {len(have)} characters", file=sys.stderr)
    faces = "".join(
        f'@font-face {{\n  font-family: "Mollett Devanagari";\n  src: url("NotoSansDevanagari-{name}-hi.woff2") format("woff2");\n'
        f'  font-weight: {weight};\n  font-display: swap;\n  unicode-range: {ranges(sorted(covered))};\n}}\n'
        for weight, name in ((400, "Regular"), (700, "Bold")))
    css = (
        "/* The Hindi pages' font (README.md beside it): written by\n"
        "   scripts/web/devanagari-font.py, which lists in unicode-range the\n"
        "   characters the subset holds. Only a page whose <html lang> is hi\n"
        "   names the family, so no other page fetches it. */\n"
        + faces
        + 'html:lang(hi) body, html:lang(hi) #moves:empty::before, html:lang(hi) #transcript:empty::before {\n'
        '  font-family: "Mollett Devanagari", system-ui, sans-serif;\n}\n'
        'html:lang(hi) #thinking, html:lang(hi) .mono { font-family: ui-monospace, monospace, "Mollett Devanagari"; }\n')
    open(os.path.join(OUT, "devanagari.css"), "w", encoding="utf-8").write(css)


if __name__ == "__main__":
    main()
