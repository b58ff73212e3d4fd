#!/usr/bin/env python3
"""A tiny LRCLIB stand-in for Refrain's tests, on 127.0.0.1 only.

Usage: python3 server.py [FIXTURE_DIR]

It prints the port it listens on (chosen by the OS) as the first line on stdout, then serves
until stdin closes or it is killed. The first path segment picks a scenario, and the rest is
the LRCLIB route: GET /<scenario>/api/get?... and GET /<scenario>/api/search?...

Scenarios:
  synced        get -> get_200.json
  plain         get -> get_200.json with syncedLyrics null
  instrumental  get -> instrumental:true, both lyrics "" (the shape some servers send)
  fallback      get -> 404; search -> search_fields_trimmed.json
  far           get -> get_200.json with duration 250; search -> search_fields_trimmed.json
  empty         get -> 404; search -> search_empty.json
  malformed     get -> HTTP 200 with truncated JSON
  validation    get -> HTTP 400 error_400_validation.json
  hang          never answers (sleeps 30 s)
  echo          get -> plainLyrics holds the User-Agent line and the raw query string
"""

import copy
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

FIXTURES = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as handle:
        return json.loads(handle.read().decode("utf-8"))


GET_200 = fixture("get_200.json")
NOT_FOUND = fixture("get_404_track_not_found.json")
SEARCH = fixture("search_fields_trimmed.json")
SEARCH_EMPTY = fixture("search_empty.json")
VALIDATION = fixture("error_400_validation.json")


def changed(record, **fields):
    record = copy.deepcopy(record)
    record.update(fields)
    return record


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, value=None, raw=None):
        body = raw if raw is not None else json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = urlsplit(self.path)
        segments = parts.path.strip("/").split("/")
        if len(segments) != 3 or segments[1] != "api":
            return self.send_json(404, NOT_FOUND)
        scenario, route = segments[0], segments[2]

        if scenario == "hang":
            time.sleep(30)
            return
        if route == "search":
            if scenario in ("fallback", "far"):
                return self.send_json(200, SEARCH)
            return self.send_json(200, SEARCH_EMPTY)
        if route != "get":
            return self.send_json(404, NOT_FOUND)

        if scenario == "synced":
            return self.send_json(200, GET_200)
        if scenario == "plain":
            return self.send_json(200, changed(GET_200, syncedLyrics=None))
        if scenario == "instrumental":
            return self.send_json(
                200, changed(GET_200, instrumental=True, plainLyrics="", syncedLyrics=""))
        if scenario == "far":
            return self.send_json(200, changed(GET_200, duration=250.0))
        if scenario == "malformed":
            return self.send_json(200, raw=b'{"id": 3396226, "trackName": "I Want')
        if scenario == "validation":
            return self.send_json(400, VALIDATION)
        if scenario == "echo":
            text = "User-Agent: %s\nQuery: %s" % (self.headers.get("User-Agent"), parts.query)
            return self.send_json(200, changed(GET_200, syncedLyrics=None, plainLyrics=text))
        return self.send_json(404, NOT_FOUND)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Exit when the test process goes away and closes our stdin.
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
