"""Refrain players in a listening room: `refrain room join` members of a real
`refrain room serve`, on one machine.

Two or three headless members join one room. What one does (queue a track and play it,
seek, chat) reaches the others as a user would notice it: the same track starts for all at
the same position, a seek moves everyone, chat arrives, and a member who joins late sees the
history. A wrong token is refused in one line, and when the server is killed the members
play on, say the room is lost, and come back when it returns.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from room_harness import FixedPortServer, JoinedMember, RoomServer, Track, free_port, make_library

TIDE = Track("Long/Slow Tide.mp3", "Slow Tide", "Jun", "Long", 40, 330)
SHORT = Track("Short/Two Notes.mp3", "Two Notes", "Mina", "Short", 6, 550)


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    return make_library(tmp_path_factory.mktemp("room-members") / "lib", [TIDE, SHORT])


@pytest.fixture
def room(refrain_bin, library, tmp_path):
    server = RoomServer(refrain_bin, tmp_path / "server", [library], heartbeat=1)
    server.start()
    members: list[JoinedMember] = []

    def join(name: str, token: str | None = None) -> JoinedMember:
        member = JoinedMember(refrain_bin, tmp_path / name, server.url + "/rooms/friday",
                              server.token if token is None else token, name)
        members.append(member)
        return member

    yield server, join
    for member in members:
        member.close()
    if server.running():
        server.stop()


def aligned_positions(a: JoinedMember, b: JoinedMember) -> float:
    """How far apart two members' positions are, compared at the same moment."""
    at_a, pos_a = a.position_now()
    at_b, pos_b = b.position_now()
    return abs((pos_a + (at_b - at_a)) - pos_b)


def test_a_track_queued_and_played_by_one_member_plays_for_all_and_a_seek_moves_all(room):
    server, join = room
    mina, jun = join("Mina"), join("Jun")
    for member in (mina, jun):
        member.wait("joined")
    mina.send(f"queue add {TIDE.path}")
    jun.wait("queue", lambda e: any(x["path"] == TIDE.path for x in e["entries"]))
    mina.send("play")
    for member in (mina, jun):
        start = member.wait("start")
        assert start["file"] == TIDE.title
    # Both hear the track at the same position (each on its own null output's clock).
    time.sleep(1.0)
    assert aligned_positions(mina, jun) < 0.25
    jun.send("seek 25")
    for member in (mina, jun):
        member.wait("state", lambda e: e["playing"] and abs(e["position"] - 25) < 0.01)
        member.wait("position", lambda e: 24.5 <= e["t"] <= 27.5, timeout=10)
    time.sleep(0.6)
    assert aligned_positions(mina, jun) < 0.25
    notices = [e["text"] for e in mina.seen if e.get("event") == "notice"]
    assert "Jun moved to 0:25" in notices, notices


def test_a_member_who_joins_mid_track_starts_at_the_right_second(room):
    server, join = room
    mina = join("Mina")
    mina.wait("joined")
    mina.send(f"queue add {TIDE.path}")
    mina.send("play")
    mina.wait("start")
    time.sleep(3.0)
    late = join("Late")
    start = late.wait("start")
    assert start["file"] == TIDE.title
    at, position = late.position_now()
    assert 2.5 <= position <= 6.0, position
    assert aligned_positions(mina, late) < 0.25


def test_chat_reaches_the_others_and_a_late_joiner_sees_the_history(room):
    server, join = room
    mina, jun = join("Mina"), join("Jun")
    for member in (mina, jun):
        member.wait("joined")
    mina.send(f"queue add {SHORT.path}")
    mina.send("play")
    jun.wait("start")
    hostile = "nice \x1b]52;c;aGk=\x07bridge \x1b[31mhere"
    mina.send(f"chat {hostile}")
    chat = jun.wait("chat")
    assert chat["from"] == "Mina" and chat["track"] == SHORT.path
    assert chat["text"] == "nice bridge here", chat
    late = join("Late")
    history = late.wait("history", lambda e: e["messages"])
    assert [m["text"] for m in history["messages"]] == ["nice bridge here"]


