#!/usr/bin/env python3
"""A stand-in for the online catalog's API, for Refrain's tests (python3 stdlib only).

Binds 127.0.0.1 on a free port and prints the port number as its first line on stdout.
It exits when its stdin closes, so a test process that dies takes the server with it.

Requests are answered from routes.json: a route matches when the path is equal and every
query value it lists is equal (the route listing the most values wins). Unknown paths get
HTTP 404 {"error":"Not Found"}, as the real service does. In the JSON files:
  {{BASE}}  becomes http://127.0.0.1:PORT
  {{EXP}}   becomes the server clock + 900 s (signed preview URLs expire after 15 minutes)
  {{SEQ}}   becomes a counter, so every answer carries a different preview signature

Scenarios: prefix any path with /scenario/NAME[~TAG]/ ; counters are kept per
NAME~TAG + path + query, so tests isolate themselves with a unique TAG.
  quota-then-ok    first answer is HTTP 200 with Deezer's quota error (code 4)
  quota-always     always the quota error
  500-then-ok      first answer is HTTP 500
  500-always       always HTTP 500
  429-then-ok      first answer is HTTP 429 with Retry-After: 2
  malformed        HTTP 200 with the first half of the JSON
  html             HTTP 200 with an HTML page
  slow             waits 3 s before answering
  ok (or any other name)   answers normally: a tag alone, so shared servers keep tests apart

Other paths:
  /preview/ID.mp3?exp=T   HTTP 403 once the server clock passes T, else a few MP3-ish bytes
  /stream/NAME.mp3        the old, unsigned preview URLs: always HTTP 200
  /_control/log           GET: every request so far as JSON [{path, query, user_agent}]
  /_control/advance?seconds=N   POST: moves the server clock forward (expires previews)
"""

import json
import os
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
MP3_BYTES = b"ID3\x03\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x00" + b"\x00" * 412


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.routes = json.load(open(os.path.join(HERE, "routes.json")))
        self.counts = {}
        self.log = []
        self.offset = 0.0
        self.seq = 0

    def now(self):
        with self.lock:
            return time.time() + self.offset

    def hit(self, key):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1
            return self.counts[key]

    def next_seq(self):
        with self.lock:
            self.seq += 1
            return self.seq


STATE = State()


def find_route(path, query):
    best = None
    for route in STATE.routes:
        if route["path"] != path:
            continue
        wanted = route.get("query", {})
        if all(query.get(k) == v for k, v in wanted.items()):
            if best is None or len(wanted) > len(best.get("query", {})):
                best = route
    return best


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.handle_request()

    def do_HEAD(self):
        self.handle_request()

    def do_POST(self):
        self.handle_request()

    def send(self, status, body, content_type="application/json", headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_request(self):
        parts = urlsplit(self.path)
        path, raw_query = parts.path, parts.query
        query = {k: v[0] for k, v in parse_qs(raw_query, keep_blank_values=True).items()}
        with STATE.lock:
            STATE.log.append({"method": self.command, "path": path, "query": raw_query,
                              "user_agent": self.headers.get("User-Agent", "")})
        if path.startswith("/_control/"):
            return self.control(path, query)
        scenario = None
        if path.startswith("/scenario/"):
            segments = path.split("/", 3)
            scenario = segments[2]
            path = "/" + (segments[3] if len(segments) > 3 else "")
        if path.startswith("/preview/"):
            return self.preview(query)
        if path.startswith("/stream/"):
            return self.send(200, MP3_BYTES, "audio/mpeg")
        if scenario and self.misbehave(scenario, path, raw_query):
            return
        route = find_route(path, query)
        if route is None:
            return self.send(404, json.dumps({"error": "Not Found"}).encode())
        self.send(route.get("status", 200), self.render(route["file"]))

    def render(self, name):
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            text = f.read()
        base = "http://127.0.0.1:%d" % self.server.server_address[1]
        text = text.replace("{{BASE}}", base).replace("{{EXP}}", str(int(STATE.now()) + 900))
        while "{{SEQ}}" in text:
            text = text.replace("{{SEQ}}", str(STATE.next_seq()), 1)
        return text.encode("utf-8")

    def misbehave(self, scenario, path, raw_query):
        """Answers badly when the scenario says so; returns True when it answered."""
        name = scenario.split("~", 1)[0]
        count = STATE.hit(scenario + " " + path + "?" + raw_query)
        quota = json.dumps({"error": {"type": "Exception", "message": "Quota limit exceeded",
                                      "code": 4}}).encode()
        if name == "quota-always" or (name == "quota-then-ok" and count == 1):
            self.send(200, quota)
        elif name == "500-always" or (name == "500-then-ok" and count == 1):
            self.send(500, b"Internal Server Error", "text/plain")
        elif name == "429-then-ok" and count == 1:
            self.send(429, b'{"error":"Too Many Requests"}', headers={"Retry-After": "2"})
        elif name == "malformed":
            route = find_route(path, {})
            body = self.render(route["file"]) if route else b'{"data":[1,2'
            self.send(200, body[: len(body) // 2])
        elif name == "html":
            self.send(200, b"<html><body>Service unavailable</body></html>", "text/html")
        elif name == "slow":
            time.sleep(3)
            return False
        else:
            return False
        return True

    def preview(self, query):
        expires = float(query.get("exp", "0") or 0)
        if STATE.now() > expires:
            return self.send(403, b"Forbidden: link expired", "text/plain")
        self.send(200, MP3_BYTES, "audio/mpeg")

    def control(self, path, query):
        if path == "/_control/log":
            with STATE.lock:
                body = json.dumps(STATE.log).encode()
            return self.send(200, body)
        if path == "/_control/advance":
            with STATE.lock:
                STATE.offset += float(query.get("seconds", "0"))
            return self.send(200, b"{}")
        self.send(404, b'{"error":"Not Found"}')


class FixtureServer(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):
        # HTTPServer.server_bind looks up the host's FQDN, which can take a second.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]


def main():
    server = FixtureServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(1024):
                pass
        finally:
            os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
