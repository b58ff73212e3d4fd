#!/usr/bin/env python3
"""A file server on 127.0.0.1 (random port) serving one folder, with byte ranges and the
ways a download goes wrong: what the HTTP byte source's unit tests and the end-to-end
tests (harness.py imports `FixtureServer`) play URLs from.

Run as `range_server.py FOLDER`, it prints its port on the first stdout line and exits when its
stdin closes, so it never outlives the test process that started it.

Paths (NAME is a file in the folder):
  /files/NAME          the file, honouring `Range: bytes=A-B`, `A-` and `-N` (206, 416)
  /plain/NAME          the whole file with 200, whatever Range asks (a server without ranges)
  /slow/RATE/NAME      like /files, sent at RATE bytes per second
  /cut/N/NAME          like /files, but every answer stops after N bytes of its body and
                       the connection closes (Content-Length promised more)
  /drop/NAME           like /plain, but announces the full length, sends half, then closes
  /drop/N/NAME         the same, closing after N bytes
  /unsized/RATE/NAME   the whole file with 200 and no length (a server transcoding as it
                       sends), at RATE bytes per second, then the connection closes
  /hang/NAME           reads the request and never answers
  /icy/N/NAME          a live radio stream: 200, `icy-metaint: N`, no length; the file with a
                       metadata block `StreamTitle='Ada - Same';` after every N bytes, sent in
                       pieces of 1000 bytes (blocks split across reads), then the connection
                       closes
  /liar/NAME           a server that lies about the length: 200 with `Content-Length:
                       999999999999999`, then the real file, then the connection closes
  /liar206/NAME        the same with ranges: 206 with `Content-Range: bytes S-…/2^63-1` for a
                       request from S (and the length of what it sends), then the real file
                       from S (nothing past its end), then the connection closes
  /liar206big/NAME     the same with `Content-Length: 2^63-1-S` (only the `refrain` binary
                       survives that header: its CCurlLoader stands between it and
                       FoundationNetworking, which traps on it)
  /icydrop/N/NAME      a live stream that drops right after connecting: ICY headers, the
                       first N bytes of the file, then the connection closes
  /big/N               a 200 JSON answer of N bytes (Content-Length given)
  /bigchunked/N        the same without a length (the connection closes after it)
  /stall/N             a 200 answer promising 2N bytes that sends N, then nothing
  /stallfile/NAME      a 200 answer promising twice the file that sends it, then nothing
  /_log                every request so far, as JSON: [{"path", "range", "status"}]
  anything else        404
"""

from __future__ import annotations

import http.server
import json
import re
import socket
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

PATHS = re.compile(r"/(files|plain|slow/(\d+)|cut/(\d+)|drop(?:/(\d+))?|hang|icy/(\d+)|unsized/(\d+))/([^/]+)")


def byte_range(header: str | None, size: int) -> tuple[int, int, int]:
    """(status, start, end) of the answer to a `Range` header for `size` bytes: 206 with
    the bytes asked for (`bytes=A-B`, `A-`, `-N`), 416 for a range past the end, 200 with
    all of them for no header or one not understood."""
    rm = re.fullmatch(r"bytes=(\d*)-(\d*)", (header or "").strip())
    if not rm or not (rm.group(1) or rm.group(2)):
        return 200, 0, size
    if rm.group(1):
        start = int(rm.group(1))
        end = min(size, int(rm.group(2)) + 1) if rm.group(2) else size
    else:
        start, end = max(0, size - int(rm.group(2))), size
    if start >= size or start >= end:
        return 416, 0, 0
    return 206, start, end


@dataclass
class Transfer:
    """One request the fixture server answered (or did not)."""

    path: str
    method: str
    started: float
    size: int = 0                # bytes the full answer would have
    sent: int = 0                # bytes of body sent so far
    finished: float | None = None   # all bytes sent
    aborted: float | None = None    # the client went away first
    range: str | None = None
    status: int = 404


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that went away (a cancelled request) is not news


