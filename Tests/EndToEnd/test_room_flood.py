"""A room server that slow strangers cannot take down.

The server runs under `ulimit -n 1024` (soft and hard, so raising the limit gains
nothing) and is flooded with 1,100 connections from 127.0.0.2 that send half a request
line and then nothing, without a token: the slowloris attack. Its members, on
127.0.0.1, keep their music and their chat.
"""

from __future__ import annotations

import resource
import selectors
import socket
import time
import urllib.parse

from room_harness import Member, RoomServer, Track, make_library

FLOOD = 1_100
SONG = Track("Harbor/Night Ferry.mp3", "Night Ferry", "Harbor Lights", "Harbor", 4, 440)


def _room_for_our_sockets() -> None:
    """The test holds the 1,100 sockets itself: its own soft limit must allow them."""
    need = FLOOD + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        wanted = need if hard == resource.RLIM_INFINITY else min(hard, need)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert soft >= need, f"this machine lets a process open only {soft} files; the flood needs {need}"


def _silent_stranger(port: int) -> socket.socket:
    """A tokenless connection from 127.0.0.2 that sends half a request line, then nothing."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.2", 0))
    sock.settimeout(5)
    try:
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /library/Harbor/Night%20Ferry.mp3 HT")
    except OSError:
        pass  # refused or reset at once: that counts as closed below
    sock.setblocking(False)
    return sock


def _closed_within(sockets: list[socket.socket], deadline: float) -> int:
    """How many of `sockets` the server has closed (EOF or reset) by `deadline`."""
    selector = selectors.DefaultSelector()
    closed = 0
    for sock in sockets:
        try:
            selector.register(sock, selectors.EVENT_READ)
        except (ValueError, OSError):
            closed += 1
    while closed < len(sockets) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            sock = key.fileobj
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                closed += 1
                selector.unregister(sock)
    selector.close()
    return closed


def test_a_flood_of_silent_strangers_leaves_members_their_music_and_chat(refrain_bin, tmp_path):
    _room_for_our_sockets()
    library = make_library(tmp_path / "lib", [SONG])
    server = RoomServer(refrain_bin, tmp_path / "home", [library], nofile=1024)
    server.start()
    strangers: list[socket.socket] = []
    mina = jun = late = None
    try:
        log = server.stderr()
        assert "holding up to 960 connections (descriptor limit 1024" in log, log
        mina = Member(server.room_url("harbor"))
        mina.hello("Mina")
        jun = Member(server.room_url("harbor"))
        jun.hello("Jun")

        flood_started = time.monotonic()
        strangers = [_silent_stranger(server.port) for _ in range(FLOOD)]
        time.sleep(max(0.0, flood_started + 3 - time.monotonic()))

        # 3 s into the flood, a member's player asks for the track: answered within 2 s.
        asked = time.monotonic()
        status, _, body = server.http("/library/" + urllib.parse.quote(SONG.path))
        took = time.monotonic() - asked
        assert status == 200 and len(body) > 1000, (status, len(body))
        assert took < 2, f"the track took {took:.2f} s to arrive during the flood"

        # A chat sent then arrives within 3 s, and is stored: a late joiner's history has it.
        mina.send({"type": "chat", "text": "still here"})
        chat = jun.recv_type("chat", timeout=3, where=lambda c: c.get("text") == "still here")
        assert chat["from"] == "Mina", chat
        late = Member(server.room_url("harbor"))
        history = late.hello("Late")["history"]
        assert any(m.get("text") == "still here" for m in history.get("messages", [])), history

        closed = _closed_within(strangers, flood_started + 40)
        assert closed >= 0.9 * FLOOD, f"only {closed} of {FLOOD} silent connections were closed within 40 s"
        assert server.running(), "the server died under the flood"
        log = server.stderr()
        assert "chat not stored" not in log, log
    finally:
        for sock in strangers:
            sock.close()
        for member in (mina, jun, late):
            if member is not None:
                member.close()
        server.stop()


def test_a_stranger_gets_a_reason_when_silent_and_the_limits_can_be_changed(refrain_bin, tmp_path):
    library = make_library(tmp_path / "lib", [SONG])
    server = RoomServer(refrain_bin, tmp_path / "home", [library],
                        extra_args=["--header-timeout", "1", "--max-pending-per-address", "2"])
    server.start()
    try:
        quiet = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(2)]
        # A third from the same address is refused at once, with a reason.
        third = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        answer = third.recv(4096).decode("utf-8", "replace")
        assert answer.startswith("HTTP/1.1 503"), answer
        assert "2 connections from this address are already waiting" in answer, answer
        # The silent ones are answered 408 after the header timeout, then closed.
        started = time.monotonic()
        for sock in quiet:
            text = b""
            while chunk := sock.recv(4096):
                text += chunk
            assert text.startswith(b"HTTP/1.1 408"), text
            assert b"no request within 1 s" in text, text
        assert time.monotonic() - started < 4
        # With the token, the same address is served as before.
        status, _, _ = server.http("/library/" + urllib.parse.quote(SONG.path))
        assert status == 200
        status, _, body = server.http("/library", token=None)
        assert status == 401 and b"needs its token" in body, (status, body)
    finally:
        server.stop()
