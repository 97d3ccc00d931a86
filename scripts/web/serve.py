#!/usr/bin/env python3
"""Serves the browser board (target/web/, from scripts/web/build.sh) on
127.0.0.1 as mollett-server does (server/src/http.rs): the build's brotli
or gzip copy (NAME.br, NAME.gz) where the browser accepts it, nothing
compressed here; a year's caching (immutable) for the build's hashed names,
no-cache (asked again, 304 when unchanged) for the pages. A Worker does not
load from file://, hence a server.

    python3 scripts/web/serve.py [--port 8000] [--root target/web]
"""
import argparse
import email.utils
import http.server
import os
import re
import sys

TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
         ".html": "text/html; charset=utf-8", ".css": "text/css", ".png": "image/png",
         ".svg": "image/svg+xml", ".json": "application/json", ".woff2": "font/woff2"}
# The build's NAME.HASH.EXT (scripts/web/assets.py), as the server tells them.
HASHED = re.compile(r"[^/]\.[0-9a-f]{12}\.[^./]+$")
IMMUTABLE = "public, max-age=31536000, immutable"


def accepts(header, coding):
    """Whether Accept-Encoding `header` takes `coding` (not with q=0)."""
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() == coding:
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def handler(root):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path.endswith("/"):
                path += "index.html"
            full = os.path.realpath(os.path.join(root, path.lstrip("/")))
            if not full.startswith(os.path.realpath(root) + os.sep) or not os.path.isfile(full):
                self.send_error(404)
                return
            hashed = HASHED.search(path) is not None
            modified = email.utils.formatdate(os.path.getmtime(full), usegmt=True)
            if not hashed and self.headers.get("If-Modified-Since") == modified:
                self.send_response(304)
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                return
            sent, coding = full, None
            accept = self.headers.get("Accept-Encoding", "")
            for name, ext in (("br", ".br"), ("gzip", ".gz")):
                if accepts(accept, name) and os.path.isfile(full + ext):
                    sent, coding = full + ext, name
                    break
            with open(sent, "rb") as f:
                body = f.read()
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(os.path.splitext(full)[1], "application/octet-stream"))
            self.send_header("Cache-Control", IMMUTABLE if hashed else "no-cache")
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("Last-Modified", modified)
            if coding:
                self.send_header("Content-Encoding", coding)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt, *args):
            pass

    return Handler


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", "..", "target", "web"))
    args = ap.parse_args()
    if not os.path.isfile(os.path.join(args.root, "index.html")):
        sys.exit(f"serve: no {os.path.join(args.root, 'index.html')}; run scripts/web/build.sh first")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler(args.root))
    print(f"Mollett's board: http://127.0.0.1:{server.server_port}/", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