class FixtureServer:
    """The server, on a thread of its own; `close()` stops it."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.transfers: list[Transfer] = []
        self._release = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):  # keep test output clean
                pass

            def do_HEAD(self):
                server._answer(self, head=True)

            def do_GET(self):
                server._answer(self, head=False)

        self.httpd = _Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    # URLs
    def url(self, name: str, rate: int | None = None) -> str:
        if rate:
            return f"http://127.0.0.1:{self.port}/slow/{rate}/{urllib.parse.quote(name)}"
        return f"http://127.0.0.1:{self.port}/files/{urllib.parse.quote(name)}"

    def drop_url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/drop/{urllib.parse.quote(name)}"

    def hang_url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/hang/{urllib.parse.quote(name)}"

    def missing_url(self, name: str = "no-such-song.mp3") -> str:
        return f"http://127.0.0.1:{self.port}/files/{urllib.parse.quote(name)}"

    def requests_for(self, name: str) -> list[Transfer]:
        return [t for t in self.transfers if t.path.endswith("/" + name)]

    def close(self) -> None:
        self._release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    # Serving
    def _send_empty(self, h, status: int, headers: dict[str, str], body: bytes = b"") -> None:
        h.send_response(status)
        for key, value in headers.items():
            h.send_header(key, value)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        if body:
            h.wfile.write(body)

    def _answer(self, h: http.server.BaseHTTPRequestHandler, head: bool) -> None:
        path = urllib.parse.unquote(urllib.parse.urlsplit(h.path).path)
        if path == "/_log":
            log = [{"path": t.path, "range": t.range, "status": t.status} for t in self.transfers]
            self._send_empty(h, 200, {"Content-Type": "application/json"}, json.dumps(log).encode())
            return
        t = Transfer(path=path, method=h.command, started=time.monotonic(), range=h.headers.get("Range"))
        self.transfers.append(t)
        if self._hostile(h, t, path):
            return
        m = PATHS.fullmatch(path)
        file = self.root / m.group(7) if m else None
        if not m or not file.is_file():
            self._send_empty(h, 404, {"Content-Type": "text/plain", "Connection": "close"},
                             b"" if head else b"not found\n")
            t.finished = time.monotonic()
            return
        kind = m.group(1).split("/")[0]
        if kind == "hang":
            # Never answer; let go only when the server shuts down (or after 2 minutes).
            self._release.wait(120)
            h.close_connection = True
            return
        data = file.read_bytes()
        if kind == "icy":
            self._send_icy(h, t, data, int(m.group(5)))
            return
        ranges = kind in ("files", "slow", "cut")
        status, start, end = byte_range(h.headers.get("Range") if ranges else None, len(data))
        if status == 416:
            t.status = 416
            self._send_empty(h, 416, {"Content-Range": f"bytes */{len(data)}"})
            t.finished = time.monotonic()
            return
        t.status = status
        h.send_response(status)
        h.send_header("Content-Type", "audio/mpeg")
        h.send_header("Accept-Ranges", "bytes" if ranges else "none")
        if kind != "unsized":
            h.send_header("Content-Length", str(end - start))
        if status == 206:
            h.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(data)}")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True
        t.size = end - start
        if head:
            t.finished = time.monotonic()
            return
        body = data[start:end]
        limit = len(body)
        if kind == "drop":
            limit = int(m.group(4)) if m.group(4) else len(body) // 2
        elif kind == "cut":
            limit = min(limit, int(m.group(3)))
        rate = int(m.group(2)) if kind == "slow" else int(m.group(6)) if kind == "unsized" else None
        chunk = max(512, rate // 20) if rate else 64 * 1024
        t0 = time.monotonic()
        try:
            pos = 0
            while pos < limit:
                n = min(chunk, limit - pos)
                h.wfile.write(body[pos:pos + n])
                h.wfile.flush()
                pos += n
                t.sent = pos
                if rate:
                    # Keep to the rate on average: sleep until this much may have been sent.
                    delay = t0 + pos / rate - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                if self._release.is_set():
                    raise ConnectionAbortedError("server shutting down")
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            t.aborted = time.monotonic()
            return
        if limit < len(body):
            # Cut the connection mid-body: the client was promised more.
            try:
                h.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            t.aborted = time.monotonic()
            return
        t.finished = time.monotonic()


    def _hostile(self, h, t: Transfer, path: str) -> bool:
        """Answers the hostile paths (see the module's doc); `False` for any other."""
        m = re.fullmatch(r"/(big|bigchunked|stall)/(\d+)", path)
        if m:
            n = int(m.group(2))
            t.status = 200
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            if m.group(1) != "bigchunked":
                h.send_header("Content-Length", str(2 * n if m.group(1) == "stall" else n))
            h.send_header("Connection", "close")
            h.end_headers()
            h.close_connection = True
            head = b'{"subsonic-response":{"status":"ok","version":"1.16.1","pad":"'
            body = head + b"a" * max(0, n - len(head) - 4) + b'"}}\n'
            try:
                for pos in range(0, n, 64 * 1024):
                    h.wfile.write(body[pos:min(n, pos + 64 * 1024)])
                    t.sent = min(n, pos + 64 * 1024)
                h.wfile.flush()
                if m.group(1) == "stall":
                    self._release.wait(120)
            except (BrokenPipeError, ConnectionResetError):
                t.aborted = time.monotonic()
                return True
            t.finished = time.monotonic()
            return True
        m = re.fullmatch(r"/(liar|liar206big|liar206|icydrop/(\d+)|stallfile)/([^/]+)", path)
        if not m or not (self.root / m.group(3)).is_file():
            return False
        data = (self.root / m.group(3)).read_bytes()
        kind = m.group(1).split("/")[0]
        if kind == "icydrop":
            t.status = 200
            h.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: test\r\n\r\n")
            h.close_connection = True
            try:
                h.wfile.write(data[:int(m.group(2))])
                h.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            t.finished = time.monotonic()
            return True
        if kind == "stallfile":
            t.status = 200
            h.send_response(200)
            h.send_header("Content-Length", str(2 * len(data)))
            h.end_headers()
            try:
                h.wfile.write(data)
                h.wfile.flush()
                self._release.wait(120)
            except OSError:
                pass
            return True
        start = 0
        if kind.startswith("liar206"):
            rm = re.fullmatch(r"bytes=(\d+)-\d*", (h.headers.get("Range") or "").strip())
            start = int(rm.group(1)) if rm else 0
        total = 999999999999999 if kind == "liar" else 2**63 - 1
        t.status = 200 if kind == "liar" else 206
        h.send_response(t.status)
        h.send_header("Content-Type", "audio/ogg")
        h.send_header("Content-Length", str(len(data[start:]) if kind == "liar206" else total - start))
        if kind.startswith("liar206"):
            h.send_header("Content-Range", f"bytes {start}-{total - 1}/{total}")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True
        try:
            h.wfile.write(data[start:])
            h.wfile.flush()
            h.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        t.aborted = time.monotonic()
        return True

    def _send_icy(self, h, t: Transfer, data: bytes, interval: int) -> None:
        text = b"StreamTitle='Ada - Same';"
        block = bytes([(len(text) + 15) // 16]) + text.ljust((len(text) + 15) // 16 * 16, b"\0")
        body = b"".join(data[i:i + interval] + (block if i + interval <= len(data) else b"")
                        for i in range(0, len(data), interval))
        t.status = 200
        # With a space after each colon: the unit tests' FoundationNetworking is not behind
        # CCurlLoader's header fix (only the `refrain` binary exports it), and Icecast's own
        # `icy-name:…` lines are covered end to end (Tests/EndToEnd/test_radio.py).
        h.wfile.write(f"HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: test\r\n"
                      f"icy-metaint: {interval}\r\n\r\n".encode())
        h.close_connection = True
        try:
            for pos in range(0, len(body), 1000):
                h.wfile.write(body[pos:pos + 1000])
                h.wfile.flush()
                t.sent = pos
        except (BrokenPipeError, ConnectionResetError):
            t.aborted = time.monotonic()
            return
        t.finished = time.monotonic()


def main() -> None:
    server = FixtureServer(Path(sys.argv[1]))
    print(server.port, flush=True)
    sys.stdin.read()  # until the test process closes it
    server.close()


if __name__ == "__main__":
    main()
