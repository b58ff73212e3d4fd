"""Refrain and a user's Spotify library, end to end: `refrain spotify login | import |
status | logout` and `refrain search --provider spotify` against a local fake of Spotify's
accounts service, Web API and the preview catalog (spotify_fake.py).

The test plays the browser: it opens the authorize URL Refrain prints (with urllib, following
the redirect to Refrain's loopback listener, or copying the Location into `--paste`). Each
test has its own XDG dirs, so every user starts with an empty library and no token. What is
checked is what a user sees: messages, `--json` output, the token file and its mode, and the
rows of library.sqlite (playlists in Spotify's order, Liked Songs newest first, saved albums,
and which tracks are playable from a local file or a preview).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

from spotify_fake import SpotifyFake

CLIENT_ID = "refrain-test-client"
SCOPES = {"playlist-read-private", "playlist-read-collaborative", "user-library-read"}
TOKEN_KEYS = {"access_token", "refresh_token", "expires_at", "scope", "client_id", "user_id", "user_name"}
# Preview lookups are limited to 50 per 5 s; counted on the server's clock, a window 0.1 s
# shorter allows for jitter between when Refrain sends and when the fake receives.
JITTER_WINDOW = 4.9
SMALL = dict(liked=10, long_playlist=6, long_album=6, short_playlist=6)   # under 50 distinct tracks


# ---------------------------------------------------------------- helpers

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proc:
    """A running `refrain …` whose stdout and stderr lines are collected as they arrive."""

    def __init__(self, argv: list[str], env: dict, cwd: Path):
        self.argv = argv
        self.p = subprocess.Popen(argv, env=env, cwd=str(cwd), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out: list[str] = []
        self.err: list[str] = []
        self.cond = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(self.p.stdout, self.out), daemon=True),
                        threading.Thread(target=self._read, args=(self.p.stderr, self.err), daemon=True)]
        for r in self.readers:
            r.start()
        self.returncode: int | None = None

    def _read(self, stream, sink: list[str]) -> None:
        for raw in iter(stream.readline, b""):
            with self.cond:
                sink.append(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    @property
    def command(self) -> str:
        return " ".join(["refrain", *self.argv[1:]])

    @property
    def stdout(self) -> str:
        with self.cond:
            return "\n".join(self.out)

    @property
    def stderr(self) -> str:
        with self.cond:
            return "\n".join(self.err)

    def wait_line(self, which: str, predicate, timeout: float, what: str) -> str:
        lines = self.out if which == "out" else self.err
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for line in lines:
                    if predicate(line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or (self.p.poll() is not None and not any(r.is_alive() for r in self.readers)):
                    break
                self.cond.wait(min(left, 0.02))
        pytest.fail(f"no {what} from `{self.command}` within {timeout} s (exit {self.p.poll()});"
                    f"\nstdout: {self.stdout!r}\nstderr: {self.stderr!r}")

    def send(self, text: str) -> None:
        self.p.stdin.write(text.encode())
        self.p.stdin.flush()

    def finish(self, timeout: float) -> "Proc":
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            pytest.fail(f"`{self.command}` did not finish within {timeout} s;\nstdout: {self.stdout!r}"
                        f"\nstderr: {self.stderr!r}")
        for r in self.readers:
            r.join(5)
        self.returncode = self.p.returncode
        return self

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
        self.p.wait()
        for r in self.readers:
            r.join(5)
        self.returncode = self.p.returncode

    def describe(self) -> str:
        return f"`{self.command}` exited {self.returncode}\nstdout: {self.stdout}\nstderr: {self.stderr}"


class User:
    """One Refrain user on this machine: private XDG dirs, online services pointed at the fake
    (lyrics at a closed port), and every run kept for later checks."""

    def __init__(self, binary: Path, home: Path, fake: SpotifyFake):
        self.binary = binary
        self.home = home
        self.fake = fake
        self.procs: list[Proc] = []
        self.env = dict(os.environ)
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            d = home / var.lower()
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.env[var] = str(d)
        self.env.update({
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "BROWSER": "/bin/false",
            "REFRAIN_LRCLIB_URL": "http://127.0.0.1:9/",
            "REFRAIN_SPOTIFY_ACCOUNTS_URL": fake.accounts_url,
            "REFRAIN_SPOTIFY_API_URL": fake.api_url,
            "REFRAIN_DEEZER_URL": fake.deezer_url,
        })

    @property
    def token_file(self) -> Path:
        return Path(self.env["XDG_DATA_HOME"]) / "refrain" / "spotify-token.json"

    @property
    def database(self) -> Path:
        return Path(self.env["XDG_DATA_HOME"]) / "refrain" / "library.sqlite"

    @property
    def log_file(self) -> Path:
        return Path(self.env["XDG_STATE_HOME"]) / "refrain" / "refrain.log"

    def token(self) -> dict:
        return json.loads(self.token_file.read_text())

    def write_config(self, text: str) -> None:
        folder = Path(self.env["XDG_CONFIG_HOME"]) / "refrain"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.toml").write_text(text)

    def start(self, *args: str) -> Proc:
        proc = Proc([str(self.binary), *map(str, args)], self.env, self.home)
        self.procs.append(proc)
        return proc

    def run(self, *args: str, timeout: float = 90) -> Proc:
        return self.start(*args).finish(timeout)

    def ok(self, *args: str, timeout: float = 90) -> Proc:
        proc = self.run(*args, timeout=timeout)
        assert proc.returncode == 0, proc.describe()
        return proc

    def import_json(self, timeout: float = 90) -> dict:
        proc = self.ok("spotify", "import", "--json", timeout=timeout)
        lines = [ln for ln in proc.out if ln.strip()]
        assert len(lines) == 1, f"`import --json` should print one JSON object:\n{proc.describe()}"
        summary = json.loads(lines[0])
        for key in ("playlists", "tracks", "albums", "matched_local", "matched_preview", "unmatched"):
            assert isinstance(summary.get(key), int), f"summary lacks an int {key!r}: {summary}"
        return summary

    def status(self) -> dict:
        return json.loads(self.ok("spotify", "status", "--json").stdout)

    def rows(self, sql: str, *params) -> list[tuple]:
        con = sqlite3.connect(str(self.database), timeout=10)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def search(self, query: str) -> list[dict]:
        proc = self.ok("search", query, "--provider", "spotify", "--json")
        return json.loads(proc.stdout)


def browser_open(url: str, follow: bool, timeout: float = 15):
    """Opens `url` like a browser would: (status, headers, body). Without `follow`, a redirect
    is returned as is; connections refused by a listener still starting are retried."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    opener = urllib.request.build_opener(*([] if follow else [NoRedirect]))
    deadline = time.monotonic() + timeout
    while True:
        try:
            with opener.open(url, timeout=timeout) as r:
                return r.status, r.headers, r.read().decode("utf-8", errors="replace")
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode("utf-8", errors="replace")
        except urllib.error.URLError as e:
            if isinstance(e.reason, ConnectionRefusedError) and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            raise


