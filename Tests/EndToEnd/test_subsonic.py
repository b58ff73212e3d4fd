"""`refrain subsonic` and `--provider subsonic` against supysonic, a real Subsonic server.

supysonic 0.7.9 takes only passwords (API 1.12), so the `token` port puts a thin token
layer in front of it (subsonic_server.py); the `bare` port is supysonic alone, and the
`opensubsonic` port adds a recorded-response fake of the OpenSubsonic endpoints it lacks
(`apiKey` logins), built from the OpenSubsonic documentation.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

import audio_analysis as aa
from subsonic_harness import API_KEY, PASSWORD, STEPS, USER, SubsonicServer
from test_formats import assert_the_seek_landed_at_12_5


@pytest.fixture(scope="module")
def supysonic(tmp_path_factory):
    server = SubsonicServer(tmp_path_factory.mktemp("supysonic")).start()
    yield server
    server.stop()


def subsonic(refrain, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Runs `refrain subsonic ARGS…` in the test's own XDG folders."""
    return subprocess.run([str(refrain.binary), "subsonic", *args], env=refrain.env,
                          cwd=str(refrain.home), input=stdin, capture_output=True, text=True,
                          timeout=60)


def login(refrain, server: SubsonicServer, kind: str = "token", secret: str = PASSWORD,
          *extra: str) -> subprocess.CompletedProcess:
    return subsonic(refrain, "login", server.url(kind), "--user", USER, "--password-stdin",
                    *extra, stdin=secret + "\n")


def account_file(refrain) -> Path:
    return Path(refrain.env["XDG_DATA_HOME"]) / "refrain" / "subsonic.json"


