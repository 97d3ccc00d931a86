#!/usr/bin/env python3
"""Gives the site's assets content-hashed names and writes brotli and gzip
copies, so that a server can send every asset with a year's caching and
nothing is compressed per request (docs/web.md, "What a visit loads").
Run by scripts/web/build.sh on target/web:

    python3 scripts/web/assets.py target/web

- Each asset (.js, .css, .wasm, .woff2, data/*.bin) gets a copy named
  NAME.HASH.EXT, HASH the first 12 hex digits of the SHA-256 of its bytes
  as served; the original stays for scripts and tools that name it
  (scripts/web/bench.mjs reads mollett.wasm and data/).
- References are rewritten where a file names another asset by a string:
  an html's src and href, a stylesheet's url(), a script's "mollett.wasm" or
  new URL("./worker.js", import.meta.url). A file is hashed after the
  files it names, so its hash covers theirs.
- ES module imports between scripts are not rewritten: each html gets an
  import map from every module's plain address to its hashed one. A module
  imported with a computed name (`import(`./i18n/${code}.js`)`) resolves
  through the map all the same, and a module's hash does not depend on the
  hashes of the modules it imports (a change to one module renames it
  alone).
- The html pages keep their names (the addresses people keep); servers
  send them with Cache-Control: no-cache, the hashed names with
  public, max-age=31536000, immutable (server/src/http.rs, scripts/web/serve.py).
- NAME.br (brotli, quality 11) and NAME.gz (gzip -9) beside every hashed
  asset and every html, where compression saves at least 5 %. Compressed
  bytes are kept in target/web-cache/ by content, so a rebuild compresses
  only what changed (brotli at quality 11 takes a minute for the 9 MB of
  modern weights).
"""
import concurrent.futures
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HASHED = (".js", ".css", ".wasm", ".woff2", ".bin")
# A quoted string or a stylesheet's url() naming an asset file.
REFERENCE = re.compile(r"""(["'`])([^"'`\s<>(){}$]+?\.(?:js|css|wasm|woff2|bin))\1|url\(\s*["']?([^"')\s]+)["']?\s*\)""")
# The string of an ES module import or re-export (`from "x"`, `import "x"`,
# `import("x")`): resolved through the import map, not rewritten.
MODULE_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)$""")
HASH_NAME = re.compile(r"\.[0-9a-f]{12}\.[a-z0-9]+$")
BROTLI_QUALITY = os.environ.get("MOLLETT_BROTLI_QUALITY", "11")


def sha(data):
    return hashlib.sha256(data).hexdigest()


def hashed_name(path, data):
    stem, ext = os.path.splitext(path)
    return f"{stem}.{sha(data)[:12]}{ext}"


def references(site, rel, text):
    """(start, end, target) of each string in `text` (the file `rel`) that
    names an asset of the site, the module imports left out."""
    out = []
    base = os.path.dirname(rel)
    for m in REFERENCE.finditer(text):
        group = 2 if m.group(2) else 3
        value = m.group(group)
        if value.startswith(("http:", "https:", "data:", "/")):
            continue
        if group == 2 and rel.endswith(".js") and MODULE_IMPORT.search(text[max(0, m.start() - 12):m.start()]):
            continue
        path = value.split("?", 1)[0].split("#", 1)[0]
        # A script names a fetched file relative to its page (the site's
        # root) or, through import.meta.url, to itself.
        for candidate in (os.path.normpath(os.path.join(base, path)), os.path.normpath(path)):
            if candidate.endswith(HASHED) and os.path.isfile(os.path.join(site, candidate)):
                out.append((m.start(group), m.start(group) + len(path), candidate))
                break
    return out


def rewrite(text, refs, names):
    """`text` with each reference's last path segment replaced by its hashed name."""
    for start, end, target in sorted(refs, reverse=True):
        written = text[start:end]
        head = written[:len(written) - len(os.path.basename(written))]
        text = text[:start] + head + os.path.basename(names[target]) + text[end:]
    return text


