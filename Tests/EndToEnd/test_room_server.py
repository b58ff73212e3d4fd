"""Listening rooms end to end: `refrain room serve` driven by a client no one here wrote.

The clients are Python's `websockets` library and a few lines of socket code, and they follow
docs/room-protocol.md and nothing else, so what passes here is what any third-party member
can rely on. The library is a folder of short tagged MP3s made here with sox and lame, one of
them in a nested folder with a space in its name and one with an accented name, so the paths
members see and fetch need percent-encoding. No audio server is needed: the room plays on its
clock, not on a sound card.

What a member of a room can count on, as proven here:
- the server prints where it listens and a token that stays the same across restarts, kept
  private (0600), and refuses anyone without it, at the upgrade and over HTTP;
- joining gives welcome, members, queue, state and history in that order, and everyone sees
  who is in the room, who is the host, and who left or froze (heartbeats);
- mistakes (bad JSON, unknown messages, binary frames) get an error and the connection stays;
  floods and oversized frames close it with the documented codes;
- chat reaches everyone without a single escape sequence, is rate-limited, and its history
  (the last 50 about a track) is there for late joiners and after a restart;
- the library can be listed and its files fetched with range requests, and nothing outside
  it can be reached;
- the queue and playback state are shared, timed on the room clock, advance by themselves
  when a track ends, skip a file that has disappeared, and obey `--host-only`.
"""

from __future__ import annotations

import json
import shutil
import stat
import time
import urllib.parse
from pathlib import Path

import pytest

from room_harness import Member, RawMember, RoomServer, Track, make_library, upgrade_status

UMBRELLA = Track("Night Walks/01 Umbrella.mp3", "Umbrella", "Mina", "Night Walks", 4, 440)
LANTERNS = Track("Night Walks/02 Lanterns.mp3", "Lanterns", "Mina", "Night Walks", 4, 550)
TIDE = Track("Long/Slow Tide.mp3", "Slow Tide", "Jun", "Long", 30, 330)
CAFE = Track("Café Song.mp3", "Cafe Song", "Ines", "Singles", 6, 660)
TRACKS = [UMBRELLA, LANTERNS, TIDE, CAFE]

ESCAPE_BYTES = {chr(c) for c in range(0x00, 0x20)} | {chr(c) for c in range(0x7F, 0xA0)}


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """The shared library folder; a `secret.mp3` lies beside it (outside it)."""
    root = tmp_path_factory.mktemp("room-library")
    folder = make_library(root / "lib", TRACKS)
    shutil.copy(folder / UMBRELLA.path, root / "secret.mp3")
    return folder


@pytest.fixture(scope="module")
def server(refrain_bin, library, tmp_path_factory):
    """One server for the tests that need no special flags; each test uses its own room."""
    srv = RoomServer(refrain_bin, tmp_path_factory.mktemp("room-home"), [library])
    srv.start()
    yield srv
    try:
        srv.stop()
    finally:
        srv.kill()


@pytest.fixture
def servers():
    """Starts servers for one test (RoomServer objects) and kills whatever is left running."""
    started: list[RoomServer] = []

    def make(*args, **kwargs) -> RoomServer:
        srv = RoomServer(*args, **kwargs)
        started.append(srv)
        return srv
    yield make
    for srv in started:
        srv.kill()


@pytest.fixture
def join():
    """join(server, room, name) → a Member that has said hello (name=None: connected only)."""
    opened: list[Member] = []

    def _join(srv: RoomServer, room: str, name: str | None = None, **kwargs) -> Member:
        member = Member(srv.room_url(room), **kwargs)
        opened.append(member)
        if name is not None:
            member.hello(name)
        return member
    yield _join
    for member in opened:
        member.close()


def entry_for(queue: dict, path: str) -> dict:
    found = [e for e in queue.get("entries", []) if e.get("path") == path]
    assert len(found) == 1, f"expected one entry for {path!r} in {queue!r}"
    return found[0]


def add(members: list[Member], sender: Member, track: Track) -> dict:
    """queue_add from `sender`; every member gets a `queue` holding it. Returns the entry."""
    sender.send({"type": "queue_add", "path": track.path})
    entry = None
    for m in members:
        q = m.recv_type("queue", where=lambda q: any(e.get("path") == track.path for e in q.get("entries", [])))
        entry = entry_for(q, track.path)
    return entry


def fresh(members: list[Member]) -> None:
    """Forgets what the members got so far, before the next control message."""
    for m in members:
        m.discard()