def one_line(run: subprocess.CompletedProcess) -> str:
    """The failure's single line, stdout and stderr together; the exit status is an error's
    and not the usage error's (64)."""
    lines = [ln for ln in (run.stdout + run.stderr).splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected one line, got:\n{run.stdout}{run.stderr}"
    assert run.returncode not in (0, 64), run.returncode
    return lines[0]


def files_under(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- logging in

def test_login_stores_a_token_for_the_user_only_and_never_the_password(refrain, supysonic):
    before = len(supysonic.requests())
    run = login(refrain, supysonic)
    assert run.returncode == 0, run.stderr
    port = supysonic.ports["token"]
    assert run.stdout.strip() == f"Logged in to 127.0.0.1:{port} as {USER} (token, API 1.12.0)."
    path = account_file(refrain)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    stored = json.loads(path.read_text())
    assert stored["user"] == USER and stored["server"] == supysonic.url()
    assert stored["token"] == hashlib.md5((PASSWORD + stored["salt"]).encode()).hexdigest()
    assert isinstance(stored["salt"], str) and len(stored["salt"]) >= 6
    # The password is written nowhere: not in the file, not in a log, not in any other file.
    for file in files_under(refrain.home):
        assert PASSWORD.encode() not in file.read_bytes(), file
    # The login was checked with the very token it stored, and `p=` never went out.
    assert supysonic.requests()[before:] == [
        "token getOpenSubsonicExtensions.view token", "token ping.view token"]


def test_status_shows_server_user_version_and_extensions_and_logout_forgets(refrain, supysonic):
    assert login(refrain, supysonic).returncode == 0
    status = json.loads(subsonic(refrain, "status", "--json").stdout)
    assert status == {"server": f"127.0.0.1:{supysonic.ports['token']}", "url": supysonic.url(),
                      "user": USER, "api_version": "1.12.0", "extensions": [], "auth": "token"}
    text = subsonic(refrain, "status").stdout
    assert f"server: 127.0.0.1:{supysonic.ports['token']}\n" in text
    assert "api version: 1.12.0\n" in text and "extensions: none\n" in text
    out = subsonic(refrain, "logout")
    assert out.returncode == 0 and "Logged out" in out.stdout
    assert not account_file(refrain).exists()
    assert "not logged in" in one_line(subsonic(refrain, "status"))


def test_a_wrong_password_is_one_plain_line_and_writes_no_file(refrain, supysonic):
    line = one_line(login(refrain, supysonic, "token", "not the password"))
    assert line == "refrain subsonic: wrong user name or password: the server did not accept them"
    assert not account_file(refrain).exists()


def test_a_server_that_takes_only_the_password_is_refused(refrain, supysonic):
    before = len(supysonic.requests())
    line = one_line(login(refrain, supysonic, "bare"))
    assert "takes only the plain password" in line and "storing the password" in line
    assert not account_file(refrain).exists()
    # Decided by trying the token, never by sending the password.
    assert supysonic.requests()[before:] == [
        "bare getOpenSubsonicExtensions.view token", "bare ping.view token"]


def test_an_unreachable_server_is_one_line(refrain):
    run = subsonic(refrain, "login", f"http://127.0.0.1:{free_port()}", "--user", USER,
                   "--password-stdin", stdin=PASSWORD + "\n")
    assert "could not reach the server" in one_line(run)
    assert not account_file(refrain).exists()


def test_plain_http_beyond_this_machine_is_refused_before_the_password_is_read(refrain):
    run = subsonic(refrain, "login", "http://192.0.2.7:4533", "--user", USER)
    line = one_line(run)
    assert "refusing to log in over plain http:// to 192.0.2.7" in line and "--insecure" in line
    assert not account_file(refrain).exists()


def test_without_a_terminal_or_stdin_flag_it_says_how_to_pipe_the_password(refrain, supysonic):
    run = subprocess.run([str(refrain.binary), "subsonic", "login", supysonic.url(), "--user", USER],
                         env=refrain.env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=30, start_new_session=True)
    assert "--password-stdin" in one_line(run)


def test_an_api_key_is_preferred_when_the_server_offers_it(refrain, supysonic):
    before = len(supysonic.requests())
    run = login(refrain, supysonic, "opensubsonic", API_KEY)
    assert run.returncode == 0, run.stderr
    assert "(apikey," in run.stdout
    stored = json.loads(account_file(refrain).read_text())
    assert stored["api_key"] == API_KEY and "token" not in stored and "salt" not in stored
    assert stored["extensions"] == ["apiKeyAuthentication", "songLyrics"]
    assert supysonic.requests()[before:] == [
        "opensubsonic getOpenSubsonicExtensions.view token", "opensubsonic ping.view apikey"]
    status = json.loads(subsonic(refrain, "status", "--json").stdout)
    assert status["auth"] == "apikey" and "apiKeyAuthentication" in status["extensions"]
    assert API_KEY not in json.dumps(status)


def test_a_password_on_an_api_key_server_logs_in_with_a_token(refrain, supysonic):
    run = login(refrain, supysonic, "opensubsonic", PASSWORD)
    assert run.returncode == 0, run.stderr
    assert "token" in json.loads(account_file(refrain).read_text())


# ---------------------------------------------------------------- the subsonic provider

def server_call(server: SubsonicServer, method: str, **params) -> dict:
    """The server's own answer to METHOD (through the token port, as any client asks)."""
    salt = "e2e1salt"
    query = urllib.parse.urlencode({
        "u": USER, "t": hashlib.md5((PASSWORD + salt).encode()).hexdigest(), "s": salt,
        "c": "e2e", "v": "1.12.0", "f": "json", **params})
    with urllib.request.urlopen(f"{server.url()}/rest/{method}.view?{query}", timeout=10) as answer:
        return json.load(answer)["subsonic-response"]


def server_song(server: SubsonicServer, title: str) -> dict:
    """The song as the server itself lists it (search3 through the token port)."""
    found = server_call(server, "search3", query=title, albumCount=0, artistCount=0)
    return next(s for s in found["searchResult3"]["song"] if s["title"] == title)


def search(refrain, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(refrain.binary), "search", *args, "--provider", "subsonic"],
                          env=refrain.env, cwd=str(refrain.home), capture_output=True, text=True,
                          timeout=60)


def test_search_json_gives_the_fields_of_every_provider_and_the_server_song_id(refrain, supysonic):
    assert login(refrain, supysonic).returncode == 0
    run = search(refrain, "steps", "--json")
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    song = server_song(supysonic, "Steps Up")
    assert results == [{"kind": "track", "id": song["id"], "title": "Steps Up",
                        "artist": "Tone Quartet", "album": "Harbour Lights", "duration": 20,
                        "playable": True}]
    albums = json.loads(search(refrain, "harbour", "--type", "album", "--json").stdout)
    assert [(a["title"], a["artist"]) for a in albums] == [("Harbour Lights", "Tone Quartet")]
    artists = json.loads(search(refrain, "lanterns", "--type", "artist", "--json").stdout)
    assert [a["title"] for a in artists] == ["Lanterns"]
    assert json.loads(search(refrain, "no such words", "--json").stdout) == []


def test_search_without_a_login_says_how_to_log_in(refrain):
    run = search(refrain, "steps")
    assert "refrain subsonic login URL --user NAME" in one_line(run)


def test_search_on_a_stopped_server_is_one_line(refrain, tmp_path):
    server = SubsonicServer(tmp_path / "stopped").start()
    try:
        assert login(refrain, server).returncode == 0
    finally:
        server.stop()
    assert "could not reach the server" in one_line(search(refrain, "steps"))


def tui_login(tui, server: SubsonicServer) -> None:
    """`refrain subsonic login` in the full-screen player's own folders."""
    run = subprocess.run([str(tui.binary), "subsonic", "login", server.url(), "--user", USER,
                          "--password-stdin"], env=tui.run_env(), input=PASSWORD + "\n",
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def start_and_find(tui, title: str, output: str = "null", album: bool = False) -> None:
    """Starts the player on the server and selects the track (or `album`) `title` in Search."""
    tui.start("--provider", "subsonic", "--output", output)
    tui.wait_text("Recently added", timeout=15)
    tui.keys("/")
    tui.type(title)
    tui.keys("Enter")
    mark = "◉" if album else "♪"
    tui.wait_for(lambda _: (tui.selected_row() or "").startswith(f"{mark} {title}"),
                 f"{title} selected", timeout=10)


@pytest.fixture
def subsonic_tui(refrain_bin, tmp_path, supysonic):
    from test_tui import TUI  # the tmux driver of test_tui.py

    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic")
    tui_login(tui, supysonic)
    yield tui
    tui.close()


def test_home_lists_the_servers_albums_and_an_album_page_lists_its_tracks(subsonic_tui):
    tui = subsonic_tui
    tui.start("--provider", "subsonic", "--output", "null")
    screen = tui.wait_text("Recently added", timeout=15)
    assert "Harbour Lights — Tone Quartet" in screen and "Night Ferry — Lanterns" in screen
    tui.wait_for(lambda _: "Night Ferry" in (tui.selected_row() or "")
                 or "Harbour Lights" in (tui.selected_row() or ""), "an album selected")
    while "Harbour Lights" not in (tui.selected_row() or ""):
        tui.keys("j")
    tui.keys("Enter")
    page = tui.wait_text("3 tracks", timeout=10)
    rows = [ln for ln in page.splitlines() if "♪" in ln and " — Tone Quartet" in ln]
    assert [r.split("♪ ")[1].split(" — ")[0] for r in rows] == ["Steps Up", "Middle A", "Fifth Above"], page


def test_a_server_track_is_heard_and_a_seek_lands_where_asked(subsonic_tui, supysonic, recorder):
    tui = subsonic_tui
    env = tui.run_env()

    def ctl(*words: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(tui.binary), "ctl", *words], env=env, capture_output=True,
                              text=True, timeout=10)

    before = len(supysonic.requests())
    start_and_find(tui, "Steps Up", output="pulse")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Steps Up"), "Steps Up playing",
                 timeout=15)
    time.sleep(1.0)
    assert ctl("seek", "0:12.5").returncode == 0
    time.sleep(2.5)
    assert ctl("stop").returncode == 0
    rec = recorder.stop(tail=0.3)
    changes = aa.step_changes(rec.audio, list(STEPS))
    heard = [c.step for c in changes if c.step is not None]
    assert heard[:1] == [0], f"the first tone heard was not second 0: {heard}"
    assert_the_seek_landed_at_12_5("subsonic", changes)
    streamed = [r.split() for r in supysonic.requests()[before:] if " stream.view " in r]
    assert streamed and all(r[2] == "token" for r in streamed), streamed
    # supysonic honours byte ranges on the file as stored: the seek asked for bytes past the head.
    ranges = [r[3] for r in streamed if len(r) > 3]
    assert any(int(r[6:].split("-")[0]) > 100_000 for r in ranges), ranges