def authorize_location(fake: SpotifyFake, url: str) -> str:
    """Approves the login on the fake accounts page; returns where it sends the browser."""
    assert url.startswith(fake.accounts_url + "/authorize?"), f"not the accounts authorize URL: {url!r}"
    status, headers, body = browser_open(url, follow=False)
    assert status == 302, f"the accounts service refused the authorize URL ({status}): {body}"
    return headers["Location"]


def query_of(url: str) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def login_start(user: User, port: int, *extra: str) -> tuple[Proc, str]:
    proc = user.start("spotify", "login", "--client-id", CLIENT_ID, "--port", str(port), "--no-browser", *extra)
    url = proc.wait_line("out", lambda ln: ln.startswith("http"), 20, "authorize URL on stdout")
    return proc, url


def login(user: User) -> Proc:
    """Logs in with --paste (the user copies the address the browser ended on)."""
    port = free_port()
    proc, url = login_start(user, port, "--paste")
    proc.send(authorize_location(user.fake, url) + "\n")
    proc.finish(30)
    assert proc.returncode == 0, proc.describe()
    assert "Logged in to Spotify as Mina (mina)" in proc.stderr, proc.describe()
    return proc


def import_lines(proc: Proc) -> list[str]:
    return [ln for ln in proc.err if ln.startswith("import:")]


