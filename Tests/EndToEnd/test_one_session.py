"""One session under every front end, tried from each door a user has.

- A full-screen room member who presses Enter on a demo row keeps hearing the room's
  track, and the status line says why and how to leave; nothing changes for the others.
- MPRIS `PlayPause` on a full-screen room member (a private `dbus-daemon`, `playerctl`)
  pauses the room for the other members.
- A tagged MP3 that was never scanned, queued by its path, shows its tags in `ctl status`,
  the Player pane and MPRIS alike.
- `refrain ctl --socket S` drives `refrain play --socket S` and `refrain room join
  --socket S`: `status` answers, `pause` pauses, and a full-screen-only verb is refused in
  one line.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from room_harness import JoinedMember, RoomServer, Track, make_library
from test_mpris import ALBUM, ARTIST, BUS_NAME, TITLE, Player, wait_for
from test_mpris import bus, song  # noqa: F401  (fixtures)
from test_tui import TUI, select_row

TIDE = Track("Long/Slow Tide.mp3", "Slow Tide", "Jun", "Long", 40, 330)


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    return make_library(tmp_path_factory.mktemp("one-session") / "lib", [TIDE])


@pytest.fixture
def room(refrain_bin, library, tmp_path):
    """A room server sharing TIDE, and Mina, a headless member who plays it for the room."""
    server = RoomServer(refrain_bin, tmp_path / "server", [library], heartbeat=1)
    server.start()
    mina = JoinedMember(refrain_bin, tmp_path / "mina", server.url + "/rooms/friday",
                        server.token, "Mina")
    try:
        mina.wait("joined")
        mina.send(f"queue add {TIDE.path}")
        mina.wait("queue", lambda e: len(e["entries"]) == 1)
        mina.send("play")
        mina.wait("state", lambda e: e["playing"] is True)
        yield server, mina
    finally:
        mina.close()
        if server.running():
            server.stop()


def ctl(binary: Path, env: dict, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), "ctl", *words], env=env, capture_output=True, text=True,
                          timeout=10)


def test_enter_on_a_demo_row_in_a_room_keeps_the_room_playing_and_says_why(room, refrain_bin, tmp_path):
    server, mina = room
    tui = TUI(refrain_bin, tmp_path / "tui", "room-enter")
    try:
        tui.env["REFRAIN_ROOM_TOKEN"] = server.token
        tui.start("--output", "null", "--room", server.url + "/rooms/friday", "--name", "Jun")
        tui.wait_text("Room friday · 2 members", timeout=15)
        env = tui.run_env()
        wait_for(lambda: json.loads(ctl(refrain_bin, env, "status").stdout or "{}").get("track") == "Slow Tide",
                 "the member on the room's track", 15)
        tui.keys("1")
        tui.wait_text("Top tracks", timeout=15)
        select_row(tui, "♪ 첫눈 오는 날")
        tui.keys("Enter")
        screen = tui.wait_text("a demo track; the room plays only its library (:room leave)", timeout=10)
        time.sleep(1.0)
        status = json.loads(ctl(refrain_bin, env, "status").stdout)
        assert status["track"] == "Slow Tide", status
        assert status["state"] == "playing", status
        # Nothing was asked of the room: Mina's room still plays entry 1 without a restart.
        states = [e for e in mina.seen if e.get("event") == "state"]
        before = len(states)
        with pytest.raises(AssertionError):
            mina.wait("state", timeout=1.5)
        assert len([e for e in mina.seen if e.get("event") == "state"]) == before
        # :room leave gives the member its own player back.
        tui.keys(":")
        tui.type("room leave")
        tui.keys("Enter")
        tui.wait_text("left room friday", timeout=10)
        wait_for(lambda: "room" not in json.loads(ctl(refrain_bin, env, "status").stdout),
                 "the room gone from ctl status")
        mina.wait("member", lambda e: [m["name"] for m in e["members"]] == ["Mina"])
    finally:
        tui.close()


class RoomPlayer(Player):
    """The full-screen player on the test's bus, joined to a room."""

    def __init__(self, binary: Path, home: Path, base_env: dict, url: str, token: str) -> None:
        super().__init__(binary, home, base_env)
        self.env["REFRAIN_ROOM_TOKEN"] = token
        self.url = url

    def start(self) -> None:
        keys = ("XDG_", "REFRAIN_", "LANG", "TERM", "DBUS_SESSION_BUS_ADDRESS")
        exports = " ".join(f"{k}={v}" for k, v in self.env.items() if k.startswith(keys))
        subprocess.run(self.tmux + ["new-session", "-d", "-x", "100", "-y", "30",
                                    f"exec env {exports} {self.binary} --output null --room {self.url} "
                                    "--name Jun"], check=True)
        wait_for(lambda: self.ctl("status").returncode == 0, "the control socket", 15)


def test_mpris_play_pause_on_a_room_member_pauses_the_room_for_everyone(room, refrain_bin, bus, tmp_path):
    server, mina = room
    jun = RoomPlayer(refrain_bin, tmp_path / "jun", bus.env, server.url + "/rooms/friday", server.token)
    jun.start()
    try:
        wait_for(lambda: BUS_NAME in bus.names(), "Refrain on the bus", 15)
        wait_for(lambda: jun.status().get("track") == "Slow Tide",
                 "the member on the room's track", 15)
        bus.playerctl("play-pause")
        paused = mina.wait("state", lambda e: e["playing"] is False, timeout=10)
        assert paused["path"] == TIDE.path, paused
        wait_for(lambda: jun.status()["state"] == "paused", "the MPRIS member paused with the room")
        bus.playerctl("play")
        mina.wait("state", lambda e: e["playing"] is True, timeout=10)
    finally:
        jun.stop()