def test_a_server_restarted_during_playback_is_asked_again_and_the_track_plays_on(subsonic_tui, supysonic,
                                                                                  recorder):
    """The server stops 1.5 s into "Steps Up" (its 64 kB/s download then holds about 4 s of
    audio) and is back 2 s later on the same ports: the file's download is resumed with a
    byte range, and the track plays to its last second."""
    tui = subsonic_tui
    env = tui.run_env()
    start_and_find(tui, "Steps Up", output="pulse")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Steps Up"), "Steps Up playing",
                 timeout=15)
    time.sleep(1.5)
    supysonic.stop()
    time.sleep(2.0)
    supysonic.start()
    resumed = len(supysonic.requests())

    def status() -> dict:
        answer = subprocess.run([str(tui.binary), "ctl", "status"], env=env, capture_output=True, text=True,
                                timeout=10)
        return json.loads(answer.stdout) if answer.returncode == 0 else {}

    deadline = time.monotonic() + 40
    seen: dict = {}
    while time.monotonic() < deadline:
        seen = status()
        if (seen.get("position") or 0) >= 19.0 or seen.get("state") == "stopped":
            break
        time.sleep(0.3)
    time.sleep(1.5)
    rec = recorder.stop(tail=0.3)
    assert (seen.get("position") or 0) >= 19.0, f"playback did not reach the end: {seen}"
    heard = {c.step for c in aa.step_changes(rec.audio, list(STEPS)) if c.step is not None}
    assert {0, 10, 18, 19} <= heard, f"seconds heard: {sorted(heard)}"
    again = [r.split() for r in supysonic.requests()[resumed:] if " stream.view " in r]
    assert again and all(len(r) > 3 and int(r[3][6:].split("-")[0]) > 0 for r in again), again