def failure_line(proc: Proc) -> str:
    lines = [ln for ln in proc.err if ln.startswith("refrain spotify:")]
    assert len(lines) == 1, f"expected one `refrain spotify:` line on stderr:\n{proc.describe()}"
    return lines[0]


def entries_of(user: User, name: str) -> list[str]:
    rows = user.rows("SELECT e.track_id, e.provider FROM playlist_entries e JOIN playlists p ON p.id = e.playlist_id"
                     " WHERE p.name = ? ORDER BY e.position", name)
    assert all(provider == "spotify" for _, provider in rows), rows
    return [track_id for track_id, _ in rows]


def liked_in_db(user: User) -> list[str]:
    return [r[0] for r in user.rows("SELECT track_id FROM liked_tracks WHERE provider = 'spotify'"
                                    " ORDER BY liked_at DESC")]


def table_counts(user: User) -> dict:
    return {t: user.rows(f"SELECT COUNT(*) FROM {t}")[0][0]
            for t in ("playlists", "playlist_entries", "liked_tracks", "saved_albums", "stored_tracks",
                      "spotify_matches")}


def make_mp3(path: Path, seconds: float, title: str, artist: str, isrc: str | None = None) -> Path:
    """A tagged CBR MP3 of a sine tone (sox, lame); `isrc` goes into the TSRC frame."""
    path.parent.mkdir(parents=True, exist_ok=True)
    wav = path.with_suffix(".wav")
    subprocess.run(["sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", str(wav), "synth",
                    f"{seconds:g}", "sine", "440", "vol", "0.3"], check=True, timeout=60)
    tags = ["--tt", title, "--ta", artist, "--tl", "Home Rips"]
    if isrc:
        tags += ["--tv", f"TSRC={isrc}"]
    subprocess.run(["lame", "--quiet", "--cbr", "-b", "64", "--add-id3v2", *tags, str(wav), str(path)],
                   check=True, timeout=60)
    wav.unlink()
    return path


# ---------------------------------------------------------------- fixtures

@pytest.fixture
def fake():
    f = SpotifyFake(client_id=CLIENT_ID)
    yield f
    f.close()


@pytest.fixture
def small_fake():
    f = SpotifyFake(client_id=CLIENT_ID, **SMALL)
    yield f
    f.close()


def _user(refrain_bin, tmp_path, fake, name="mina"):
    user = User(refrain_bin, tmp_path / name, fake)
    yield user
    for proc in user.procs:
        if proc.p.poll() is None:
            proc.kill()


@pytest.fixture
def user(refrain_bin, tmp_path, fake):
    yield from _user(refrain_bin, tmp_path, fake)


@pytest.fixture
def small_user(refrain_bin, tmp_path, small_fake):
    yield from _user(refrain_bin, tmp_path, small_fake)


# ---------------------------------------------------------------- login

