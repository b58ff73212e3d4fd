"""Scrobbling end to end: `refrain play` against fake ListenBrainz and Last.fm servers.

The servers are Python's http.server on 127.0.0.1, reached through REFRAIN_LISTENBRAINZ_URL
and REFRAIN_LASTFM_URL; the player runs on the silent output (`--output null`), whose clock
follows the wall clock, so no audio server is needed. The track is a 32 s MP3 with ID3 tags
made here with sox and lame: it counts as a listen after 16 s of audible time.

The waits follow the audible position (the `position` events, or the now-playing line of the
full-screen player), not the wall clock: a listen is due at a position of the track, and on a
busy machine the position may fall behind the clock. A wait gives up when the position passes
where the request was due, or when it stops moving for STALL seconds (a hung player).

An online catalog's 30 s preview is played in the full-screen player from a fake catalog,
past half its length, and nothing reaches ListenBrainz.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import socket
import stat
import subprocess
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

TOKEN = "lb-test-token-0123"
API_KEY = "lastfm-test-key"
SECRET = "lastfm-test-secret"
SESSION_KEY = "lastfm-session-key"
LENGTH = 32.0          # seconds: the listen threshold is half of it
THRESHOLD = LENGTH / 2
STALL = 10.0           # seconds the audible position may stand still before a wait gives up


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def song(tmp_path_factory) -> Path:
    """A 32 s tagged MP3: title "Test Song", artist "Test Artist", album "Test Album"."""
    folder = tmp_path_factory.mktemp("scrobble-fixture")
    wav, mp3 = folder / "song.wav", folder / "song.mp3"
    subprocess.run(["sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", str(wav),
                    "synth", str(LENGTH), "sine", "440", "vol", "0.3"], check=True)
    subprocess.run(["lame", "--quiet", "--cbr", "-b", "64", "--add-id3v2",
                    "--tt", "Test Song", "--ta", "Test Artist", "--tl", "Test Album",
                    str(wav), str(mp3)], check=True)
    return mp3


class FakeService:
    """An HTTP server that records every request and answers with `answer(request)`."""

    def __init__(self, answer, port: int = 0):
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = {"method": self.command, "path": self.path,
                           "headers": {k.lower(): v for k, v in self.headers.items()},
                           "body": body, "wall": time.time(), "mono": time.monotonic()}
                with service.lock:
                    service.requests.append(request)
                status, headers, payload = answer(request)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = _handle
            do_POST = _handle

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def snapshot(self) -> list[dict]:
        with self.lock:
            return list(self.requests)

    def wait_for(self, predicate, timeout: float, what: str) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for request in self.snapshot():
                if predicate(request):
                    return request
            time.sleep(0.05)
        pytest.fail(f"no {what} within {timeout} s; requests: {self.snapshot()!r}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def listenbrainz_answer(request):
    return 200, {"X-RateLimit-Remaining": "10", "X-RateLimit-Reset-In": "5"}, b'{"status": "ok"}'


def lb_json(request) -> dict:
    return json.loads(request["body"])


def lb_type(kind: str):
    return lambda r: r["path"] == "/1/submit-listens" and lb_json(r).get("listen_type") == kind


def lastfm_form(request) -> dict:
    return dict(urllib.parse.parse_qsl(request["body"].decode(), keep_blank_values=True))


def lastfm_signature(form: dict, secret: str) -> str:
    """Last.fm's api_sig, computed independently: every parameter but format, callback and
    api_sig, sorted by name, name then value, then the secret; MD5 as hex."""
    signed = sorted((k, v) for k, v in form.items() if k not in ("format", "callback", "api_sig"))
    text = "".join(k + v for k, v in signed) + secret
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def lastfm_answer(request):
    form = lastfm_form(request)
    if form.get("api_sig") != lastfm_signature(form, SECRET):
        return 200, {}, json.dumps({"error": 13, "message": "Invalid method signature supplied"}).encode()
    method = form.get("method")
    if method == "auth.getToken":
        return 200, {}, b'{"token": "approve-me"}'
    if method == "auth.getSession":
        return 200, {}, json.dumps({"session": {"name": "tester", "key": SESSION_KEY, "subscriber": 0}}).encode()
    if method == "track.updateNowPlaying":
        return 200, {}, b'{"nowplaying": {}}'
    if method == "track.scrobble":
        return 200, {}, b'{"scrobbles": {"@attr": {"accepted": 1, "ignored": 0}}}'
    return 200, {}, b'{"error": 3, "message": "Invalid Method"}'


@pytest.fixture
def listenbrainz():
    server = FakeService(listenbrainz_answer)
    yield server
    server.close()


@pytest.fixture
def lastfm():
    server = FakeService(lastfm_answer)
    yield server
    server.close()


def write_config(refrain, text: str) -> None:
    folder = Path(refrain.env["XDG_CONFIG_HOME"]) / "refrain"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wall_time(run, event) -> float:
    """The wall-clock time at which `event` arrived."""
    return time.time() - (time.monotonic() - event.arrival)


def wait_while_playing(service: FakeService, predicate, what: str, position, until: float) -> tuple[dict, float]:
    """Waits for the first request matching `predicate` while the track plays; returns it and
    the audible position when it arrived.

    `position()` reads the position heard so far (None before the track plays). The wait
    fails once the position is past `until` with no such request, or when the position has
    not moved for STALL seconds: it follows the track, not the wall clock, so a slow machine
    makes it longer, never wrong.
    """
    seen: list[tuple[float, float]] = []   # (monotonic time, position)
    moved = time.monotonic()
    while True:
        now, where = time.monotonic(), position()
        if where is not None and (not seen or where != seen[-1][1]):
            moved = now
        if where is not None:
            seen.append((now, where))
        found = next((r for r in service.snapshot() if predicate(r)), None)
        if found is not None:
            before = [p for t, p in seen if t <= found["mono"]]
            return found, (before[-1] if before else 0.0)
        if where is not None and where > until:
            pytest.fail(f"no {what} by {where} s of the track heard; requests: {service.snapshot()!r}")
        if now - moved > STALL:
            pytest.fail(f"no {what}, and the position stood at {seen[-1][1] if seen else None} s for {STALL} s; "
                        f"requests: {service.snapshot()!r}")
        time.sleep(0.05)


def events_position(run):
    """The audible position of the last `position` event of `run`, or None before the first."""
    return lambda: run.positions[-1]["t"] if run.positions else None


def scrobble(refrain, *args: str, env: dict | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    full = dict(refrain.env)
    full.update(env or {})
    return subprocess.run([str(refrain.binary), "scrobble", *args], env=full, input=stdin,
                          capture_output=True, text=True, timeout=60)


# ---------------------------------------------------------------- ListenBrainz

def test_listenbrainz_gets_playing_now_at_start_and_the_listen_only_after_the_threshold(
        refrain, song, listenbrainz):
    write_config(refrain, f'[scrobble]\nlistenbrainz_token = "{TOKEN}"\n')
    env = {"REFRAIN_LISTENBRAINZ_URL": listenbrainz.url}
    run = refrain.start(song, "--output", "null", "--events", "--duration", str(THRESHOLD + 3), env=env)
    start = run.wait_for(lambda e: e.kind == "start", 10, "start event")
    started_wall = wall_time(run, start)

    now_playing, _ = wait_while_playing(listenbrainz, lb_type("playing_now"), "playing_now at the start",
                                        events_position(run), until=1.0)
    assert now_playing["headers"]["authorization"] == f"Token {TOKEN}"
    assert now_playing["headers"]["user-agent"].startswith("Refrain/")
    meta = lb_json(now_playing)["payload"][0]["track_metadata"]
    assert (meta["artist_name"], meta["track_name"], meta["release_name"]) == \
        ("Test Artist", "Test Song", "Test Album")
    assert "listened_at" not in lb_json(now_playing)["payload"][0]

    listen, heard = wait_while_playing(listenbrainz, lb_type("single"), "the listen", events_position(run),
                                       until=THRESHOLD + 2)
    assert heard >= THRESHOLD - 0.5, f"the listen was sent {heard:.1f} s into the track, before the threshold"
    assert heard <= THRESHOLD + 2, f"the listen was sent {heard:.1f} s into the track"
    payload = lb_json(listen)["payload"]
    assert len(payload) == 1
    # listened_at is the start, in whole seconds: not after playing_now was sent.
    assert started_wall - 2 <= payload[0]["listened_at"] <= now_playing["wall"], \
        (payload[0]["listened_at"], started_wall, now_playing["wall"])
    assert payload[0]["track_metadata"]["additional_info"]["duration_ms"] == pytest.approx(LENGTH * 1000, abs=100)

    run.finish(30)
    assert run.returncode == 0, run.stderr
    assert len([r for r in listenbrainz.snapshot() if lb_type("single")(r)]) == 1
    status = json.loads(scrobble(refrain, "status", "--json", env=env).stdout)
    lb = next(s for s in status["services"] if s["name"] == "listenbrainz")
    assert (lb["enabled"], lb["pending"], lb["sent"]) == (True, 0, 1)
    # The token is never written to the log.
    log = Path(refrain.env["XDG_STATE_HOME"]) / "refrain" / "refrain.log"
    assert TOKEN not in (log.read_text() if log.exists() else "")


def test_a_listen_waits_in_the_queue_while_the_server_is_down_and_survives_sigkill(refrain, song):
    port = free_port()   # nothing listens here until the server starts below
    url = f"http://127.0.0.1:{port}/"
    write_config(refrain, f'[scrobble]\nlistenbrainz_token = "{TOKEN}"\n')
    env = {"REFRAIN_LISTENBRAINZ_URL": url}
    run = refrain.start(song, "--output", "null", "--events", env=env)
    start = run.wait_for(lambda e: e.kind == "start", 10, "start event")
    started_wall = wall_time(run, start)
    run.wait_position(THRESHOLD + 2, THRESHOLD + 10)
    run.proc.send_signal(9)
    run.kill()

    status = scrobble(refrain, "status", "--json", env=env)
    assert status.returncode == 0, status.stderr
    lb = next(s for s in json.loads(status.stdout)["services"] if s["name"] == "listenbrainz")
    assert lb["pending"] == 1 and lb["sent"] == 0, lb
    assert lb["last_error"], "the failed send is reported"
    assert TOKEN not in status.stdout

    down = scrobble(refrain, "flush", env=env)
    assert down.returncode != 0, "a flush that could not send fails"
    assert "listenbrainz" in down.stderr and TOKEN not in down.stderr

    server = FakeService(listenbrainz_answer, port=port)
    try:
        flushed = scrobble(refrain, "flush", env=env)
        assert flushed.returncode == 0, flushed.stderr
        assert "sent to listenbrainz: Test Artist" in flushed.stdout
        singles = [r for r in server.snapshot() if lb_type("single")(r)]
        assert len(singles) == 1, server.snapshot()
        assert abs(lb_json(singles[0])["payload"][0]["listened_at"] - started_wall) <= 2

        again = scrobble(refrain, "flush", env=env)
        assert again.returncode == 0, again.stderr
        assert len([r for r in server.snapshot() if lb_type("single")(r)]) == 1, "sent exactly once"
    finally:
        server.close()


def test_flush_with_nothing_queued_sends_nothing(refrain):
    write_config(refrain, f'[scrobble]\nlistenbrainz_token = "{TOKEN}"\n')
    env = {"REFRAIN_LISTENBRAINZ_URL": f"http://127.0.0.1:{free_port()}/"}
    empty = scrobble(refrain, "flush", env=env)
    assert empty.returncode == 0, empty.stderr
    assert "nothing queued" in empty.stdout


# ---------------------------------------------------------------- Last.fm

def test_lastfm_gets_signed_now_playing_and_scrobble(refrain, song, lastfm):
    write_config(refrain, f'[scrobble]\nlastfm_api_key = "{API_KEY}"\nlastfm_secret = "{SECRET}"\n')
    data = Path(refrain.env["XDG_DATA_HOME"]) / "refrain"
    data.mkdir(parents=True, exist_ok=True)
    (data / "lastfm-session.json").write_text(json.dumps({"name": "tester", "key": SESSION_KEY}))
    env = {"REFRAIN_LASTFM_URL": lastfm.url + "2.0/"}
    run = refrain.start(song, "--output", "null", "--events", "--duration", str(THRESHOLD + 3), env=env)
    start = run.wait_for(lambda e: e.kind == "start", 10, "start event")
    started_wall = wall_time(run, start)

    now, _ = wait_while_playing(lastfm, lambda r: lastfm_form(r).get("method") == "track.updateNowPlaying",
                                "track.updateNowPlaying at the start", events_position(run), until=1.0)
    assert now["path"] == "/2.0/" and now["method"] == "POST"
    assert now["headers"]["content-type"] == "application/x-www-form-urlencoded"
    form = lastfm_form(now)
    assert form["api_sig"] == lastfm_signature(form, SECRET)
    assert (form["artist"], form["track"], form["album"], form["sk"], form["format"]) == \
        ("Test Artist", "Test Song", "Test Album", SESSION_KEY, "json")

    scrobbled, heard = wait_while_playing(lastfm, lambda r: lastfm_form(r).get("method") == "track.scrobble",
                                          "track.scrobble", events_position(run), until=THRESHOLD + 2)
    assert heard >= THRESHOLD - 0.5, f"scrobbled {heard:.1f} s into the track, before the threshold"
    form = lastfm_form(scrobbled)
    # A worked example: the test's own MD5 of the sorted parameters and the secret.
    assert form["api_sig"] == lastfm_signature(form, SECRET)
    assert (form["artist[0]"], form["track[0]"], form["album[0]"]) == ("Test Artist", "Test Song", "Test Album")
    assert form["duration[0]"] == str(int(LENGTH))
    assert started_wall - 2 <= int(form["timestamp[0]"]) <= now["wall"], (form["timestamp[0]"], started_wall)
    assert form["api_key"] == API_KEY and form["sk"] == SESSION_KEY
    assert "artist[1]" not in form
    run.finish(30)
    assert run.returncode == 0, run.stderr


def test_lastfm_login_stores_the_session_key_for_the_user_only(refrain, lastfm):
    write_config(refrain, f'[scrobble]\nlastfm_api_key = "{API_KEY}"\nlastfm_secret = "{SECRET}"\n')
    env = {"REFRAIN_LASTFM_URL": lastfm.url + "2.0/"}
    login = scrobble(refrain, "login", "lastfm", env=env, stdin="\n")
    assert login.returncode == 0, login.stderr
    assert f"https://www.last.fm/api/auth/?api_key={API_KEY}&token=approve-me" in login.stdout
    methods = [lastfm_form(r)["method"] for r in lastfm.snapshot()]
    assert methods == ["auth.getToken", "auth.getSession"]
    session = Path(refrain.env["XDG_DATA_HOME"]) / "refrain" / "lastfm-session.json"
    assert json.loads(session.read_text())["key"] == SESSION_KEY
    assert stat.S_IMODE(os.stat(session).st_mode) == 0o600
    status = json.loads(scrobble(refrain, "status", "--json", env=env).stdout)
    fm = next(s for s in status["services"] if s["name"] == "lastfm")
    assert fm["enabled"] and "tester" in fm["detail"]
    assert SESSION_KEY not in json.dumps(status)


# ---------------------------------------------------------------- the full-screen player

def scrobbling_tui(tui, listenbrainz) -> None:
    """Points the full-screen player at the fake ListenBrainz, with a token configured."""
    config = Path(tui.env["XDG_CONFIG_HOME"]) / "refrain"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text(f'[scrobble]\nlistenbrainz_token = "{TOKEN}"\n')
    tui.env["REFRAIN_LISTENBRAINZ_URL"] = listenbrainz.url


def search_and_play(tui, query: str, title: str) -> None:
    """Searches `query` in the started player and plays the selected `title` with Enter."""
    tui.wait_for(lambda s: "1 Home" in s, "the UI", timeout=15)
    tui.keys("/")
    tui.type(query)
    tui.keys("Enter")
    tui.wait_for(lambda _: tui.track_selected(title), f"{title} selected")
    tui.keys("Enter")


def test_the_full_screen_player_scrobbles_a_local_track(refrain_bin, tmp_path, song, listenbrainz):
    from test_tui import TUI  # the tmux driver of test_tui.py

    music = tmp_path / "music"
    music.mkdir()
    (music / "song.mp3").write_bytes(song.read_bytes())
    tui = TUI(refrain_bin, tmp_path / "tui-home", "scrobble")
    try:
        scrobbling_tui(tui, listenbrainz)
        scan = subprocess.run([str(refrain_bin), "scan", str(music)], env=tui.run_env(),
                              capture_output=True, text=True, timeout=30)
        assert scan.returncode == 0, scan.stderr

        tui.start("--provider", "local", "--output", "null")
        entered_wall = time.time()
        search_and_play(tui, "Test Song", "Test Song")
        tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Test Song"), "the track playing",
                     timeout=15)

        def shown() -> int | None:   # the position on the now-playing line, in whole seconds
            np = tui.now_playing()
            return np[1] if np and np[0].startswith("Test Song") else None

        now_playing, _ = wait_while_playing(listenbrainz, lb_type("playing_now"), "playing_now at the start",
                                            shown, until=1)
        listen, heard = wait_while_playing(listenbrainz, lb_type("single"), "the listen", shown,
                                           until=THRESHOLD + 2)
        # The screen shows whole seconds, read up to a poll before the listen arrived.
        assert THRESHOLD - 1 <= heard <= THRESHOLD + 2, f"the listen was sent at {heard} s on screen"
        assert entered_wall - 1 <= lb_json(listen)["payload"][0]["listened_at"] <= now_playing["wall"]
        tui.quit()
        assert len([r for r in listenbrainz.snapshot() if lb_type("single")(r)]) == 1
    finally:
        tui.close()


# ---------------------------------------------------------------- an online preview

def test_an_online_preview_is_never_announced_nor_sent(refrain_bin, tmp_path, listenbrainz):
    """A 30 s preview from the online catalog is not the track: played well past half its
    length in the full-screen player, it sends nothing to ListenBrainz."""
    from test_tui import TUI  # the tmux driver of test_tui.py

    preview = Path(__file__).resolve().parents[1] / "Fixtures" / "generated" / "steps.mp3"  # 30 s
    base: dict = {}

    def catalog_answer(request):
        path = urllib.parse.urlsplit(request["path"]).path
        track = {"id": 777, "type": "track", "title": "Preview Song", "duration": 213,
                 "preview": f"{base['url']}preview/777.mp3",
                 "artist": {"id": 1, "name": "Online Artist", "type": "artist"},
                 "album": {"id": 2, "title": "Online Album", "type": "album"}}
        if path.startswith("/preview/"):
            return 200, {}, preview.read_bytes()
        if path == "/track/777":
            return 200, {}, json.dumps(track).encode()
        if path in ("/search", "/search/track"):
            return 200, {}, json.dumps({"data": [track], "total": 1}).encode()
        return 200, {}, b'{"data": [], "total": 0}'

    catalog = FakeService(catalog_answer)
    base["url"] = catalog.url
    tui = TUI(refrain_bin, tmp_path / "tui-home", "preview")
    try:
        scrobbling_tui(tui, listenbrainz)
        tui.env["REFRAIN_DEEZER_URL"] = catalog.url.rstrip("/")
        tui.start("--provider", "deezer", "--output", "null")
        search_and_play(tui, "preview", "Preview Song")
        tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Preview Song"),
                     "the preview playing", timeout=15)
        catalog.wait_for(lambda r: r["path"].startswith("/preview/"), 10, "the preview's download")
        # Past half of the 30 s preview, as the screen shows it (however long that takes on
        # a busy machine, as long as the position keeps moving).
        past_half = 17
        played, moved = tui.now_playing(), time.monotonic()
        while not (played and played[0].startswith("Preview Song") and played[1] >= past_half):
            time.sleep(0.2)
            now = tui.now_playing()
            if now != played:
                played, moved = now, time.monotonic()
            assert time.monotonic() - moved < STALL, f"the preview stopped at {played}:\n{tui.screen()}"
        tui.quit()
        assert listenbrainz.snapshot() == [], "a preview was announced or scrobbled"
        status = scrobble_status(tui)
        assert status.returncode == 0, status.stderr
        services = {service["name"]: service for service in json.loads(status.stdout)["services"]}
        assert (services["listenbrainz"]["pending"], services["listenbrainz"]["sent"]) == (0, 0), services
    finally:
        tui.close()
        catalog.close()


def scrobble_status(tui) -> subprocess.CompletedProcess:
    return subprocess.run([str(tui.binary), "scrobble", "status", "--json"], env=tui.run_env(),
                          capture_output=True, text=True, timeout=30)
