"""A real Subsonic server for the end-to-end tests: supysonic, run by the venv's Python.

    python subsonic_server.py DATA MUSIC USER PASSWORD API_KEY

Sets supysonic up in DATA (an SQLite database, its cache, a config file), adds USER with
PASSWORD and the folder MUSIC, scans it, and serves the same WSGI application on four
ports of 127.0.0.1 with werkzeug's threaded server:

- `token`: a thin layer in front of supysonic, which speaks API 1.12 and takes only
  passwords. The layer checks `t` = MD5(PASSWORD + `s`) for USER and forwards the request
  with `p=PASSWORD`, the way a server that takes tokens answers them. It sends the audio of
  `stream.view` at 64 kB/s, so that a seek far ahead needs a byte range.
- `bare`: supysonic as it is, for the test that a server taking only passwords is refused.
- `opensubsonic`: the token layer plus a small recorded-response fake of the OpenSubsonic
  endpoints supysonic lacks, built from the OpenSubsonic documentation
  (the OpenSubsonic API documentation): `getOpenSubsonicExtensions` listing
  `apiKeyAuthentication` and `songLyrics`, `apiKey=` authentication (errors 43 and 44 as
  documented), and `getLyricsBySongId` answering recorded lyrics in two languages.

- `offsets`: as `opensubsonic`, also listing the `transcodeOffset` extension; it answers
  `stream.view` with `format` itself, running ffmpeg on the stored file from `timeOffset`
  seconds on, as a server with that extension does.

supysonic transcodes with ffmpeg (its `[transcoding]` section) when asked for a `format`; it
refuses `timeOffset` and lists no extensions.

Every request is logged to DATA/requests.log as `PORTNAME METHOD AUTH [RANGE]` (AUTH is
`token`, `apikey`, `password` or `none`; RANGE the `Range` header, when sent; a scrobble adds
`submission=… time=…`; a transcoded stream `format=…`, `maxBitRate=…`, `timeOffset=…`; a
`getCoverArt` the `size=…` asked),
so a test can check that Refrain never sends `p=`, where it asked for
bytes, and what it scrobbled. With SUPYSONIC_LISTENBRAINZ_URL set, USER's account is linked
to a ListenBrainz there, to which supysonic forwards scrobbles.
Prints `READY token=P bare=P opensubsonic=P offsets=P` once all four listen.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from werkzeug.serving import make_server


# The ListenBrainz token of USER's linked account (with SUPYSONIC_LISTENBRAINZ_URL set).
LISTENBRAINZ_TOKEN = "supysonic-user-lb-token"


def main() -> None:
    data, music, user, password, api_key = sys.argv[1:6]
    data_dir = Path(data)
    data_dir.mkdir(parents=True, exist_ok=True)
    config = data_dir / "supysonic.conf"
    config.write_text(
        "[base]\n"
        f"database_uri = sqlite:///{data_dir / 'supysonic.db'}\n"
        "[webapp]\n"
        f"cache_dir = {data_dir / 'cache'}\n"
        "mount_webui = no\n"
        "log_level = WARNING\n"
        "[daemon]\n"
        f"socket = {data_dir / 'daemon.sock'}\n"
        "run_watcher = no\n"
        "[transcoding]\n"
        # supysonic transcodes with ffmpeg when asked for a format (`format=opus`).
        "transcoder = ffmpeg -v error -i %srcpath -map 0:a -b:a %outratek -f %outfmt -\n"
        "[listenbrainz]\n"
        # Never the internet: a closed port on loopback unless a test links a fake.
        f"api_url = {os.environ.get('SUPYSONIC_LISTENBRAINZ_URL', 'http://127.0.0.1:9')}\n")
    env = dict(os.environ, HOME=str(data_dir))
    cli = [str(Path(sys.executable).parent / "supysonic-cli")]
    if not (data_dir / "supysonic.db").exists():
        for args in (["user", "add", user, "-p", password], ["folder", "add", "music", music],
                     ["folder", "scan", "--foreground", "music"]):
            subprocess.run(cli + args, cwd=data_dir, env=env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if "SUPYSONIC_LISTENBRAINZ_URL" in os.environ:
            # The user's linked ListenBrainz account, as supysonic's web page would store it
            # after checking the token: supysonic forwards each scrobble there.
            with sqlite3.connect(data_dir / "supysonic.db") as db:
                db.execute("UPDATE user SET listenbrainz_session = ?, listenbrainz_status = 1 "
                           "WHERE name = ?", (LISTENBRAINZ_TOKEN, user))

    from supysonic.config import IniConfig
    from supysonic.web import create_application

    os.chdir(data_dir)
    app = create_application(IniConfig([str(config)]))
    log = RequestLog(data_dir / "requests.log")
    token = TokenLayer(app, user, password, log, "token")
    apps = {
        "token": token,
        "bare": LoggedApp(app, log, "bare"),
        "opensubsonic": OpenSubsonicFake(app, TokenLayer(app, user, password, log, "opensubsonic"),
                                         user, password, api_key, log),
        "offsets": OpenSubsonicFake(app, TokenLayer(app, user, password, log, "offsets"),
                                    user, password, api_key, log, offsets=True),
    }
    # A restarted server listens where it did before (SUBSONIC_TEST_PORTS=token=P,bare=P,…).
    pinned = dict(p.split("=") for p in os.environ.get("SUBSONIC_TEST_PORTS", "").split(",") if p)
    servers = {}
    for name, wsgi in apps.items():
        server = make_server("127.0.0.1", int(pinned.get(name, 0)), wsgi, threaded=True)
        servers[name] = server
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print("READY " + " ".join(f"{n}={s.server_port}" for n, s in servers.items()), flush=True)
    threading.Event().wait()


class RequestLog:
    """Appends one line per request: the port's name, the method and how it authenticated."""

    def __init__(self, path: Path):
        self.path = path
        self.lock = threading.Lock()

    def record(self, port: str, environ: dict) -> None:
        query = dict(parse_qsl(environ.get("QUERY_STRING", "")))
        auth = ("password" if "p" in query else "apikey" if "apiKey" in query
                else "token" if "t" in query else "none")
        method = environ.get("PATH_INFO", "").rsplit("/", 1)[-1]
        asked = environ.get("HTTP_RANGE")
        extra = f" {asked}" if asked else ""
        if "submission" in query:  # scrobble.view
            extra += f" submission={query['submission']} time={query.get('time', '')}"
        for name in ("format", "maxBitRate", "timeOffset"):  # stream.view, transcoded
            if name in query:
                extra += f" {name}={query[name]}"
        if method.startswith("getCoverArt") and "size" in query:
            extra += f" size={query['size']}"
        with self.lock, self.path.open("a") as out:
            out.write(f"{port} {method} {auth}{extra}\n")