def test_login_in_the_browser_stores_a_private_token_file_and_status_shows_the_user(small_user, small_fake):
    port = free_port()
    proc, url = login_start(small_user, port)
    q = query_of(url)
    assert q["client_id"] == CLIENT_ID
    assert q["response_type"] == "code"
    assert q["redirect_uri"] == f"http://127.0.0.1:{port}/callback"
    assert q["code_challenge_method"] == "S256" and q["code_challenge"] and q["state"]
    assert set(q["scope"].split()) == SCOPES
    assert proc.out[0] == url, "the authorize URL is alone on its stdout line"

    status, _, page = browser_open(url, follow=True)   # accounts -> 302 -> Refrain's listener
    assert status == 200 and "Refrain is logged in" in page, page
    proc.finish(30)
    assert proc.returncode == 0, proc.describe()
    assert "Logged in to Spotify as Mina (mina)" in proc.stderr

    assert small_fake.pkce_verified == 1, "the token exchange sent a verifier matching the challenge"
    path = small_user.token_file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600, oct(path.stat().st_mode)
    token = small_user.token()
    assert TOKEN_KEYS <= set(token), token.keys()
    assert token["access_token"] == "access-1" and token["refresh_token"] == "refresh-1"
    assert token["client_id"] == CLIENT_ID
    assert (token["user_id"], token["user_name"]) == ("mina", "Mina")
    assert set(token["scope"].split()) == SCOPES
    assert isinstance(token["expires_at"], (int, float)) and abs(token["expires_at"] - (time.time() + 3600)) < 120

    st = small_user.status()
    assert st["logged_in"] is True
    assert st["user"] == {"id": "mina", "name": "Mina"}
    expires = datetime.fromisoformat(st["expires_at"])
    assert abs(expires.timestamp() - token["expires_at"]) < 2
    assert st["last_import"] is None


def test_login_with_paste_and_the_client_id_from_the_config_file(small_user, small_fake):
    small_user.write_config(f'[spotify]\nclient_id = "{CLIENT_ID}"\n')
    port = free_port()
    proc = small_user.start("spotify", "login", "--paste", "--no-browser", "--port", str(port))
    url = proc.wait_line("out", lambda ln: ln.startswith("http"), 20, "authorize URL on stdout")
    assert query_of(url)["client_id"] == CLIENT_ID
    location = authorize_location(small_fake, url)
    assert location.startswith(f"http://127.0.0.1:{port}/callback?code=")
    # With --paste nothing listens on the port: the user copies the address instead.
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0, "--paste must not open a listener"
    proc.send(location + "\n")
    proc.finish(30)
    assert proc.returncode == 0, proc.describe()
    assert "Logged in to Spotify as Mina (mina)" in proc.stderr

    grants = [g for g in small_fake.token_grants if g.get("grant_type") == "authorization_code"]
    assert len(grants) == 1
    verifier = grants[0]["code_verifier"]
    assert re.fullmatch(r"[A-Za-z0-9._~-]{43,128}", verifier)
    assert verifier not in url, "the verifier stays in Refrain; only its challenge is sent to the browser"
    assert grants[0]["redirect_uri"] == f"http://127.0.0.1:{port}/callback"
    assert small_fake.pkce_verified == 1
    assert small_user.token()["refresh_token"] == "refresh-1"
    assert small_user.status()["user"] == {"id": "mina", "name": "Mina"}


def test_login_refuses_a_callback_whose_state_does_not_match(small_user, small_fake):
    port = free_port()
    proc, url = login_start(small_user, port)
    location = authorize_location(small_fake, url)
    q = query_of(location)
    forged = f"http://127.0.0.1:{port}/callback?" + urllib.parse.urlencode({"code": q["code"], "state": "forged-state"})
    status, _, page = browser_open(forged, follow=False)
    assert status == 400, (status, page)
    proc.finish(30)
    assert proc.returncode == 1, proc.describe()
    assert "state" in proc.stderr.lower(), proc.describe()
    assert not small_user.token_file.exists()
    assert not [g for g in small_fake.token_grants if g.get("grant_type") == "authorization_code"], \
        "a code from a forged callback is never exchanged"
    assert small_user.status()["logged_in"] is False


def test_login_cancelled_in_the_browser_says_cancelled(small_user, small_fake):
    small_fake.deny_authorization = True
    port = free_port()
    proc, url = login_start(small_user, port)
    location = authorize_location(small_fake, url)
    assert query_of(location)["error"] == "access_denied"
    browser_open(location, follow=False)
    proc.finish(30)
    assert proc.returncode == 1, proc.describe()
    assert "cancelled" in proc.stderr, proc.describe()
    assert not small_user.token_file.exists()
    assert small_fake.token_grants == []