def state_where(members: list[Member], where, timeout: float = 5) -> list[dict]:
    return [m.recv_type("state", timeout, where=where) for m in members]


def names(members_msg: dict) -> list[str]:
    return [m.get("name") for m in members_msg.get("members", [])]


def assert_clean(text: str) -> None:
    bad = sorted({f"U+{ord(c):04X}" for c in text if c in ESCAPE_BYTES})
    assert not bad, f"control characters reached a member: {bad} in {text!r}"


# ---------------------------------------------------------------- starting

def test_start_prints_listening_line_and_keeps_a_private_token(refrain_bin, library, tmp_path, servers):
    home = tmp_path / "home"
    first = servers(refrain_bin, home, [library])
    line = first.start()
    assert line.get("event") == "listening", line
    assert first.port > 0, line
    assert isinstance(line.get("token"), str) and line["token"].strip() == line["token"] != "", line
    assert first.token_file.is_file(), f"no token file at {first.token_file}"
    assert stat.S_IMODE(first.token_file.stat().st_mode) == 0o600, oct(first.token_file.stat().st_mode)
    assert first.token in first.token_file.read_text()
    # A member is in a room when the server is told to stop: it still exits cleanly.
    member = Member(first.room_url("start"))
    member.hello("Mina")
    assert first.stop() == 0, first.stderr()[-2000:]
    member.wait_closed(5)

    again = servers(refrain_bin, home, [library])
    again.start()
    assert again.token == first.token, "a restart with the same data folder changed the token"
    assert stat.S_IMODE(again.token_file.stat().st_mode) == 0o600
    assert again.stop() == 0

    other = servers(refrain_bin, tmp_path / "other-home", [library])
    other.start()
    assert other.token and other.token != first.token, "two data folders got the same token"
    assert other.stop() == 0


# ---------------------------------------------------------------- connecting

def test_the_token_is_required_and_room_names_are_checked(server, join):
    url = server.room_url("auth", token=None)
    status, body = upgrade_status(url)
    assert status == 401, status
    reason = body.decode("utf-8", "replace").strip()
    assert reason and "\n" not in reason, f"the 401 body should be a one-line reason: {body!r}"
    assert upgrade_status(server.room_url("auth", token="not-the-token"))[0] == 401
    assert upgrade_status(url, {"Authorization": "Bearer not-the-token"})[0] == 401
    assert upgrade_status(url, {"Authorization": f"Bearer {server.token}x"})[0] == 401

    by_query = join(server, "auth", "Mina")
    assert by_query.joined["welcome"]["room"] == "auth"
    by_header = Member(url, headers={"Authorization": f"Bearer {server.token}"})
    try:
        got = by_header.hello("Jun")
        assert got["welcome"]["room"] == "auth"
    finally:
        by_header.close()

    longest = "a" * 64
    ok = join(server, longest, "Mina")
    assert ok.joined["welcome"]["room"] == longest
    assert upgrade_status(server.room_url("Az09._-"))[0] == 101
    for bad in ["a" * 65, "..%2F..", "..%2F..%2Fetc", "a%2Fb", "caf%C3%A9", "a%20b", "a%00b", ""]:
        assert upgrade_status(server.room_url(bad))[0] == 404, f"room name {bad!r} was not refused with 404"


# ---------------------------------------------------------------- joining

def test_joining_sends_welcome_members_queue_state_history(server, join):
    mina = join(server, "join", "Mina")
    got = mina.joined
    welcome = got["welcome"]
    assert welcome["protocol"] == 1 and welcome["room"] == "join", welcome
    assert isinstance(welcome["member"], str) and welcome["member"], welcome
    assert welcome["heartbeat_s"] == 5 and welcome["host_only"] is False, welcome
    assert welcome["host"] == welcome["member"], "the first member is the host"
    assert isinstance(welcome["clock"], (int, float)), welcome
    assert [{k: m.get(k) for k in ("id", "name", "host")} for m in got["members"]["members"]] == \
        [{"id": welcome["member"], "name": "Mina", "host": True}], got["members"]
    assert got["queue"]["entries"] == [] and got["queue"].get("current") is None, got["queue"]
    state = got["state"]
    assert state["entry"] is None and state["path"] is None and state["playing"] is False, state
    assert got["history"]["messages"] == [], got["history"]

    jun = join(server, "join", "\x1b[1mJun\x07")   # the name is cleaned as chat is
    w2 = jun.joined["welcome"]
    assert w2["member"] != welcome["member"] and w2["host"] == welcome["member"], w2
    seen = mina.recv_type("members", where=lambda m: len(m.get("members", [])) == 2)
    listed = {m["id"]: (m["name"], m["host"]) for m in seen["members"]}
    assert listed == {welcome["member"]: ("Mina", True), w2["member"]: ("Jun", False)}, seen
    assert {m["id"]: (m["name"], m["host"]) for m in jun.joined["members"]["members"]} == listed