class LoggedApp:
    """The app as it is, with each request logged."""

    def __init__(self, app, log: RequestLog, name: str):
        self.app, self.log, self.name = app, log, name

    def __call__(self, environ, start_response):
        self.log.record(self.name, environ)
        return self.app(environ, start_response)


def failed(start_response, code: int, message: str):
    """A Subsonic error answer in JSON, as the API sends it (HTTP 200)."""
    body = json.dumps({"subsonic-response": {
        "status": "failed", "version": "1.16.1",
        "error": {"code": code, "message": message}}}).encode()
    start_response("200 OK", [("Content-Type", "application/json"),
                              ("Content-Length", str(len(body)))])
    return [body]


# Audio leaves at 64 kB/s, about three times the bit rate of the test tracks: playback
# needs no more, and a seek far ahead must ask for a byte range rather than wait.
# SUPYSONIC_STREAM_RATE=0 sends it as fast as supysonic can (for measurements).
STREAM_RATE = int(os.environ.get("SUPYSONIC_STREAM_RATE", "64000"))


def throttled(result, rate: int = STREAM_RATE):
    """The body of `result` in 8 KiB pieces at `rate` bytes a second."""
    start, sent = time.monotonic(), 0
    try:
        for block in result:
            for i in range(0, len(block), 8192):
                piece = block[i:i + 8192]
                sent += len(piece)
                wait = start + sent / rate - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                yield piece
    finally:
        if hasattr(result, "close"):
            result.close()


def forward(app, environ, start_response, user: str, password: str):
    """Forwards the request to supysonic with USER and PASSWORD in place of other credentials
    (every other parameter kept, repeated ones too); the audio of `stream` at STREAM_RATE."""
    # Read from the query string itself, so a repeated parameter (`songId`) keeps every value.
    pairs = [(k, v) for k, v in parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)
             if k not in ("t", "s", "apiKey", "p", "u")]
    environ = dict(environ, QUERY_STRING=urlencode(pairs + [("u", user), ("p", password)]))
    result = app(environ, start_response)
    if STREAM_RATE > 0 and environ.get("PATH_INFO", "").endswith(("/stream", "/stream.view")):
        return throttled(result)
    return result


class TokenLayer:
    """Checks `t` = MD5(password + `s`) and forwards with `p=`; passwords pass through."""

    def __init__(self, app, user: str, password: str, log: RequestLog, name: str):
        self.app, self.user, self.password, self.log, self.name = app, user, password, log, name

    def __call__(self, environ, start_response):
        self.log.record(self.name, environ)
        query = dict(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True))
        if "t" not in query:
            return self.app(environ, start_response)
        salt = query.get("s")
        if not salt:
            return failed(start_response, 10, "Required parameter is missing: s")
        expected = hashlib.md5((self.password + salt).encode()).hexdigest()
        if query.get("u") != self.user or query["t"].lower() != expected:
            return failed(start_response, 40, "Wrong username or password")
        return forward(self.app, environ, start_response, self.user, self.password)