def test_login_without_a_client_id_says_how_to_set_one(small_user, small_fake):
    proc = small_user.run("spotify", "login", "--no-browser", "--port", str(free_port()), timeout=20)
    assert proc.returncode != 0, proc.describe()
    assert re.search(r"client[ _-]?id", proc.stderr, re.I), proc.describe()
    assert not [ln for ln in proc.out if ln.startswith("http")], "no authorize URL without a client ID"
    assert small_fake.request_count == 0
    assert not small_user.token_file.exists()


def test_import_before_login_says_to_log_in(small_user, small_fake):
    proc = small_user.run("spotify", "import")
    assert proc.returncode == 1, proc.describe()
    assert "spotify login" in failure_line(proc)
    assert small_fake.requests_to("/v1") == []


# ---------------------------------------------------------------- import

def test_import_into_a_fresh_library_keeps_spotify_names_and_order(user, fake):
    login(user)
    proc = user.start("spotify", "import", "--json").finish(120)
    assert proc.returncode == 0, proc.describe()
    summary = json.loads(proc.stdout)
    expected = fake.expected_summary()
    assert {k: summary[k] for k in expected} == expected, summary
    assert (summary["matched_local"], summary["matched_preview"]) == (0, 0)
    assert summary["unmatched"] == summary["tracks"]
    assert import_lines(proc), f"no `import:` progress on stderr:\n{proc.describe()}"

    # Playlists under their Spotify names, entries in Spotify order across pages, without
    # the episode, the local file and the empty entry.
    names = {r[0] for r in user.rows("SELECT name FROM playlists")}
    assert names == {p["name"] for p in fake.playlists}
    for pl in fake.playlists:
        assert entries_of(user, pl["name"]) == fake.playlist_track_ids(pl["id"]), pl["name"]
        assert fake.skipped_entries(pl["id"]), "each playlist has an entry Refrain must skip"
    long_pl = max(fake.playlists, key=lambda p: len(fake.playlist_entries(p["id"])))
    pages = fake.requests_to(f"/v1/playlists/{long_pl['id']}/items")
    assert sorted(int(r.query.get("offset", 0)) for r in pages if r.status == 200) == [0, 50]
    assert all(r.query.get("limit") == "50" for r in pages)
    skipped_ids = {(e.get("item") or {}).get("id") for p in fake.playlists for e in fake.skipped_entries(p["id"])}
    assert not skipped_ids & {r[0] for r in user.rows("SELECT track_id FROM playlist_entries")}

    # Liked Songs newest first; saved albums, with the tracks past the embedded page.
    assert liked_in_db(user) == fake.liked_ids()
    albums = user.rows("SELECT id, title, artist FROM saved_albums WHERE provider = 'spotify' ORDER BY saved_at DESC")
    assert [a[0] for a in albums] == fake.album_ids()
    assert [a[1] for a in albums] == [x["album"]["name"] for x in fake.albums]
    assert albums[1][2] == "Cyndi Lauper"
    long_album = fake.long_album_id()
    assert any(int(r.query.get("offset", 0)) == 50 for r in fake.requests_to(f"/v1/albums/{long_album}/tracks"))
    stored = dict(user.rows("SELECT id, title FROM stored_tracks WHERE provider = 'spotify'"))
    assert set(fake.album_track_ids(long_album)) <= set(stored)
    assert stored == {tid: t["name"] for tid, t in fake.all_tracks().items()}

    # Preview lookups keep to the catalog's limit of 50 per 5 s.
    assert len(fake.isrc_lookups) >= 1
    assert fake.max_isrc_lookups_in(JITTER_WINDOW) <= 50

    st = user.status()
    assert st["last_import"] is not None
    datetime.fromisoformat(st["last_import"]["at"])
    assert {k: st["last_import"][k] for k in summary} == summary


