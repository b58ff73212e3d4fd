"""One owner for what plays: every door changes the same queue, and every answer is true.

In a listening room the room's queue is the queue: a full-screen member in tmux shows the
room's entries on its Queue pane, and `x` and `J` there change the room's queue as another
member (a headless `refrain room join`) sees it. `playerctl next`, on a private D-Bus,
advances the whole room. While the room server is down, `refrain ctl seek` exits 1 with the
reason and nothing is replayed later. `:room leave` then `:room join URL` enters again.

Alone, `ctl next` on the last track, `ctl queue add` of a missing file, and a relative path
given from another folder are answered as they were carried out; a playlist deleted while
its page is open closes that page.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from room_harness import JoinedMember, RoomServer, Track, make_library
from test_mpris import Bus
from test_room_members import FixedPortServer, free_port
from test_tui import TUI

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "Resources" / "sample" / "refrain-sample.mp3"

TIDE = Track("Sea/Tide.mp3", "Tide Song", "Jun", "Sea", 40, 330)
CAFE = Track("Sea/Cafe.mp3", "Cafe Song", "Mina", "Sea", 40, 440)
HILL = Track("Sea/Hill.mp3", "Hill Song", "Mina", "Sea", 40, 550)


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    return make_library(tmp_path_factory.mktemp("one-owner") / "lib", [TIDE, CAFE, HILL])


def ctl(tui: TUI, *words: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(tui.binary), "ctl", *words], env=tui.run_env(), capture_output=True,
                          text=True, timeout=15, cwd=cwd)


def room_queue(member: JoinedMember, check) -> dict:
    return member.wait("queue", lambda e: check([x["path"] for x in e["entries"]]), timeout=15)


def queued_three(mina: JoinedMember) -> None:
    for track in (TIDE, CAFE, HILL):
        mina.send(f"queue add {track.path}")
    room_queue(mina, lambda paths: paths == [TIDE.path, CAFE.path, HILL.path])
    mina.send("play")
    mina.wait("start", lambda e: e["file"] == TIDE.title)


def test_x_and_J_on_a_members_queue_pane_edit_the_rooms_queue_for_everyone(refrain_bin, library, tmp_path):
    server = RoomServer(refrain_bin, tmp_path / "server", [library], heartbeat=1)
    server.start()
    mina = JoinedMember(refrain_bin, tmp_path / "mina", server.url + "/rooms/den", server.token, "Mina")
    tui = TUI(refrain_bin, tmp_path / "tui", "queue")
    try:
        mina.wait("joined")
        tui.env["REFRAIN_ROOM_TOKEN"] = server.token
        tui.start("--output", "null", "--room", server.url + "/rooms/den", "--name", "Jun")
        tui.wait_text("Room den · 2 members", timeout=20)
        queued_three(mina)
        tui.keys("5")
        screen = tui.wait_text("Room den's queue (3)", timeout=15)
        assert "Tide Song" in screen and "Cafe Song" in screen and "Hill Song" in screen, screen
        # The second row (Cafe) moved down one: the room's order changes for Mina too.
        tui.keys("j", "J")
        room_queue(mina, lambda paths: paths == [TIDE.path, HILL.path, CAFE.path])
        # x on Cafe, now third (the cursor followed it): gone from the room's queue; the
        # room plays on for both.
        tui.wait_text("▶ Tide Song", timeout=10)
        tui.keys("x")
        room_queue(mina, lambda paths: paths == [TIDE.path, HILL.path])
        tui.wait_text("Room den's queue (2)", timeout=10)
        status = json.loads(ctl(tui, "status").stdout)
        assert status["state"] == "playing" and status["room"]["connected"] is True, status
        listed = json.loads(ctl(tui, "queue").stdout)
        assert [(e["position"], e["title"], e["current"]) for e in listed] == [
            (1, "Tide Song", True), (2, "Hill Song", False)], listed
    finally:
        tui.close()
        mina.close()
        server.stop()


def test_playerctl_next_on_a_member_advances_the_whole_room(refrain_bin, library, tmp_path):
    bus = Bus(tmp_path / "dbus")
    server = RoomServer(refrain_bin, tmp_path / "server", [library], heartbeat=1)
    server.start()
    mina = JoinedMember(refrain_bin, tmp_path / "mina", server.url + "/rooms/den", server.token, "Mina")
    tui = TUI(refrain_bin, tmp_path / "tui", "mpris")
    try:
        mina.wait("joined")
        tui.env["REFRAIN_ROOM_TOKEN"] = server.token
        tui.env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        tui.start("--output", "null", "--room", server.url + "/rooms/den", "--name", "Jun")
        tui.wait_text("Room den · 2 members", timeout=20)
        queued_three(mina)
        tui.wait_text("Tide Song", timeout=15)
        deadline = time.monotonic() + 15
        while bus.get("org.mpris.MediaPlayer2.refrain", "org.mpris.MediaPlayer2.Player", "CanGoNext") != "b true":
            assert time.monotonic() < deadline, "CanGoNext stayed false with three entries queued"
            time.sleep(0.1)
        bus.playerctl("next")
        state = mina.wait("state", lambda e: e["path"] == CAFE.path and e["playing"], timeout=15)
        assert state["position"] < 1.0, state
        tui.wait_text("Cafe Song", timeout=10)
    finally:
        tui.close()
        mina.close()
        server.stop()
        bus.close()


def test_while_the_room_is_unreachable_commands_are_refused_and_nothing_is_replayed(refrain_bin, library, tmp_path):
    server = FixedPortServer(refrain_bin, tmp_path / "server", [library], heartbeat=1, port=free_port())
    server.start()
    tui = TUI(refrain_bin, tmp_path / "tui", "outage")
    try:
        tui.env["REFRAIN_ROOM_TOKEN"] = server.token
        tui.start("--output", "null", "--room", server.url + "/rooms/den", "--name", "Jun")
        tui.wait_text("Room den · 1 member", timeout=20)
        for track in (TIDE, CAFE):
            assert ctl(tui, "queue", "add", track.path).returncode == 0
        assert ctl(tui, "play").returncode == 0
        deadline = time.monotonic() + 15
        while (json.loads(ctl(tui, "status").stdout).get("track"), json.loads(ctl(tui, "status").stdout)["state"]) \
                != ("Tide Song", "playing"):
            assert time.monotonic() < deadline, "the room's track never played"
            time.sleep(0.1)
        server.kill()
        deadline = time.monotonic() + 15
        while json.loads(ctl(tui, "status").stdout)["room"]["connected"]:
            assert time.monotonic() < deadline, "the member never saw the room go"
            time.sleep(0.1)
        for words in (("seek", "+10"), ("next",), ("chat", "anyone?")):
            answer = ctl(tui, *words)
            assert answer.returncode == 1, (words, answer.stdout)
            assert "the room is unreachable" in answer.stderr, answer.stderr
        tui.keys("4", "n")  # the key says the same on the status line, and nothing is kept
        tui.wait_text("the room is unreachable", timeout=5)
        server.start()
        deadline = time.monotonic() + 20
        while not json.loads(ctl(tui, "status").stdout)["room"]["connected"]:
            assert time.monotonic() < deadline, "the member did not come back"
            time.sleep(0.2)
        # The restarted room goes on with the same track: the `next` pressed during the
        # outage was not kept and sent now.
        time.sleep(2.0)
        status = json.loads(ctl(tui, "status").stdout)
        assert status.get("track") == "Tide Song" and status["state"] == "playing", status
        screen = tui.screen()
        assert "skipped" not in screen and "queue is done" not in screen, screen
    finally:
        tui.close()
        if server.running():
            server.stop()


def test_room_join_after_room_leave_enters_again(refrain_bin, library, tmp_path):
    server = RoomServer(refrain_bin, tmp_path / "server", [library], heartbeat=1)
    server.start()
    tui = TUI(refrain_bin, tmp_path / "tui", "rejoin")
    url = server.url + "/rooms/den"
    try:
        tui.env["REFRAIN_ROOM_TOKEN"] = server.token
        tui.start("--output", "null", "--room", url, "--name", "Jun")
        tui.wait_text("Room den · 1 member", timeout=20)
        tui.keys(":")
        tui.type("room leave")
        tui.keys("Enter")
        tui.wait_text("left room den", timeout=10)
        assert "room" not in json.loads(ctl(tui, "status").stdout)
        tui.keys(":")
        tui.type(f"room join {url}")
        tui.keys("Enter")
        tui.wait_text("Room den · 1 member", timeout=20)
        assert ctl(tui, "queue", "add", TIDE.path).returncode == 0
        status = json.loads(ctl(tui, "status").stdout)
        assert status["room"]["name"] == "den" and status["room"]["connected"] is True, status
        # And from ctl: leave, then join again.
        assert ctl(tui, "room", "leave").returncode == 0
        joined = ctl(tui, "room", "join", url)
        assert joined.returncode == 0, joined.stderr
        tui.wait_text("Room den · 1 member", timeout=20)
        again = ctl(tui, "room", "join", url)
        assert again.returncode == 1 and "already in room den" in again.stderr, again.stderr
        assert server.token not in tui.screen()
    finally:
        tui.close()
        server.stop()


# ---------------------------------------------------------------- alone


@pytest.fixture
def played(refrain_bin, tmp_path):
    """`refrain play SAMPLE --socket` with its control socket."""
    socket = tmp_path / "run" / "ctl.sock"
    socket.parent.mkdir(mode=0o700)
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_RUNTIME_DIR=str(tmp_path / "run"))
    proc = subprocess.Popen([str(refrain_bin), "play", "--output", "null", "--socket", str(socket), str(SAMPLE)],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)

    def ask(*words: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([str(refrain_bin), "ctl", "--socket", str(socket), *words], env=env,
                              capture_output=True, text=True, timeout=15, cwd=cwd)

    deadline = time.monotonic() + 15
    while ask("status").returncode != 0 or json.loads(ask("status").stdout)["state"] != "playing":
        assert time.monotonic() < deadline and proc.poll() is None, "refrain play did not start"
        time.sleep(0.1)
    yield proc, ask
    if proc.poll() is None:
        proc.kill()
        proc.wait(5)


def test_answers_are_true_next_at_the_end_a_missing_file_and_a_relative_path(played, tmp_path):
    proc, ask = played
    last = ask("next")
    assert last.returncode == 1 and "this is the last track in the queue" in last.stderr, last
    assert json.loads(ask("status").stdout)["state"] == "playing", "next at the end stopped playback"

    missing = ask("queue", "add", "/nowhere/missing.mp3")
    assert missing.returncode == 1 and "no such file: /nowhere/missing.mp3" in missing.stderr, missing
    assert len(json.loads(ask("queue").stdout)) == 1, "a missing file was queued"

    # A relative path is the caller's, not the player's.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "song.mp3").write_bytes(SAMPLE.read_bytes())
    added = ask("queue", "add", "song.mp3", cwd=elsewhere)
    assert added.returncode == 0, added.stderr
    nowhere = ask("queue", "add", "song.mp3", cwd=tmp_path)
    assert nowhere.returncode == 1 and str(tmp_path / "song.mp3") in nowhere.stderr, nowhere.stderr
    assert ask("next").returncode == 0
    assert proc.poll() is None, "the next track ended refrain play"

    # `stop` from ctl ends `refrain play`, as `stop` on its stdin does.
    assert ask("stop").returncode == 0
    assert proc.wait(10) == 0, proc.stderr.read()


def test_ctl_play_path_adds_the_callers_file_and_plays_it_at_once(played, tmp_path):
    proc, ask = played
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "other.mp3").write_bytes(SAMPLE.read_bytes())
    missing = ask("play", "gone.mp3", cwd=elsewhere)
    assert missing.returncode == 1 and str(elsewhere / "gone.mp3") in missing.stderr, missing
    played_now = ask("play", "other.mp3", cwd=elsewhere)
    assert played_now.returncode == 0, played_now.stderr
    queue = json.loads(ask("queue").stdout)
    assert [row["current"] for row in queue] == [False, True], queue
    status = json.loads(ask("status").stdout)
    assert status["state"] == "playing" and status["position"] < 3, status


def test_a_deleted_playlists_open_page_closes(refrain_bin, tmp_path):
    tui = TUI(refrain_bin, tmp_path / "tui", "deleted")
    try:
        tui.start("--output", "null")
        tui.wait_text("Home", timeout=15)
        created = ctl(tui, "playlist", "create", "Doomed")
        assert created.returncode == 0, created.stderr
        playlist = json.loads(created.stdout)["id"]
        assert ctl(tui, "playlist", "add", str(playlist), str(SAMPLE)).returncode == 0
        tui.keys("3")
        tui.wait_text("Doomed", timeout=10)
        # The cursor starts on the first playlist: Enter opens its page.
        tui.keys("Enter")
        tui.wait_text("Play all", timeout=10)
        assert ctl(tui, "playlist", "delete", str(playlist)).returncode == 0
        tui.wait_text("Doomed was deleted", timeout=10)
        assert "Play all" not in tui.screen()
    finally:
        tui.close()