def test_room_clock_answers_time_requests(server, join):
    mina = join(server, "clock", "Mina")
    offset = mina.clock_offset()
    t0, room, t3 = mina.time_request(77)
    # The room clock counts milliseconds since the server started.
    assert 0 <= room <= (time.monotonic() - server.started_at) * 1000 + 50, (room, server.started_at)
    assert abs(room - (t0 + t3) / 2 - offset) < 200, "the room clock does not advance with real time"
    assert mina.joined["welcome"]["clock"] <= room


# ---------------------------------------------------------------- protocol errors

def test_hello_must_come_first_and_once(server, join):
    m = join(server, "order")
    m.send({"type": "library"})
    err = m.recv_type("error")
    assert err["code"] == "protocol" and isinstance(err.get("message"), str), err
    assert not m.buffered("library"), "a library answer before hello"
    m.hello("Mina")                                   # the connection stayed open
    m.send({"type": "hello", "protocol": 1, "name": "Mina"})
    assert m.error("protocol")["code"] == "protocol"
    m.time_request(1)                                 # and it still works


def test_hello_with_another_protocol_is_refused(server, join):
    m = join(server, "version")
    m.send({"type": "hello", "protocol": 99, "name": "Mina"})
    assert m.error("protocol")["code"] == "protocol"
    assert m.wait_closed(5) == 1002
    assert not m.buffered("welcome")


def test_bad_messages_get_errors_and_the_connection_stays(server, join):
    m = join(server, "mistakes", "Mina")
    for i, raw in enumerate(["{not json", "[1, 2, 3]", "\"hello\"", json.dumps({"type": "seek", "position": "ten"}),
                             json.dumps({"type": "chat", "text": 42})]):
        m.send_raw(raw)
        err = m.error("malformed")
        assert isinstance(err.get("message"), str), (raw, err)
        m.time_request(100 + i)
    m.send({"type": "dance"})
    m.error("unknown_type")
    m.time_request(2)
    m.send_raw(b"\x00\x01binary")
    m.error("binary")
    m.time_request(3)
    m.send({"type": "time", "id": 4, "t0": 1.0, "later": {"field": [1]}})   # unknown fields are ignored
    assert m.recv_type("time", where=lambda t: t.get("id") == 4)["t0"] == 1.0
    assert m.is_open()


def test_hello_late_closes_with_1008(server, join):
    m = join(server, "late")
    code = m.wait_closed(14)
    waited = m.closed_at - m.opened_at
    assert code == 1008, code
    assert 8.5 <= waited <= 13, f"closed after {waited:.1f} s, not about 10 s"


# ---------------------------------------------------------------- limits

def test_a_frame_over_64_kib_closes_with_1009(server, join):
    m = join(server, "big", "Mina")
    m.send({"type": "chat", "text": "x" * (70 * 1024)})
    assert m.wait_closed(5) == 1009


def test_a_flood_closes_with_1008(server, join):
    m = join(server, "flood", "Mina")
    for _ in range(60):                              # with hello, 61 frames: under the limit
        m.send({"type": "alive"})
    m.time_request(1)
    assert m.is_open()
    try:
        for _ in range(150):
            m.send({"type": "alive"})
    except Exception:
        pass  # the server may close while we are still sending
    assert m.wait_closed(5) == 1008