def test_import_again_adds_nothing_twice_and_follows_changes(small_user, small_fake):
    login(small_user)
    first = small_user.import_json()
    counts = table_counts(small_user)
    entries = {p["name"]: entries_of(small_user, p["name"]) for p in small_fake.playlists}
    playlist_ids = small_user.rows("SELECT id, name FROM playlists ORDER BY id")

    second = small_user.import_json()
    assert {k: second[k] for k in ("playlists", "tracks", "albums")} == \
        {k: first[k] for k in ("playlists", "tracks", "albums")}
    assert table_counts(small_user) == counts
    assert {p["name"]: entries_of(small_user, p["name"]) for p in small_fake.playlists} == entries
    assert small_user.rows("SELECT id, name FROM playlists ORDER BY id") == playlist_ids

    # The user reorders a playlist on Spotify and likes one more song: the next import
    # replaces the entries and adds the like in front.
    pl = small_fake.playlists[0]
    small_fake.playlist_entries(pl["id"]).reverse()
    new = small_fake.add_liked(small_fake.make_track("Fresh Like", "New Band", 201000, isrc="QZRFT2699999"))
    small_user.import_json()
    assert entries_of(small_user, pl["name"]) == small_fake.playlist_track_ids(pl["id"])
    assert liked_in_db(small_user)[0] == new["id"]
    assert small_user.rows("SELECT id, name FROM playlists ORDER BY id") == playlist_ids
    assert len(liked_in_db(small_user)) == len(small_fake.liked)


def test_import_matches_local_files_then_previews_and_search_shows_it(small_user, small_fake, tmp_path):
    fake = small_fake
    by_isrc = fake.make_track("Paper Boats", "Jun Park", 6000, isrc="QZRFT2600001")
    by_name = fake.make_track("Slow Tide (Remastered 2011)", "Émile Noël", 9000, isrc="QZRFT2600002")
    preview = fake.make_track("Northern Lights", "Aya Sato", 30000, isrc="QZRFT2600003")
    nothing = fake.make_track("Nowhere Song", "Nobody Known", 200000, isrc="QZRFT2600004")
    for t in (nothing, preview, by_name, by_isrc):
        fake.add_liked(t, first=True)
    preview_id = fake.add_preview("QZRFT2600003", "Northern Lights", "Aya Sato", "Lights", 30)

    music = tmp_path / "music"
    isrc_file = make_mp3(music / "rip01.mp3", 6, "Track 01", "Unknown Artist", isrc="qzrft2600001")
    name_file = make_mp3(music / "Slow Tide.mp3", 8, "Slow Tide", "Emile Noel")
    make_mp3(music / "Nowhere Song (demo).mp3", 10, "Nowhere Song", "Nobody Known")   # 190 s too short
    small_user.ok("scan", str(music), "--json")

    login(small_user)
    summary = small_user.import_json()
    assert summary["tracks"] == fake.expected_summary()["tracks"]
    assert (summary["matched_local"], summary["matched_preview"]) == (2, 1), summary
    assert summary["unmatched"] == summary["tracks"] - 3

    def found(track: dict) -> dict:
        results = small_user.search(track["name"].split(" (")[0])
        hits = [r for r in results if r.get("id") == track["id"]]
        assert len(hits) == 1, f"search for {track['name']!r} --provider spotify: {results}"
        hit = hits[0]
        assert hit["kind"] == "track" and hit["title"] == track["name"]
        assert hit["artist"] == track["artists"][0]["name"]
        return hit

    hit = found(by_isrc)
    assert (hit["match"], hit["playable"]) == ("local", True)
    assert hit["duration"] == 6  # seconds, as every Refrain JSON time
    hit = found(by_name)
    assert (hit["match"], hit["playable"]) == ("local", True)
    hit = found(preview)
    assert (hit["match"], hit["playable"]) == ("preview", True)
    hit = found(nothing)
    assert hit["match"] is None and hit["playable"] is False
    assert isinstance(hit.get("reason"), str) and hit["reason"].strip()

    matches = {r[0]: r[1:] for r in small_user.rows(
        "SELECT track_id, kind, local_path, preview_id, reason FROM spotify_matches")}
    assert matches[by_isrc["id"]][0] == "local"
    assert os.path.realpath(matches[by_isrc["id"]][1]) == os.path.realpath(isrc_file)
    assert matches[by_name["id"]][0] == "local"
    assert os.path.realpath(matches[by_name["id"]][1]) == os.path.realpath(name_file)
    assert matches[preview["id"]][0] == "preview" and str(matches[preview["id"]][2]) == str(preview_id)
    assert matches[nothing["id"]][0] == "none" and matches[nothing["id"]][3]
    # Local files are tried first: no catalog lookup for the two tracks found on disk.
    looked_up = {isrc for _, isrc in fake.isrc_lookups}
    assert "QZRFT2600003" in looked_up and "QZRFT2600004" in looked_up
    assert not looked_up & {"QZRFT2600001", "QZRFT2600002"}
    assert fake.max_isrc_lookups_in(JITTER_WINDOW) <= 50


