"""A room server that restarts: what was playing comes back, and nothing is replayed.

A real `refrain room serve` on a fixed 127.0.0.1 port is killed with SIGKILL and started
again with the same arguments and data folder. Its room comes back with the same queue,
the same entry numbers and the same track, at the place it would be had it kept playing
(or paused where it was paused); headless members (`refrain room join --events`) go on
with it. A `next` a member sends while the server is down is dropped with one error line,
never sent after the reconnection. A `queue_move` (protocol 2) reorders the queue for
everyone, and chat after a restart belongs to the track that plays.
"""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest

from room_harness import FixedPortServer, JoinedMember, Member, RoomServer, Track, free_port, make_library

TIDE = Track("Long/Slow Tide.mp3", "Slow Tide", "Jun", "Long", 40, 330)
WAVE = Track("Long/Second Wave.mp3", "Second Wave", "Mina", "Long", 40, 550)
ROOM = "friday"


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    return make_library(tmp_path_factory.mktemp("room-restart") / "lib", [TIDE, WAVE])


@pytest.fixture
def room(refrain_bin, library, tmp_path):
    """A server on a fixed port, and a way to join its room as a headless member."""
    server = FixedPortServer(refrain_bin, tmp_path / "server", [library], heartbeat=1, port=free_port())
    server.start()
    members: list[JoinedMember] = []
    sockets: list[Member] = []

    def join(name: str) -> JoinedMember:
        member = JoinedMember(refrain_bin, tmp_path / name, server.room_url(ROOM, token=None),
                              server.token, name)
        members.append(member)
        member.wait("joined", timeout=20)
        return member

    def connect(name: str, protocol: int = 2) -> Member:
        member = Member(server.room_url(ROOM))
        sockets.append(member)
        member.hello(name, protocol=protocol)
        return member

    yield server, join, connect
    for member in members:
        member.close()
    for member in sockets:
        member.close()
    if server.running():
        server.stop()


def queue_two_and_play(member: JoinedMember) -> list[int]:
    """Queues TIDE then WAVE and plays the first; returns their entry numbers."""
    member.send(f"queue add {TIDE.path}")
    member.send(f"queue add {WAVE.path}")
    got = member.wait("queue", lambda e: [x["path"] for x in e["entries"]] == [TIDE.path, WAVE.path])
    member.send("play")
    member.wait("start", lambda e: e["file"] == TIDE.title)
    return [x["entry"] for x in got["entries"]]