def test_chat_limits(server, join):
    watcher = join(server, "limits", "Watcher")
    long_ = join(server, "limits", "Long")
    long_.send({"type": "chat", "text": "a" * 501})
    assert long_.error("too_long")["code"] == "too_long"
    long_.send({"type": "chat", "text": "b" * 500})
    assert watcher.recv_type("chat")["text"] == "b" * 500
    assert not [c for c in watcher.buffered("chat") if c.get("text") == "a" * 501]

    quiet = join(server, "limits", "Quiet")
    quiet.send({"type": "chat", "text": "\x1b[31m\x1b[0m\x07\x1b]0;x\x07"})
    quiet.error("empty")

    fast = join(server, "limits", "Fast")
    for i in range(6):
        fast.send({"type": "chat", "text": f"fast {i}"})
    err = fast.error("rate_limited")
    retry = err.get("retry_after")
    assert isinstance(retry, (int, float)) and 0 < retry <= 5, err
    texts = [watcher.recv_type("chat", where=lambda c: c.get("from") == "Fast")["text"] for _ in range(5)]
    assert texts == [f"fast {i}" for i in range(5)]
    quiet.send({"type": "chat", "text": "marker"})
    watcher.recv_type("chat", where=lambda c: c.get("text") == "marker")
    assert not [c for c in watcher.log if c[1].get("text") == "fast 5"], "the rate-limited message was sent"


# ---------------------------------------------------------------- chat

def test_chat_reaches_everyone_without_escape_sequences(server, join):
    mina = join(server, "chat", "Mina")
    jun = join(server, "chat", "Jun")
    mina.send({"type": "chat", "text": "this bridge!"})
    for m in (mina, jun):
        chat = m.recv_type("chat")
        assert chat["text"] == "this bridge!" and chat["from"] == "Mina", chat
        assert chat["member"] == mina.member_id and chat["track"] is None, chat
        assert isinstance(chat["id"], int) and not isinstance(chat["id"], bool), chat
        assert abs(chat["sent_at"] - time.time()) < 120, chat

    dirty = ("start \x1b[31mred\x1b[0m mid \x1b]0;pwned\x07 osc \x1b]52;c;aGk=\x07 clip "
             "\x9b2J c1 bell\x07 dcs\x1bPq#0;2;0;0;0\x1b\\ end")
    jun.send({"type": "chat", "text": dirty})
    chat = mina.recv_type("chat", where=lambda c: c.get("from") == "Jun")
    text = chat["text"]
    assert_clean(text)
    words = ["start", "red", "mid", "osc", "clip", "c1", "bell", "dcs", "end"]
    positions = [text.find(w) for w in words]
    assert -1 not in positions and positions == sorted(positions), f"visible text lost: {text!r}"
    for payload in ["[31m", "[0m", "pwned", "]0;", "52;c", "aGk=", "q#0;2"]:
        assert payload not in text, f"the escape sequence's body {payload!r} was kept: {text!r}"
    echoed = jun.recv_type("chat", where=lambda c: c.get("from") == "Jun")
    assert echoed["text"] == text and echoed["id"] == chat["id"]


def _play_tide(members: list[Member], sender: Member) -> dict:
    entry = add(members, sender, TIDE)
    sender.send({"type": "play", "entry": entry["entry"]})
    state_where(members, lambda s: s.get("playing") is True and s.get("entry") == entry["entry"])
    return entry


def test_history_for_a_late_joiner(server, join):
    mina = join(server, "history", "Mina")
    _play_tide([mina], mina)
    sent = []
    for text in ["first", "second", "third"]:
        mina.send({"type": "chat", "text": text})
        chat = mina.recv_type("chat", where=lambda c, t=text: c.get("text") == t)
        assert chat["track"] == TIDE.path, chat
        sent.append(chat)
    jun = join(server, "history", "Jun")
    history = jun.joined["history"]
    assert history["track"] == TIDE.path, history
    got = history["messages"]
    assert [c["text"] for c in got] == ["first", "second", "third"], got
    assert [c["id"] for c in got] == [c["id"] for c in sent]
    assert all(c["from"] == "Mina" and c["track"] == TIDE.path for c in got), got


def test_history_keeps_the_last_50(server, join):
    watcher = join(server, "fifty", "Watcher")
    _play_tide([watcher], watcher)
    seen = []
    for k in range(12):                  # 60 messages, 5 per member: within the chat limit
        talker = join(server, "fifty", f"Talker{k}")
        for i in range(5):
            text = f"t{k}-{i}"
            talker.send({"type": "chat", "text": text})
            seen.append(watcher.recv_type("chat", where=lambda c, t=text: c.get("text") == t))
        talker.close()
    late = join(server, "fifty", "Late")
    history = late.joined["history"]
    assert history["track"] == TIDE.path
    got = history["messages"]
    assert len(got) == 50, len(got)
    assert [c["id"] for c in got] == [c["id"] for c in seen[-50:]], "not the last 50, oldest first"
    assert [c["text"] for c in got] == [c["text"] for c in seen[-50:]]