def import_map(html_rel, modules, names):
    """The import map of page `html_rel`: each module's address relative
    to the page, to its hashed one."""
    base = os.path.dirname(html_rel)
    rel = lambda p: "./" + os.path.relpath(p, base or ".").replace(os.sep, "/")
    imports = {rel(m): rel(names[m]) for m in sorted(modules)}
    return '<script type="importmap">' + json.dumps({"imports": imports}, separators=(",", ":")) + "</script>\n"


def compress(path, cache):
    """Writes PATH.br and PATH.gz where they save at least 5 %."""
    with open(path, "rb") as f:
        data = f.read()
    key = sha(data)
    for ext, make in ((".br", lambda: subprocess.run(
            ["brotli", "-q", BROTLI_QUALITY, "-c", path], check=True, capture_output=True).stdout),
            (".gz", lambda: gzip.compress(data, 9, mtime=0))):
        kept = os.path.join(cache, f"{key}-q{BROTLI_QUALITY}{ext}" if ext == ".br" else key + ext)
        if not os.path.isfile(kept):
            packed = make()
            with open(kept + ".tmp", "wb") as f:
                f.write(packed)
            os.replace(kept + ".tmp", kept)
        if os.path.getsize(kept) <= 0.95 * len(data):
            shutil.copyfile(kept, path + ext)


def main():
    site = sys.argv[1] if len(sys.argv) > 1 else "target/web"
    cache = os.path.join(os.path.dirname(os.path.abspath(site)), "web-cache")
    os.makedirs(cache, exist_ok=True)
    if shutil.which("brotli") is None:
        sys.exit("assets: no brotli (Debian's package brotli: apt-get install brotli)")
    files = []
    for root, _, names in os.walk(site):
        for n in names:
            files.append(os.path.relpath(os.path.join(root, n), site))
    assets = sorted(f for f in files if f.endswith(HASHED) and not HASH_NAME.search(f))
    pages = sorted(f for f in files if f.endswith(".html"))
    texts = {}
    refs = {}
    for f in assets + pages:
        if f.endswith((".js", ".css", ".html")):
            with open(os.path.join(site, f), encoding="utf-8") as fh:
                texts[f] = fh.read()
            refs[f] = references(site, f, texts[f])
        else:
            refs[f] = []
    # Each asset after those it names (no cycle: a cycle is an error).
    names = {}
    todo = list(assets)
    while todo:
        ready = [f for f in todo if all(t in names for _, _, t in refs[f] if t != f)]
        if not ready:
            sys.exit(f"assets: files naming each other in a cycle: {', '.join(todo)}")
        for f in ready:
            if f in texts:
                data = rewrite(texts[f], refs[f], names).encode("utf-8")
            else:
                with open(os.path.join(site, f), "rb") as fh:
                    data = fh.read()
            names[f] = hashed_name(f, data)
            with open(os.path.join(site, names[f]), "wb") as fh:
                fh.write(data)
            todo.remove(f)
    modules = [f for f in assets if f.endswith(".js") and os.path.basename(f) != "worker.js"]
    for page in pages:
        text = rewrite(texts[page], refs[page], names)
        imap = import_map(page, modules, names)
        at = text.find("<script")
        at = at if at >= 0 else text.find("</head>")
        if at < 0:
            sys.exit(f"assets: {page} has neither a <script> nor </head> to put the import map before")
        with open(os.path.join(site, page), "w", encoding="utf-8") as fh:
            fh.write(text[:at] + imap + text[at:])
    served = [os.path.join(site, f) for f in list(names.values()) + pages]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(lambda p: compress(p, cache), sorted(served, key=os.path.getsize, reverse=True)))
    total = sum(os.path.getsize(p + ".br") if os.path.exists(p + ".br") else os.path.getsize(p) for p in served)
    print(f"assets: {len(names)} hashed, {len(pages)} pages, {total / 1e6:.2f} MB as brotli", file=sys.stderr)


if __name__ == "__main__":
    main()