def refused_as_unreachable(member: JoinedMember, timeout: float = 10) -> None:
    """Waits for the one line that refuses a request while the room is unreachable: the
    link's `error` event (`unreachable`), or the session's own refusal on stderr."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any("unreachable" in line for line in member.stderr):
            return
        try:
            _, event = member.events.get(timeout=0.1)
        except queue.Empty:
            continue
        member.seen.append(event)
        if event.get("event") == "error" and "unreachable" in event["code"] + event["message"]:
            return
    raise AssertionError(f"no refusal within {timeout} s; stderr {''.join(member.stderr)[-500:]}")


def restart(server: RoomServer, members: list[JoinedMember], down: float = 1.5) -> None:
    """SIGKILL, `down` seconds with no server, then the same server again; members rejoin."""
    server.kill()
    for member in members:
        member.wait("room_lost")
    time.sleep(down)
    server.start()
    for member in members:
        member.wait("joined", timeout=20)


def test_a_killed_server_comes_back_with_the_queue_the_track_and_the_place(room):
    server, join, _ = room
    mina = join("Mina")
    entries = queue_two_and_play(mina)
    time.sleep(2.0)
    before_at, before = mina.position_now()
    restart(server, [mina])
    # The rejoined member is told the same queue, then the same track where it now is.
    got = mina.wait("queue", lambda e: e["entries"])
    assert [x["entry"] for x in got["entries"]] == entries, got
    assert got["current"] == entries[0], got
    at, state = mina.wait_timed("state")
    assert state["path"] == TIDE.path and state["playing"] is True, state
    expected = before + (at - before_at)
    assert abs(state["position"] - expected) < 1.0, (state["position"], expected)
    assert f"room {ROOM} restored" in server.stderr(), server.stderr()[-1000:]
    # It plays on with the room: no new start of another track.
    _, heard = mina.position_now()
    assert abs(heard - (before + (time.monotonic() - before_at))) < 1.0, heard
    # Entry numbers go on from where they were.
    mina.send(f"queue add {TIDE.path}")
    more = mina.wait("queue", lambda e: len(e["entries"]) == 3)
    assert more["entries"][2]["entry"] > max(entries), more


def test_a_paused_room_comes_back_paused_where_it_was(room):
    server, join, connect = room
    mina = join("Mina")
    queue_two_and_play(mina)
    time.sleep(1.5)
    mina.send("pause")
    paused = mina.wait("state", lambda e: e["playing"] is False)
    restart(server, [mina], down=2.5)
    mina.wait("history")
    # The room says it is paused where it was (a member that was paused there sees no change).
    state = connect("Jun").joined["state"]
    assert state["playing"] is False and state["path"] == TIDE.path, (state, paused)
    assert abs(state["position"] - paused["position"]) < 0.05, (state, paused)
    time.sleep(1.0)
    while not mina.events.empty():
        mina.seen.append(mina.events.get_nowait()[1])
    after_pause = mina.seen[mina.seen.index(paused) + 1:]
    assert not [e for e in after_pause if e.get("event") == "state" and e.get("playing")], after_pause


def test_a_next_sent_while_the_server_is_down_is_not_replayed(room):
    server, join, _ = room
    mina = join("Mina")
    queue_two_and_play(mina)
    server.kill()
    mina.wait("room_lost")
    mina.send("next")
    refused_as_unreachable(mina)
    time.sleep(1.0)
    server.start()
    mina.wait("joined", timeout=20)
    rejoined = len(mina.seen)
    state = mina.wait("state")
    assert state["path"] == TIDE.path and state["playing"] is True, state
    # Nothing that was asked during the outage arrives now.
    time.sleep(2.0)
    while True:
        try:
            _, event = mina.events.get_nowait()
        except queue.Empty:
            break
        mina.seen.append(event)
    after = mina.seen[rejoined:]
    assert not [e for e in mina.seen if e.get("event") == "start" and e.get("file") == WAVE.title]
    notices = [e["text"] for e in after if e.get("event") == "notice"]
    assert not [n for n in notices if "skipped" in n], notices
    states = [e for e in after if e.get("event") == "state"]
    assert states and all(s["path"] == TIDE.path for s in states), states


def test_moving_an_entry_reorders_the_queue_for_the_others(room):
    server, join, connect = room
    mina = join("Mina")
    entries = queue_two_and_play(mina)
    mina.send(f"queue add {TIDE.path}")
    third = mina.wait("queue", lambda e: len(e["entries"]) == 3)["entries"][2]["entry"]
    jun = connect("Jun")
    assert jun.joined["welcome"]["protocol"] == 2, jun.joined["welcome"]
    jun.send({"type": "queue_move", "entry": third, "to": 0})
    moved = mina.wait("queue", lambda e: e["entries"][0]["entry"] == third)
    assert [x["entry"] for x in moved["entries"]] == [third] + entries, moved
    mina.wait("notice", lambda e: e["text"] == f"Jun moved {TIDE.title} to place 1")
    # What plays does not change.
    assert moved["current"] == entries[0], moved
    jun.send({"type": "queue_move", "entry": 987654, "to": 0})
    assert jun.error("not_found")["code"] == "not_found"
    # A member of protocol 1 is still welcome, in protocol 1; the move survives a restart.
    old = connect("Old", protocol=1)
    assert old.joined["welcome"]["protocol"] == 1, old.joined["welcome"]
    old.close()
    jun.close()
    restart(server, [mina])
    again = mina.wait("queue", lambda e: e["entries"])
    assert [x["entry"] for x in again["entries"]] == [third] + entries, again


def test_chat_after_a_restart_is_stored_with_the_playing_track(room):
    server, join, connect = room
    mina = join("Mina")
    queue_two_and_play(mina)
    restart(server, [mina])
    mina.wait("state", lambda e: e["path"] == TIDE.path)
    mina.send("chat still here")
    said = mina.wait("chat", lambda e: e["text"] == "still here")
    assert said["track"] == TIDE.path, said
    late = connect("Late")
    history = late.joined["history"]
    assert history["track"] == TIDE.path, history
    assert [m["text"] for m in history["messages"]] == ["still here"], history
    assert history["messages"][0]["track"] == TIDE.path


def test_a_member_joins_an_older_server_in_its_protocol(refrain_bin, tmp_path):
    """A protocol-1 server (a stand-in written here) refuses a protocol-2 hello; the member's
    link says hello again in protocol 1 at once and joins."""
    import json
    import threading

    from websockets.sync.server import serve

    hellos: list[int] = []

    def handler(ws) -> None:
        for frame in ws:
            message = json.loads(frame)
            if message["type"] == "hello":
                hellos.append(message["protocol"])
                if message["protocol"] != 1:
                    ws.send(json.dumps({"type": "error", "code": "protocol",
                                        "message": "this server speaks protocol 1, not 2"}))
                    ws.close(1002, "protocol 1 only")
                    return
                ws.send(json.dumps({"type": "welcome", "protocol": 1, "room": ROOM, "member": "m1",
                                    "host_only": False, "host": "m1", "heartbeat_s": 5, "clock": 1.0}))
                ws.send(json.dumps({"type": "members", "members": [{"id": "m1", "name": "Mina", "host": True}]}))
                ws.send(json.dumps({"type": "queue", "entries": [], "current": None}))
                ws.send(json.dumps({"type": "state", "entry": None, "path": None, "duration": None,
                                    "playing": False, "position": 0, "at": 1.0}))
                ws.send(json.dumps({"type": "history", "track": None, "messages": []}))
            elif message["type"] == "time":
                ws.send(json.dumps({"type": "time", "id": message["id"], "t0": message["t0"], "server": 2.0}))

    with serve(handler, "127.0.0.1", 0) as old:
        port = old.socket.getsockname()[1]
        threading.Thread(target=old.serve_forever, daemon=True).start()
        mina = JoinedMember(refrain_bin, tmp_path / "mina", f"ws://127.0.0.1:{port}/rooms/{ROOM}", "t", "Mina")
        try:
            mina.wait("joined", timeout=20)
            assert hellos[:2] == [2, 1], hellos
            errors = [e for e in mina.seen if e.get("event") == "error"]
            assert not errors, errors
        finally:
            mina.close()
            old.shutdown()