def test_history_survives_a_restart(refrain_bin, library, tmp_path, servers, join):
    home = tmp_path / "home"
    first = servers(refrain_bin, home, [library])
    first.start()
    mina = join(first, "keep", "Mina")
    _play_tide([mina], mina)
    sent = []
    for text in ["before", "the", "restart"]:
        mina.send({"type": "chat", "text": text})
        sent.append(mina.recv_type("chat", where=lambda c, t=text: c.get("text") == t))
    assert first.stop() == 0

    second = servers(refrain_bin, home, [library])
    second.start()
    jun = join(second, "keep", "Jun")
    # The room comes back on the same track (test_room_restart.py), with its history.
    history = jun.joined["history"]
    assert history.get("track") == TIDE.path, history
    got = history["messages"]
    assert [c["text"] for c in got] == ["before", "the", "restart"], got
    assert [c["id"] for c in got] == [c["id"] for c in sent]
    assert all(c["from"] == "Mina" for c in got)


# ---------------------------------------------------------------- the library

def _check_listing(tracks: list) -> None:
    by_path = {t["path"]: t for t in tracks}
    assert sorted(by_path) == sorted(t.path for t in TRACKS), sorted(by_path)
    assert len(tracks) == len(TRACKS), "a path is listed twice"
    for track in TRACKS:
        got = by_path[track.path]
        assert (got["title"], got["artist"], got["album"]) == (track.title, track.artist, track.album), got
        assert abs(got["duration"] - track.seconds) <= 0.5, (track.path, got["duration"])


def test_library_lists_the_tracks(server, join, library):
    m = join(server, "lib", "Mina")
    m.send({"type": "library"})
    message = m.recv_type("library")
    _check_listing(message["tracks"])

    status, headers, body = server.http("/library")
    assert status == 200, (status, body[:200])
    doc = json.loads(body)
    tracks = doc["tracks"] if isinstance(doc, dict) else doc
    _check_listing(tracks)
    key = lambda t: t["path"]  # noqa: E731
    for a, b in zip(sorted(tracks, key=key), sorted(message["tracks"], key=key)):
        assert {k: a[k] for k in ("path", "title", "artist", "album")} == \
               {k: b[k] for k in ("path", "title", "artist", "album")}
        assert abs(a["duration"] - b["duration"]) < 0.01

    assert server.http("/library", token=None)[0] == 401
    assert server.http("/library", token="wrong")[0] == 401
    status, _, body = server.http("/library", token=None, headers={"Authorization": f"Bearer {server.token}"})
    assert status == 200 and json.loads(body)


def test_library_files_are_served_with_ranges(server, library):
    for track in (UMBRELLA, CAFE):
        data = (library / track.path).read_bytes()
        size = len(data)
        url = "/library/" + urllib.parse.quote(track.path)
        assert "%20" in url or "%C3%A9" in url

        status, headers, body = server.http(url, headers={"Range": "bytes=100-199"})
        assert status == 206, (track.path, status, body[:200])
        assert headers.get("content-range") == f"bytes 100-199/{size}", headers
        assert body == data[100:200]

        half = size // 2
        status, headers, body = server.http(url, headers={"Range": f"bytes={half}-"})
        assert status == 206 and headers.get("content-range") == f"bytes {half}-{size - 1}/{size}", headers
        assert body == data[half:]

        status, _, body = server.http(url)
        assert status == 200 and body == data, (status, len(body), size)

        for past in (f"bytes={size}-", f"bytes={size + 100}-{size + 200}"):
            assert server.http(url, headers={"Range": past})[0] == 416, past

        assert server.http(url, token=None)[0] == 401
        assert server.http(url, token="wrong")[0] == 401
        status, _, body = server.http(url, token=None, headers={"Authorization": f"Bearer {server.token}"})
        assert status == 200 and body == data


def test_nothing_outside_the_library_is_served(server, library):
    assert (library.parent / "secret.mp3").is_file()
    for path in ["/library/..%2Fsecret.mp3", "/library/../secret.mp3", "/library/%2E%2E/secret.mp3",
                 "/library/%2E%2E%2Fsecret.mp3", "/library/Night%20Walks/..%2F..%2Fsecret.mp3",
                 "/library/Night%20Walks/../../secret.mp3", "/library/" + urllib.parse.quote(
                     str(library.parent / "secret.mp3"), safe=""),
                 "/library/" + urllib.parse.quote(str(library.parent / "secret.mp3")).lstrip("/"),
                 "/library//etc/passwd", "/library/%2Fetc%2Fpasswd", "/library/Nope/none.mp3",
                 "/library/Night%20Walks"]:
        status, _, body = server.http(path)
        assert status == 404, f"{path}: {status}"
        assert b"ID3" not in body[:10]