def test_a_wrong_token_is_refused_in_one_line(room, refrain_bin, tmp_path):
    server, join = room
    intruder = join("Intruder", token="not-the-token")
    assert intruder.proc.wait(20) == 2
    err = "".join(intruder.stderr) if intruder.stderr else intruder.proc.stderr.read()
    time.sleep(0.2)
    err = "".join(intruder.stderr)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "refused the token" in lines[0], err


def test_members_play_on_when_the_server_dies_and_come_back_when_it_returns(refrain_bin, library, tmp_path):
    server = FixedPortServer(refrain_bin, tmp_path / "server", [library], heartbeat=1, port=free_port())
    server.start()
    url = server.url + "/rooms/friday"
    mina = JoinedMember(refrain_bin, tmp_path / "mina", url, server.token, "Mina")
    jun = JoinedMember(refrain_bin, tmp_path / "jun", url, server.token, "Jun")
    try:
        for member in (mina, jun):
            member.wait("joined")
        mina.send(f"queue add {TIDE.path}")
        mina.send("play")
        for member in (mina, jun):
            member.wait("start")
        server.kill()
        for member in (mina, jun):
            member.wait("room_lost")
        # Still playing: positions keep coming and keep moving.
        _, first = mina.position_now()
        time.sleep(1.0)
        _, later = mina.position_now()
        assert later > first + 0.5, (first, later)
        server.start()
        for member in (mina, jun):
            member.wait("joined", timeout=20)
        # The room came back from what the server saved, still on TIDE; a skip to a track
        # added now reaches both again.
        jun.send(f"queue add {SHORT.path}")
        jun.wait("queue", lambda e: any(x["path"] == SHORT.path for x in e["entries"]))
        jun.send("next")
        for member in (mina, jun):
            member.wait("start", lambda e: e["file"] == SHORT.title)
    finally:
        mina.close()
        jun.close()
        if server.running():
            server.stop()


def test_the_full_screen_member_shows_the_room_and_its_chat_without_escape_sequences(room, refrain_bin, tmp_path):
    """`refrain --room URL` in tmux: the Room pane shows who is there, the queue and the
    chat; a hostile message reaches the screen as plain text, and none of its escape
    sequences reach the terminal; `ctl status` has a room object and `ctl chat` sends."""
    from test_tui import TUI

    server, join = room
    mina = join("Mina")
    mina.wait("joined")
    tui = TUI(refrain_bin, tmp_path / "tui", "room")
    try:
        tui.env["REFRAIN_ROOM_TOKEN"] = server.token
        tui.start("--output", "null", "--room", server.url + "/rooms/friday", "--name", "Jun")
        tui.wait_text("Room friday · 2 members", timeout=15)
        mina.send(f"queue add {TIDE.path}")
        mina.send("play")
        tui.wait_text("Slow Tide", timeout=15)
        hostile = "look \x1b]0;pwned\x07at \x1b[2Jthis \x1b]52;c;aGk=\x07bridge"
        mina.send(f"chat {hostile}")
        screen = tui.wait_text("Mina: look at this bridge", timeout=10)
        assert "pwned" not in screen
        written = tui.bytes_log.read_bytes()
        for sequence in (b"\x1b]0;", b"\x1b]52;", b"aGk="):
            assert sequence not in written, f"{sequence!r} reached the terminal"
        # Typing in the Room pane sends a message; Mina hears it.
        tui.type("hello room")
        tui.keys("Enter")
        said = mina.wait("chat", lambda e: e["from"] == "Jun")
        assert said["text"] == "hello room"
        # The control socket: the room in the status, and chat.
        env = tui.run_env()
        status = json.loads(subprocess.run([str(refrain_bin), "ctl", "status"], env=env, capture_output=True,
                                           text=True, timeout=10).stdout)
        assert status["room"]["name"] == "friday", status
        assert sorted(status["room"]["members"]) == ["Jun", "Mina"], status
        assert status["room"]["connected"] is True
        done = subprocess.run([str(refrain_bin), "ctl", "chat", "from the socket"], env=env,
                              capture_output=True, text=True, timeout=10)
        assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
        assert mina.wait("chat", lambda e: e["text"] == "from the socket")["from"] == "Jun"
        # A pause key in the full-screen player pauses the room for everyone.
        tui.keys("4")
        tui.wait_text("Room friday · 2 members")
        tui.keys("Space")
        mina.wait("state", lambda e: e["playing"] is False)
    finally:
        tui.close()