# The recorded lyrics of every song (the tests ask for those of "Steps Up", whose second k
# sounds 300 + 50·k Hz): line k at 1 + 2k seconds, and its translation in Korean, with the
# server's offset of 0, as `getLyricsBySongId` answers them in the OpenSubsonic docs.
LYRICS = [
    {"displayArtist": "Tone Quartet", "displayTitle": "Steps Up", "lang": "eng", "offset": 0,
     "synced": True, "line": [{"start": 1000 + 2000 * k, "value": f"Step line {k + 1}"}
                              for k in range(10)]},
    {"displayArtist": "Tone Quartet", "displayTitle": "Steps Up", "lang": "kor", "offset": 0,
     "synced": True, "line": [{"start": 1000 + 2000 * k, "value": f"계단 {k + 1}"}
                              for k in range(10)]},
]


class OpenSubsonicFake:
    """The OpenSubsonic endpoints supysonic lacks, answered as the OpenSubsonic docs show."""

    EXTENSIONS = [{"name": "apiKeyAuthentication", "versions": [1]},
                  {"name": "songLyrics", "versions": [1]}]
    # getLyricsBySongId answers LYRICS for any song.

    def __init__(self, app, tokens: TokenLayer, user: str, password: str, api_key: str,
                 log: RequestLog, offsets: bool = False):
        self.app, self.tokens, self.log = app, tokens, log
        self.user, self.password, self.api_key = user, password, api_key
        self.offsets = offsets
        self.name = tokens.name
        self.extensions = self.EXTENSIONS + ([{"name": "transcodeOffset", "versions": [1]}]
                                             if offsets else [])

    def __call__(self, environ, start_response):
        query = dict(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True))
        method = environ.get("PATH_INFO", "").rsplit("/", 1)[-1].removesuffix(".view")
        if method == "getOpenSubsonicExtensions":
            self.log.record(self.name, environ)
            body = json.dumps({"subsonic-response": {
                "status": "ok", "version": "1.16.1", "type": "refrain-test-fake",
                "serverVersion": "0.1", "openSubsonic": True,
                "openSubsonicExtensions": self.extensions}}).encode()
            start_response("200 OK", [("Content-Type", "application/json"),
                                      ("Content-Length", str(len(body)))])
            return [body]
        if method == "getLyricsBySongId":
            self.log.record(self.name, environ)
            if not self.authenticated(query):
                return failed(start_response, 40, "Wrong username or password")
            body = json.dumps({"subsonic-response": {
                "status": "ok", "version": "1.16.1", "type": "refrain-test-fake",
                "openSubsonic": True, "lyricsList": {"structuredLyrics": LYRICS}}}).encode()
            start_response("200 OK", [("Content-Type", "application/json"),
                                      ("Content-Length", str(len(body)))])
            return [body]
        if self.offsets and method == "stream" and "format" in query:
            self.log.record(self.name, environ)
            if not self.authenticated(query):
                return failed(start_response, 40, "Wrong username or password")
            return self.transcoded(environ, start_response, query)
        if "apiKey" in query:
            self.log.record(self.name, environ)
            if "u" in query:
                return failed(start_response, 43, "Multiple conflicting authentication mechanisms provided")
            if query["apiKey"] != self.api_key:
                return failed(start_response, 44, "Invalid API key")
            return forward(self.app, environ, start_response, self.user, self.password)
        return self.tokens(environ, start_response)

    def transcoded(self, environ, start_response, query: dict):
        """`stream.view` with `format` as a server offering `transcodeOffset` answers it: the
        stored file from supysonic, transcoded by ffmpeg from `timeOffset` seconds on."""
        stored = {k: v for k, v in query.items() if k not in ("format", "maxBitRate", "timeOffset")}
        for key in ("t", "s", "apiKey", "p"):
            stored.pop(key, None)
        stored.update(u=self.user, p=self.password)
        captured = {}

        def keep(status, headers, exc_info=None):
            captured["status"] = status
            return lambda data: None

        whole = {k: v for k, v in environ.items() if k != "HTTP_RANGE"}
        body = b"".join(self.app(dict(whole, QUERY_STRING=urlencode(stored)), keep))
        if not captured["status"].startswith("200") or body.startswith(b"{"):
            start_response(captured["status"], [("Content-Type", "application/json")])
            return [body]
        args = ["ffmpeg", "-v", "error", "-ss", str(int(query.get("timeOffset") or 0)),
                "-i", "pipe:0", "-map", "0:a", "-f", query["format"]]
        if int(query.get("maxBitRate") or 0) > 0:
            args += ["-b:a", f"{query['maxBitRate']}k"]
        audio = subprocess.run(args + ["-"], input=body, capture_output=True, check=True).stdout
        start_response("200 OK", [("Content-Type", "audio/ogg")])
        return throttled([audio]) if STREAM_RATE > 0 else [audio]

    def authenticated(self, query: dict) -> bool:
        if "apiKey" in query:
            return "u" not in query and query["apiKey"] == self.api_key
        salt = query.get("s", "")
        return (query.get("u") == self.user and bool(salt)
                and query.get("t", "").lower() == hashlib.md5((self.password + salt).encode()).hexdigest())


if __name__ == "__main__":
    main()