def test_the_first_library_folder_wins(refrain_bin, library, tmp_path, servers, join):
    impostor = Track(UMBRELLA.path, "Impostor", "Nobody", "Elsewhere", 5, 880)
    only = Track("Extra/Only Here.mp3", "Only Here", "Ines", "Extra", 5, 990)
    second = make_library(tmp_path / "lib2", [impostor, only])
    srv = servers(refrain_bin, tmp_path / "home", [library, second])
    srv.start()
    m = join(srv, "two", "Mina")
    m.send({"type": "library"})
    tracks = m.recv_type("library")["tracks"]
    paths = [t["path"] for t in tracks]
    assert sorted(paths) == sorted([t.path for t in TRACKS] + [only.path]), paths
    umbrella = next(t for t in tracks if t["path"] == UMBRELLA.path)
    assert umbrella["title"] == "Umbrella", umbrella
    status, _, body = srv.http("/library/" + urllib.parse.quote(UMBRELLA.path))
    assert status == 200 and body == (library / UMBRELLA.path).read_bytes()
    status, _, body = srv.http("/library/" + urllib.parse.quote(only.path))
    assert status == 200 and body == (second / only.path).read_bytes()
    entry = add([m], m, only)
    assert entry["title"] == "Only Here"


# ---------------------------------------------------------------- queue and playback

def test_queue_and_playback_are_shared_on_the_room_clock(server, join):
    mina = join(server, "play", "Mina")
    jun = join(server, "play", "Jun")
    both = [mina, jun]
    mina.clock_offset()

    mina.send({"type": "queue_add", "path": "Nope/none.mp3"})
    mina.error("not_found")
    tide = add(both, mina, TIDE)
    assert isinstance(tide["entry"], int), tide
    assert (tide["title"], tide["artist"], tide["album"], tide["added_by"]) == \
        (TIDE.title, TIDE.artist, TIDE.album, "Mina"), tide
    assert abs(tide["duration"] - TIDE.seconds) <= 0.5, tide
    umbrella = add(both, jun, UMBRELLA)
    assert umbrella["added_by"] == "Jun" and umbrella["entry"] != tide["entry"]
    mina.send({"type": "queue_remove", "entry": 987654})
    mina.error("not_found")
    mina.send({"type": "play", "entry": 987654})
    mina.error("not_found")

    # play: the first entry starts from 0, now on the room clock
    fresh(both)
    mina.send({"type": "play"})
    started = state_where(both, lambda s: s.get("playing") is True)
    for s in started:
        assert s["entry"] == tide["entry"] and s["path"] == TIDE.path, s
        assert abs(s["duration"] - TIDE.seconds) <= 0.5 and 0 <= s["position"] < 0.5, s
    play = started[0]
    room_now = mina.room_time(mina.last_recv_at)
    assert abs(play["at"] - room_now) < 1000, f"state.at {play['at']} vs room clock {room_now:.1f}"
    played_at = mina.last_recv_at

    # pause: it stops where the room clock says
    time.sleep(1.2)
    fresh(both)
    mina.send({"type": "pause"})
    paused = state_where(both, lambda s: s.get("playing") is False)
    pause = paused[0]
    assert pause["entry"] == tide["entry"], pause
    assert abs(pause["position"] - (play["position"] + (pause["at"] - play["at"]) / 1000)) < 0.25, (play, pause)
    assert abs((pause["at"] - play["at"]) / 1000 - (mina.last_recv_at - played_at)) < 0.5, (play, pause)
    assert 1.0 <= pause["position"] <= 2.5, pause
    assert abs(pause["at"] - mina.room_time(mina.last_recv_at)) < 1000

    # play again: it resumes where it paused
    time.sleep(0.5)
    fresh(both)
    mina.send({"type": "play"})
    resumed = state_where(both, lambda s: s.get("playing") is True)
    assert resumed[0]["entry"] == tide["entry"] and abs(resumed[0]["position"] - pause["position"]) < 0.25, resumed

    # seek
    fresh(both)
    jun.send({"type": "seek", "position": 10})
    seeked = state_where(both, lambda s: abs(s.get("position", -1) - 10) < 1)
    for s in seeked:
        assert s["entry"] == tide["entry"] and s["playing"] is True and abs(s["position"] - 10) < 0.1, s

    # play an entry: from 0
    fresh(both)
    mina.send({"type": "play", "entry": umbrella["entry"]})
    s = state_where(both, lambda s: s.get("entry") == umbrella["entry"])[0]
    assert s["playing"] is True and s["position"] < 0.5 and s["path"] == UMBRELLA.path, s
    fresh(both)
    mina.send({"type": "play", "entry": tide["entry"]})
    s = state_where(both, lambda s: s.get("entry") == tide["entry"])[0]
    assert s["playing"] is True and s["position"] < 0.5, s

    # next, with a notice naming who did it
    fresh(both)
    jun.send({"type": "next"})
    for m in both:
        s = m.recv_type("state", where=lambda s: s.get("entry") == umbrella["entry"])
        assert s["playing"] is True and s["position"] < 0.5, s
        notice = m.recv_type("notice", where=lambda n: "Jun" in str(n.get("text")))
        assert_clean(notice["text"])
    # next after the last: stopped
    fresh(both)
    jun.send({"type": "next"})
    for s in state_where(both, lambda s: s.get("entry") is None):
        assert s["path"] is None and s["playing"] is False, s