def starred_titles(server: SubsonicServer) -> list[str]:
    return sorted(s["title"] for s in server_call(server, "getStarred2")["starred2"].get("song", []))


def wait_status(tui, text: str) -> None:
    """Waits for a screen row that starts with `text` (so "starred" is not "unstarred")."""
    tui.wait_for(lambda screen: any(r.strip().startswith(text) for r in screen.splitlines()),
                 repr(text), timeout=10)


def test_plus_in_a_list_and_the_player_stars_on_the_server_and_again_unstars(subsonic_tui, supysonic):
    tui = subsonic_tui
    assert "Middle A" not in starred_titles(supysonic)
    start_and_find(tui, "Middle A")
    tui.keys("+")
    wait_status(tui, "starred Middle A on the server")
    assert starred_titles(supysonic) == ["Middle A"]
    tui.keys("+")
    wait_status(tui, "unstarred Middle A on the server")
    assert starred_titles(supysonic) == []
    # In the Player pane, `+` stars what plays.
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Middle A"), "Middle A playing",
                 timeout=15)
    tui.keys("4")
    tui.keys("+")
    wait_status(tui, "starred Middle A on the server")
    assert starred_titles(supysonic) == ["Middle A"]
    tui.keys("+")
    wait_status(tui, "unstarred Middle A on the server")
    assert starred_titles(supysonic) == []


# ---------------------------------------------------------------- plays told to the server