# ---------------------------------------------------------------- tokens and failures

def test_an_expired_access_token_is_refreshed_once_and_the_new_refresh_token_kept(small_user, small_fake):
    login(small_user)
    before = small_user.token()
    small_fake.expire_access_tokens()
    summary = small_user.import_json()
    assert {k: summary[k] for k in ("playlists", "tracks", "albums")} == small_fake.expected_summary()
    refreshes = [g for g in small_fake.token_grants if g.get("grant_type") == "refresh_token"]
    assert len(refreshes) == 1, refreshes
    assert refreshes[0]["refresh_token"] == before["refresh_token"]
    assert refreshes[0]["client_id"] == CLIENT_ID
    after = small_user.token()
    assert after["refresh_token"] != before["refresh_token"]
    assert after["refresh_token"] in small_fake.current_refresh_tokens(), "the rotated refresh token is stored"
    assert after["access_token"] != before["access_token"]
    assert after["expires_at"] > before["expires_at"] - 1
    assert stat.S_IMODE(small_user.token_file.stat().st_mode) == 0o600


def test_a_token_about_to_expire_is_refreshed_before_the_import_starts(small_user, small_fake):
    login(small_user)
    token = small_user.token()
    token["expires_at"] = int(time.time()) + 30   # within the 60 s margin
    small_user.token_file.write_text(json.dumps(token))
    small_user.import_json()
    refreshes = [g for g in small_fake.token_grants if g.get("grant_type") == "refresh_token"]
    assert len(refreshes) == 1, refreshes
    assert [r for r in small_fake.requests_to("/v1") if r.status == 401] == [], \
        "Refrain refreshes ahead of expiry instead of waiting for a 401"
    assert small_user.token()["expires_at"] > time.time() + 600


def test_a_revoked_refresh_token_asks_the_user_to_log_in_again(small_user, small_fake):
    login(small_user)
    small_fake.revoke_refresh_tokens()
    small_fake.expire_access_tokens()
    proc = small_user.run("spotify", "import")
    assert proc.returncode == 1, proc.describe()
    assert "log in again" in failure_line(proc)


def test_a_rate_limited_request_is_retried_after_retry_after(small_user, small_fake):
    login(small_user)
    small_fake.fail("/v1/me/tracks", 429, times=1, retry_after=1)
    summary = small_user.import_json()
    assert summary["tracks"] == small_fake.expected_summary()["tracks"]
    calls = small_fake.requests_to("/v1/me/tracks")
    assert [c.status for c in calls[:2]] == [429, 200], [(c.path, c.query, c.status) for c in calls]
    assert calls[1].query.get("offset", "0") == calls[0].query.get("offset", "0")
    assert calls[1].at - calls[0].at >= 0.98, f"retried after {calls[1].at - calls[0].at:.3f} s"
    assert liked_in_db(small_user) == small_fake.liked_ids()