def test_a_track_that_ends_moves_to_the_next(server, join):
    mina = join(server, "advance", "Mina")
    jun = join(server, "advance", "Jun")
    both = [mina, jun]
    first = add(both, mina, UMBRELLA)
    second = add(both, mina, LANTERNS)
    mina.send({"type": "play"})
    play = state_where(both, lambda s: s.get("playing") is True and s.get("entry") == first["entry"])[0]
    started = mina.last_recv_at
    length = play["duration"]

    for m in both:
        s = m.recv_type("state", timeout=length + 3,
                        where=lambda s: s.get("entry") == second["entry"] and s.get("playing") is True)
        assert s["position"] < 0.5, s
        assert abs(s["at"] - (play["at"] + (length - play["position"]) * 1000)) < 1000, (play, s)
        q = m.recv_type("queue", where=lambda q: q.get("current") == second["entry"])
        assert [e["entry"] for e in q["entries"]][-1] == second["entry"]
        history = m.recv_type("history", where=lambda h: h.get("track") == LANTERNS.path)
        assert history["messages"] == []
    switched = next(t for t, msg in mina.log
                    if msg.get("type") == "state" and msg.get("entry") == second["entry"])
    assert length - 0.5 <= switched - started <= length + 1.5, \
        f"the next track started {switched - started:.2f} s after a {length} s track began"

    # after the last one, it stops
    for m in both:
        s = m.recv_type("state", timeout=LANTERNS.seconds + 3, where=lambda s: s.get("entry") is None)
        assert s["playing"] is False and s["path"] is None, s
    stopped = next(t for t, msg in mina.log
                   if t > switched and msg.get("type") == "state" and msg.get("entry") is None)
    assert stopped - switched >= LANTERNS.seconds - 0.5, f"stopped {stopped - switched:.2f} s after the last began"


def test_removing_the_current_entry_moves_on(server, join):
    mina = join(server, "remove", "Mina")
    jun = join(server, "remove", "Jun")
    both = [mina, jun]
    tide = add(both, mina, TIDE)
    cafe = add(both, mina, CAFE)
    mina.send({"type": "play"})
    state_where(both, lambda s: s.get("playing") is True and s.get("entry") == tide["entry"])
    jun.send({"type": "queue_remove", "entry": tide["entry"]})
    for m in both:
        q = m.recv_type("queue", where=lambda q: all(e.get("entry") != tide["entry"] for e in q.get("entries", [])))
        assert [e["entry"] for e in q["entries"]] == [cafe["entry"]] and q["current"] == cafe["entry"], q
        s = m.recv_type("state", where=lambda s: s.get("entry") == cafe["entry"])
        assert s["playing"] is True and s["position"] < 0.5 and s["path"] == CAFE.path, s