def test_a_play_is_announced_and_recorded_once_through_the_server(refrain_bin, tmp_path):
    from test_scrobble import FakeService, lb_json, lb_type, listenbrainz_answer
    from test_tui import TUI

    listenbrainz = FakeService(listenbrainz_answer)
    server = SubsonicServer(tmp_path / "scrobbling", listenbrainz_url=listenbrainz.url).start()
    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-scrobble")
    try:
        tui_login(tui, server)
        start_and_find(tui, "Long Road")
        entered = time.time()
        tui.keys("Enter")

        def scrobbles() -> list[list[str]]:
            return [r.split() for r in server.requests() if " scrobble.view " in r]

        deadline = time.monotonic() + 10
        while not scrobbles() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [r[3] for r in scrobbles()] == ["submission=false"], scrobbles()
        assert time.time() - entered < 10
        # Half of 32 s heard: the play is sent once, with the start in milliseconds.
        deadline = time.monotonic() + 30
        while len(scrobbles()) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        position = (tui.now_playing() or ("", -1))[1]
        sent = scrobbles()
        assert [r[3] for r in sent] == ["submission=false", "submission=true"], sent
        assert all(r[2] == "token" for r in sent), sent
        started_ms = int(sent[1][4].removeprefix("time="))
        assert entered * 1000 - 2000 <= started_ms <= entered * 1000 + 3000, (started_ms, entered)
        assert 15 <= position <= 19, f"the play was sent at {position} s on screen"
        # supysonic recorded it by forwarding to the linked ListenBrainz, once.
        single = listenbrainz.wait_for(lb_type("single"), 10, "the listen forwarded by the server")
        assert lb_json(single)["payload"][0]["track_metadata"]["track_name"] == "Long Road"
        assert lb_json(single)["payload"][0]["listened_at"] == started_ms // 1000
        time.sleep(3)
        assert len([r for r in listenbrainz.snapshot() if lb_type("single")(r)]) == 1
        assert len(scrobbles()) == 2
        status = subprocess.run([str(refrain_bin), "scrobble", "status", "--json"], env=tui.run_env(),
                                capture_output=True, text=True, timeout=30)
        service = next(s for s in json.loads(status.stdout)["services"] if s["name"] == "subsonic")
        assert service["enabled"] and service["sent"] == 1 and service["pending"] == 0, service
    finally:
        tui.close()
        server.stop()
        listenbrainz.close()


def test_scrobble_false_tells_the_server_nothing(refrain_bin, tmp_path, supysonic):
    from test_tui import TUI

    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-quiet")
    try:
        config = Path(tui.env["XDG_CONFIG_HOME"]) / "refrain"
        config.mkdir(parents=True, exist_ok=True)
        (config / "config.toml").write_text("[subsonic]\nscrobble = false\n")
        tui_login(tui, supysonic)
        before = len(supysonic.requests())
        start_and_find(tui, "Long Road")
        tui.keys("Enter")
        tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Long Road") and np[1] >= 3,
                     "3 s of Long Road", timeout=20)
        assert not [r for r in supysonic.requests()[before:] if " scrobble.view " in r]
        status = subprocess.run([str(refrain_bin), "scrobble", "status", "--json"], env=tui.run_env(),
                                capture_output=True, text=True, timeout=30)
        service = next(s for s in json.loads(status.stdout)["services"] if s["name"] == "subsonic")
        assert not service["enabled"] and "subsonic.scrobble = false" in service["detail"]
    finally:
        tui.close()


# ---------------------------------------------------------------- TLS

def test_https_with_a_private_ca_needs_ssl_cert_file_and_then_logs_in(refrain, supysonic, tmp_path):
    from test_room_tls import TLSProxy

    cert, key = tmp_path / "server.pem", tmp_path / "server-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "2", "-subj", "/CN=Refrain test music server",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    proxy = TLSProxy(cert, key, supysonic.ports["token"])
    address = f"https://localhost:{proxy.port}"
    try:
        untrusted = subsonic(refrain, "login", address, "--user", USER, "--password-stdin",
                             stdin=PASSWORD + "\n")
        line = one_line(untrusted)
        assert "TLS certificate was not accepted" in line and "SSL_CERT_FILE" in line, line
        assert not account_file(refrain).exists()
        refrain.env["SSL_CERT_FILE"] = str(cert)
        trusted = subsonic(refrain, "login", address, "--user", USER, "--password-stdin",
                           stdin=PASSWORD + "\n")
        assert trusted.returncode == 0, trusted.stderr
        assert trusted.stdout.startswith(f"Logged in to localhost:{proxy.port} as {USER}")
        found = json.loads(search(refrain, "steps", "--json").stdout)
        assert [t["title"] for t in found] == ["Steps Up"]
        assert any(r.startswith("GET /rest/search3.view") for r in proxy.seen()), proxy.seen()
    finally:
        proxy.close()