def test_a_tagged_file_queued_by_path_shows_its_tags_in_every_front_end(refrain_bin, bus, song, tmp_path):
    player = Player(refrain_bin, tmp_path / "home", bus.env)
    player.start()
    try:
        # Never scanned: the library has not seen it.
        added = player.ctl("queue", "add", str(song))
        assert added.returncode == 0 and added.stdout.strip() == "ok", added.stderr
        assert player.ctl("play").returncode == 0
        wait_for(lambda: player.status()["state"] == "playing", "playback")
        status = player.status()
        assert (status["track"], status["artist"], status["album"]) == (TITLE, ARTIST, ALBUM), status
        subprocess.run(player.tmux + ["send-keys", "-t", "0", "4"], check=True)
        wait_for(lambda: TITLE in player.screen() and ARTIST in player.screen(), "the Player pane's tags")
        assert "Unknown artist" not in player.screen()
        wait_for(lambda: BUS_NAME in bus.names(), "Refrain on the bus")
        assert bus.playerctl("metadata", "title") == TITLE
        assert bus.playerctl("metadata", "artist") == ARTIST
    finally:
        player.stop()


def test_ctl_socket_drives_refrain_play(refrain_bin, tmp_path):
    sock = tmp_path / "play.sock"
    song = Path(__file__).resolve().parents[2] / "Resources" / "sample" / "refrain-sample.mp3"
    proc = subprocess.Popen([str(refrain_bin), "play", "--output", "null", "--socket", str(sock), str(song)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    env = dict(os.environ)
    try:
        wait_for(lambda: sock.exists() and ctl(refrain_bin, env, "--socket", str(sock), "status").returncode == 0,
                 "refrain play's socket")
        wait_for(lambda: json.loads(ctl(refrain_bin, env, "--socket", str(sock), "status").stdout)["state"]
                 == "playing", "playing")
        paused = ctl(refrain_bin, env, "--socket", str(sock), "pause")
        assert paused.returncode == 0 and paused.stdout.strip() == "ok", paused.stderr
        wait_for(lambda: json.loads(ctl(refrain_bin, env, "--socket", str(sock), "status").stdout)["state"]
                 == "paused", "paused")
        refused = ctl(refrain_bin, env, "--socket", str(sock), "show", "library")
        assert refused.returncode != 0
        assert "works in the full-screen player, not in `refrain play`" in refused.stderr + refused.stdout
        assert ctl(refrain_bin, env, "--socket", str(sock), "quit").returncode == 0
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_ctl_socket_drives_refrain_room_join(room, refrain_bin, tmp_path):
    server, mina = room
    sock = tmp_path / "jun.sock"
    home = tmp_path / "jun"
    for sub in ("data", "config", "state", "cache"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"),
               REFRAIN_LRCLIB_URL="http://127.0.0.1:9", REFRAIN_ROOM_TOKEN=server.token)
    proc = subprocess.Popen([str(refrain_bin), "room", "join", server.url + "/rooms/friday", "--name", "Jun",
                             "--output", "null", "--socket", str(sock)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        def status() -> dict:
            result = ctl(refrain_bin, env, "--socket", str(sock), "status")
            return json.loads(result.stdout) if result.returncode == 0 else {}
        wait_for(lambda: status().get("track") == "Slow Tide", "Jun on the room's track", 15)
        assert status()["room"]["name"] == "friday"
        paused = ctl(refrain_bin, env, "--socket", str(sock), "pause")
        assert paused.returncode == 0 and paused.stdout.strip() == "ok", paused.stderr
        mina.wait("state", lambda e: e["playing"] is False, timeout=10)
        said = ctl(refrain_bin, env, "--socket", str(sock), "chat", "from Jun's socket")
        assert said.returncode == 0, said.stderr
        assert mina.wait("chat", lambda e: e["text"] == "from Jun's socket")["from"] == "Jun"
        assert ctl(refrain_bin, env, "--socket", str(sock), "quit").returncode == 0
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_help_shows_the_players_options_first_with_an_example(refrain_bin):
    shown = subprocess.run([str(refrain_bin), "--help"], capture_output=True, text=True, timeout=10)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    for option in ("--provider", "--output", "--socket", "--room", "--token", "--name"):
        assert option in text, f"{option} missing from refrain --help:\n{text}"
    assert "refrain --room ws://HOST:7700/rooms/NAME --token T" in text
    assert text.index("PLAYER OPTIONS") < text.index("SUBCOMMANDS"), text
    assert all(len(line) <= 80 for line in text.splitlines() if "--" in line and "USAGE" not in line), text


def test_rooms_without_refrain_room_say_in_one_line_how_to_get_it(refrain_bin, tmp_path):
    lonely = tmp_path / "refrain"
    lonely.write_bytes(refrain_bin.read_bytes())
    lonely.chmod(0o755)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"))
    for argv in (["room", "join", "ws://127.0.0.1:9/rooms/x", "--token", "t"],
                 ["--room", "ws://127.0.0.1:9/rooms/x", "--token", "t"]):
        run = subprocess.run([str(lonely), *argv], capture_output=True, text=True, timeout=10, env=env,
                             stdin=subprocess.DEVNULL)
        assert run.returncode == 1, run
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and "make rooms" in lines[0], run.stderr