def test_host_only_rooms(refrain_bin, library, tmp_path, servers, join):
    srv = servers(refrain_bin, tmp_path / "home", [library], host_only=True)
    srv.start()
    host = join(srv, "hosted", "Mina")
    guest = join(srv, "hosted", "Jun")
    assert host.joined["welcome"]["host_only"] is True and guest.joined["welcome"]["host_only"] is True
    assert guest.joined["welcome"]["host"] == host.member_id

    guest.send({"type": "queue_add", "path": TIDE.path})
    guest.error("not_allowed")
    entry = add([host, guest], host, TIDE)
    for control in ({"type": "play"}, {"type": "play", "entry": entry["entry"]}, {"type": "next"},
                    {"type": "queue_remove", "entry": entry["entry"]}):
        guest.send(control)
        guest.error("not_allowed")
    host.expect_none("state", 0.3, where=lambda s: s.get("playing") is True)
    host.send({"type": "play"})
    state_where([host, guest], lambda s: s.get("playing") is True and s.get("entry") == entry["entry"])
    for control in ({"type": "pause"}, {"type": "seek", "position": 5}):
        guest.send(control)
        guest.error("not_allowed")
    guest.send({"type": "chat", "text": "can I still talk?"})
    chat = host.recv_type("chat")
    assert chat["from"] == "Jun" and chat["text"] == "can I still talk?"


# ---------------------------------------------------------------- presence

def test_members_that_freeze_or_leave_disappear(refrain_bin, library, tmp_path, servers, join):
    srv = servers(refrain_bin, tmp_path / "home", [library], heartbeat=0.5)
    srv.start()
    mina = join(srv, "presence", "Mina")
    assert mina.joined["welcome"]["heartbeat_s"] == 0.5
    beats = [mina.recv_type("heartbeat", timeout=2) for _ in range(2)]
    gap = beats[1]["clock"] - beats[0]["clock"]
    assert 250 <= gap <= 1000, f"heartbeats {gap} ms apart with --heartbeat 0.5"

    frozen = RawMember(srv.room_url("presence"))
    try:
        frozen.send({"type": "hello", "protocol": 1, "name": "Frozen"})
        mina.recv_type("members", where=lambda m: "Frozen" in names(m))
        joined_at = mina.last_recv_at
        gone = mina.recv_type("members", timeout=2.5, where=lambda m: "Frozen" not in names(m))
        assert names(gone) == ["Mina"] and gone["members"][0]["host"] is True, gone
        assert mina.last_recv_at - joined_at >= 0.4, "dropped before it missed a heartbeat"
    finally:
        frozen.close()

    # Mina answers every heartbeat: she stays, well past two heartbeats.
    time.sleep(1.6)
    assert mina.is_open()
    mina.time_request(5)
    assert all("Mina" in names(msg) for msg in mina.buffered("members"))

    # Leaving normally: gone at once; and when the host leaves, the next member is host.
    jun = join(srv, "presence", "Jun")
    mina.recv_type("members", where=lambda m: "Jun" in names(m))
    ines = join(srv, "presence", "Ines")
    jun.recv_type("members", where=lambda m: "Ines" in names(m))
    ines.close()
    left = jun.recv_type("members", timeout=2, where=lambda m: "Ines" not in names(m))
    assert {m["name"]: m["host"] for m in left["members"]} == {"Mina": True, "Jun": False}, left
    mina.close()
    handed = jun.recv_type("members", timeout=2, where=lambda m: "Mina" not in names(m))
    assert [(m["name"], m["host"]) for m in handed["members"]] == [("Jun", True)], handed


# ---------------------------------------------------------------- a file that disappeared

def test_a_deleted_file_is_skipped_with_a_notice(refrain_bin, library, tmp_path, servers, join):
    copy = tmp_path / "lib"
    for track in (UMBRELLA, LANTERNS):
        (copy / track.path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(library / track.path, copy / track.path)
    srv = servers(refrain_bin, tmp_path / "home", [copy])
    srv.start()
    mina = join(srv, "gone", "Mina")
    jun = join(srv, "gone", "Jun")
    both = [mina, jun]
    gone = add(both, mina, UMBRELLA)
    kept = add(both, mina, LANTERNS)
    (copy / UMBRELLA.path).unlink()

    jun.send({"type": "play"})
    for m in both:
        notice = m.recv_type("notice", where=lambda n: "Umbrella" in str(n.get("text")))
        assert_clean(notice["text"])
        s = m.recv_type("state", where=lambda s: s.get("entry") == kept["entry"] and s.get("playing") is True)
        assert s["path"] == LANTERNS.path and s["position"] < 0.5, s
    assert gone["entry"] != kept["entry"]