# ---------------------------------------------------------------- lyrics from the server

def test_the_servers_structured_lyrics_follow_the_audio_line_by_line(refrain_bin, tmp_path, supysonic):
    from test_tui import TUI

    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-lyrics")
    try:
        run = subprocess.run([str(refrain_bin), "subsonic", "login", supysonic.url("opensubsonic"),
                              "--user", USER, "--password-stdin"], env=tui.run_env(),
                             input=API_KEY + "\n", capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        before = len(supysonic.requests())
        start_and_find(tui, "Steps Up")
        tui.keys("Enter")
        env = tui.run_env()
        samples: list[tuple[float, str | None]] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            status = subprocess.run([str(refrain_bin), "ctl", "status"], env=env, capture_output=True,
                                    text=True, timeout=10)
            if status.returncode == 0:
                doc = json.loads(status.stdout)
                if doc.get("track") == "Steps Up" and doc.get("state") == "playing":
                    samples.append((doc["position"], doc.get("line")))
                    if doc["position"] >= 8:
                        break
            time.sleep(0.2)
        # Line k sits from 1 + 2k s to 3 + 2k s; samples near a change may show either line.
        checked = 0
        for position, line in samples:
            k = int((position - 1) // 2)
            if position < 1.3 or abs((position - 1) % 2) < 0.3 or abs((position - 1) % 2 - 2) < 0.3:
                continue
            # `line` is the last line of its time: here the Korean translation of line k.
            assert line in (f"Step line {k + 1}", f"계단 {k + 1}"), (position, line, samples)
            checked += 1
        assert checked >= 10, samples
        # The Player pane shows the sung line with its translation under it.
        tui.keys("4")
        screen = tui.wait_for(lambda s: s if "Step line" in s else None, "a lyric line in the Player pane")
        rows = [r.strip() for r in screen.splitlines()]
        sung = next(i for i, r in enumerate(rows) if r.startswith("Step line"))
        assert rows[sung + 1] == "계단 " + rows[sung].removeprefix("Step line "), screen
        asked = [r for r in supysonic.requests()[before:] if "getLyricsBySongId" in r]
        assert asked == ["opensubsonic getLyricsBySongId.view apikey"], asked
    finally:
        tui.close()



def test_tap_to_sync_on_a_server_track_saves_to_the_lyrics_cache_and_plays_it_next_time(
        refrain_bin, tmp_path, supysonic):
    """A server track has no file to sit beside: lyrics timed by tap-to-sync go to the lyrics
    cache (`save` answers so), and the next start of the player follows the new times."""
    from test_tui import TUI

    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-tap")
    env = tui.run_env()

    def ctl(*words: str, ok: bool = True) -> subprocess.CompletedProcess:
        run = subprocess.run([str(refrain_bin), "ctl", *words], env=env, capture_output=True,
                             text=True, timeout=10)
        assert run.returncode == 0 or not ok, (words, run.stdout, run.stderr)
        return run

    def status() -> dict:
        return json.loads(ctl("status").stdout)

    try:
        run = subprocess.run([str(refrain_bin), "subsonic", "login", supysonic.url("opensubsonic"),
                              "--user", USER, "--password-stdin"], env=env,
                             input=API_KEY + "\n", capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        start_and_find(tui, "Steps Up")
        tui.keys("Enter")
        tui.wait_for(lambda _: (status().get("line") or "").startswith(("Step line", "계단")),
                     "a line of the server's lyrics sung", timeout=20)
        # Re-time the server's synced lyrics from where playback is, every line.
        ctl("lyrics", "sync", "here")
        stamps = []
        for _ in range(64):
            run = ctl("lyrics", "sync", "stamp", ok=False)
            if run.returncode != 0:
                assert "every line is stamped" in run.stderr, run.stderr
                break
            stamps.append(json.loads(run.stdout))
            time.sleep(0.05)
        assert len(stamps) >= 4, stamps
        ms = [a["ms"] for a in stamps]
        assert ms == sorted(ms), ms
        saved = ctl("lyrics", "sync", "save")
        assert "the lyrics cache" in saved.stdout, saved.stdout
        tui.quit()
    finally:
        tui.close()

    # A new player on the same folders: the track's lyrics now come from the cache, with the
    # times just stamped (all within a fraction of a second of each other, so the line sung
    # a few seconds in is the last one, where the server's times would give an early line).
    again = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-tap-again")
    try:
        start_and_find(again, "Steps Up")
        again.keys("Enter")
        # Wait until playback is past the last stamp: on a busy machine the stamps spread out
        # (each `ctl` call can take a while), so the first stamp says too little.
        last_stamp = stamps[-1]["ms"] / 1000
        deadline = time.monotonic() + 20
        doc: dict = {}
        trail = []
        while time.monotonic() < deadline:
            doc = json.loads(subprocess.run([str(refrain_bin), "ctl", "status"], env=again.run_env(),
                                            capture_output=True, text=True, timeout=10).stdout or "{}")
            trail.append((doc.get("state"), doc.get("position"), doc.get("line")))
            if doc.get("state") == "playing" and doc.get("position", 0) > last_stamp + 0.5 and doc.get("line"):
                break
            time.sleep(0.2)
        last_number = len(stamps)
        # The player restored the last session paused; Enter played the track, so it says so.
        assert doc.get("state") == "playing", trail[-5:]
        assert doc.get("line") in (f"Step line {last_number}", f"계단 {last_number}"), (ms, trail[-5:])
    finally:
        again.close()


# ---------------------------------------------------------------- a track the server lost

def test_a_track_the_server_no_longer_has_is_one_line_and_the_next_plays(refrain_bin, tmp_path):
    from test_tui import TUI

    server = SubsonicServer(tmp_path / "losing").start()
    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-lost")
    try:
        tui_login(tui, server)
        start_and_find(tui, "Harbour Lights", album=True)
        tui.keys("Enter")
        tui.wait_text("3 tracks", timeout=10)
        # The album page is on screen; then the server loses its second track.
        (server.music / "Tone Quartet/Harbour Lights/02 Middle A.flac").unlink()
        server.rescan()
        while "Play all" not in (tui.selected_row() or ""):
            tui.keys("k")
        tui.keys("Enter")
        screen = tui.wait_text("no longer has it", timeout=10)
        problem = [r for r in screen.splitlines() if "no longer has it" in r]
        assert len(problem) == 1 and "Middle A" in problem[0], screen
        tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Steps Up"),
                     "the first track playing", timeout=15)
        tui.keys("n")
        tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Fifth Above"),
                     "the track after the lost one playing", timeout=15)
    finally:
        tui.close()
        server.stop()


def test_a_server_gone_away_is_one_line_and_home_keeps_what_it_showed(refrain_bin, tmp_path):
    from test_tui import TUI

    server = SubsonicServer(tmp_path / "going").start()
    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-gone")
    try:
        tui_login(tui, server)
        tui.start("--provider", "subsonic", "--output", "null")
        tui.wait_text("Night Ferry — Lanterns", timeout=15)
        server.stop()
        tui.keys("/")
        tui.type("Lanterns")
        tui.keys("Enter")
        screen = tui.wait_text("could not reach the server", timeout=15)
        assert len([r for r in screen.splitlines() if "could not reach" in r]) == 1, screen
        tui.keys("1")
        home = tui.wait_text("Recently added", timeout=5)
        assert "Night Ferry — Lanterns" in home and "Harbour Lights — Tone Quartet" in home, home
    finally:
        tui.close()
        server.stop()