def test_saved_albums_withdrawn_for_the_app_are_skipped_and_the_rest_imported(small_user, small_fake):
    login(small_user)
    small_fake.withdraw("/v1/me/albums")
    proc = small_user.start("spotify", "import", "--json").finish(90)
    assert proc.returncode == 0, proc.describe()
    assert "not available for this app" in proc.stderr, proc.describe()
    summary = json.loads(proc.stdout)
    assert summary["albums"] == 0 and summary["playlists"] == len(small_fake.playlists)
    assert small_user.rows("SELECT COUNT(*) FROM saved_albums WHERE provider = 'spotify'")[0][0] == 0
    for pl in small_fake.playlists:
        assert entries_of(small_user, pl["name"]) == small_fake.playlist_track_ids(pl["id"])
    assert liked_in_db(small_user) == small_fake.liked_ids()


def test_tokens_never_appear_in_output_or_in_the_log(small_user, small_fake):
    port = free_port()
    proc, url = login_start(small_user, port)
    browser_open(url, follow=True)
    proc.finish(30)
    assert proc.returncode == 0, proc.describe()
    small_fake.expire_access_tokens()              # the import refreshes: more tokens to leak
    small_user.import_json()
    small_user.status()
    small_user.ok("search", "Liked Song", "--provider", "spotify", "--json")

    tokens = small_fake.issued_tokens()
    assert len(tokens) >= 4
    log = small_user.log_file.read_text(errors="replace") if small_user.log_file.exists() else ""
    for p in small_user.procs:
        for token in tokens:
            assert token not in p.stdout and token not in p.stderr, f"{token} shown by `{p.command}`"
    for token in tokens:
        assert token not in log, f"{token} written to {small_user.log_file}"
    # On the wire, access tokens travel only in the Authorization header of API calls.
    for r in small_fake.requests:
        assert not any(t in r.path or t in json.dumps(r.query) for t in tokens), r
        if not r.path.startswith("/v1/"):
            assert "authorization" not in r.headers, f"credentials sent to {r.path}"


@pytest.fixture
def busy_fake():
    """A library with 150 Liked Songs behind a 30 ms network, so an import takes a while."""
    f = SpotifyFake(client_id=CLIENT_ID, liked=150, long_playlist=6, long_album=6, short_playlist=6,
                    latency_ms=30)
    yield f
    f.close()


@pytest.fixture
def busy_user(refrain_bin, tmp_path, busy_fake):
    yield from _user(refrain_bin, tmp_path, busy_fake)


def test_an_import_killed_midway_completes_on_the_next_run_without_duplicates(busy_user, busy_fake):
    user, fake = busy_user, busy_fake
    login(user)
    proc = user.start("spotify", "import")
    proc.wait_line("err", lambda ln: ln.startswith("import:") and "liked" in ln.lower(), 60,
                   "progress into Liked Songs")
    alive = proc.p.poll() is None
    proc.kill()
    assert alive and proc.returncode == -signal.SIGKILL, \
        f"the import ended before it could be interrupted:\n{proc.describe()}"

    summary = user.import_json(timeout=120)
    expected = fake.expected_summary()
    assert {k: summary[k] for k in expected} == expected, summary
    assert summary["unmatched"] == summary["tracks"]
    assert user.rows("SELECT COUNT(*) FROM playlists")[0][0] == len(fake.playlists)
    for pl in fake.playlists:
        assert entries_of(user, pl["name"]) == fake.playlist_track_ids(pl["id"])
    assert liked_in_db(user) == fake.liked_ids()
    assert user.rows("SELECT COUNT(*) FROM stored_tracks WHERE provider = 'spotify'")[0][0] == expected["tracks"]
    assert user.rows("SELECT COUNT(*) FROM spotify_matches")[0][0] == expected["tracks"]
    assert [a[0] for a in user.rows("SELECT id FROM saved_albums ORDER BY saved_at DESC")] == fake.album_ids()


def test_logout_removes_the_token_file(small_user, small_fake):
    login(small_user)
    assert small_user.token_file.exists()
    proc = small_user.ok("spotify", "logout")
    assert "Logged out of Spotify" in proc.stderr
    assert not small_user.token_file.exists()
    st = small_user.status()
    assert st["logged_in"] is False and st["user"] is None and st["expires_at"] is None
