#!/usr/bin/env python3
"""Serves the browser board (target/web/, from scripts/web/build.sh) on
127.0.0.1, gzip-compressed where the browser accepts it, as a static host
would. A Worker does not load from file://, hence a server.

    python3 scripts/web/serve.py [--port 8000] [--root target/web]
"""
import argparse
import gzip
import http.server
import os
import sys

TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
         ".html": "text/html; charset=utf-8", ".css": "text/css", ".png": "image/png",
         ".svg": "image/svg+xml", ".json": "application/json"}


def handler(root):
    cache = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path.endswith("/"):
                path += "index.html"
            full = os.path.realpath(os.path.join(root, path.lstrip("/")))
            if not full.startswith(os.path.realpath(root) + os.sep) or not os.path.isfile(full):
                self.send_error(404)
                return
            with open(full, "rb") as f:
                body = f.read()
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(os.path.splitext(full)[1], "application/octet-stream"))
            self.send_header("Cache-Control", "no-cache")
            if "gzip" in self.headers.get("Accept-Encoding", ""):
                key = (full, os.path.getmtime(full))
                if key not in cache:
                    cache[key] = gzip.compress(body, 6)
                body = cache[key]
                self.send_header("Content-Encoding", "gzip")
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
