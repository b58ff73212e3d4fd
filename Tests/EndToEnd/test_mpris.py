"""MPRIS 2 on a private D-Bus session bus, checked with clients no one here wrote.

Each test starts its own `dbus-daemon --session` on a socket in the test's folder, then runs
Refrain with DBUS_SESSION_BUS_ADDRESS pointing at it: the full-screen player in a private
tmux server (it has the control socket, so `refrain ctl status` can say what changed), or
`refrain play --output null`. `playerctl` (2.4), `busctl` (systemd) and `dbus-monitor` /
`dbus-send` (dbus) talk to it. No PulseAudio is needed: every player plays to the null
output.

The track is the sample song with a new ID3 tag written here: title, artist, album, album
artist and an embedded PNG cover, and the sample's LRC beside it.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import struct
import subprocess
import time
import uuid
import zlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "Resources" / "sample" / "refrain-sample.mp3"
BUS_NAME = "org.mpris.MediaPlayer2.refrain"
OBJECT = "/org/mpris/MediaPlayer2"

TITLE, ARTIST, ALBUM, ALBUM_ARTIST = "Rain on the Server", "Refrain Band", "Test Album", "Various"


def _require(*tools: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"missing {', '.join(missing)}: run scripts/install-deps test", pytrace=False)


# ---------------------------------------------------------------- fixtures: the song

def _png(width: int = 8, height: int = 8, rgb=(40, 90, 200)) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def _id3v23(frames: list[tuple[bytes, bytes]]) -> bytes:
    body = b"".join(kind + struct.pack(">I", len(data)) + b"\x00\x00" + data for kind, data in frames)
    size = len(body)
    syncsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    return b"ID3\x03\x00\x00" + syncsafe + body


def _text(value: str) -> bytes:
    return b"\x01" + value.encode("utf-16")  # UTF-16 with a byte-order mark


def _without_id3(data: bytes) -> bytes:
    if data[:3] != b"ID3":
        return data
    size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
    return data[10 + size + (10 if data[5] & 0x10 else 0):]


@pytest.fixture(scope="module")
def song(tmp_path_factory) -> Path:
    """The sample song with title, artist, album, album artist and a cover; its LRC beside."""
    folder = tmp_path_factory.mktemp("mpris-song")
    tag = _id3v23([
        (b"TIT2", _text(TITLE)), (b"TPE1", _text(ARTIST)), (b"TALB", _text(ALBUM)),
        (b"TPE2", _text(ALBUM_ARTIST)),
        (b"APIC", b"\x00image/png\x00\x03\x00" + _png()),
    ])
    path = folder / "tagged.mp3"
    path.write_bytes(tag + _without_id3(SAMPLE.read_bytes()))
    shutil.copy(SAMPLE.with_suffix(".lrc"), folder / "tagged.lrc")
    return path


# ---------------------------------------------------------------- fixtures: the bus

class Bus:
    """A private session bus: `dbus-daemon --session` on a socket in the test's folder."""

    def __init__(self, folder: Path) -> None:
        _require("dbus-daemon", "dbus-monitor", "dbus-send", "busctl", "playerctl")
        folder.mkdir(parents=True, exist_ok=True)
        self.socket = folder / "bus"
        self.proc = subprocess.Popen(
            ["dbus-daemon", "--session", f"--address=unix:path={self.socket}", "--nofork", "--print-address"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if not line:
            pytest.fail(f"dbus-daemon did not start: {self.proc.stderr.read()}", pytrace=False)
        self.address = line
        self.env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address)

    def run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run(list(argv), env=self.env, capture_output=True, text=True, timeout=10)
        if check:
            assert result.returncode == 0, f"{' '.join(argv)}: {result.stderr.strip()}"
        return result

    def playerctl(self, *words: str, player: str = "refrain", check: bool = True) -> str:
        return self.run("playerctl", "-p", player, *words, check=check).stdout.strip()

    def names(self) -> list[str]:
        out = self.run("dbus-send", f"--bus={self.address}", "--print-reply", "--dest=org.freedesktop.DBus",
                       "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames").stdout
        return re.findall(r'string "([^"]+)"', out)

    def get(self, name: str, interface: str, prop: str) -> str:
        """One property as busctl prints it (`s "Refrain"`, `b true`, `as 3 "file" …`)."""
        return self.run("busctl", f"--address={self.address}", "get-property", name, OBJECT, interface,
                        prop).stdout.strip()

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def bus(tmp_path):
    instance = Bus(tmp_path / "dbus")
    yield instance
    instance.close()


def wait_for(check, what: str, seconds: float = 10):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


# ---------------------------------------------------------------- fixtures: Refrain

def isolated_env(home: Path, base: dict) -> dict:
    run = home / "run"
    run.mkdir(parents=True, mode=0o700, exist_ok=True)
    return dict(
        base, LANG="C.UTF-8", TERM="tmux-256color", XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"), XDG_CONFIG_HOME=str(home / "config"),
        XDG_STATE_HOME=str(home / "state"), XDG_RUNTIME_DIR=str(run),
        REFRAIN_STDERR_LOG=str(home / "err.log"),
        # Nothing leaves the machine.
        REFRAIN_DEEZER_URL="http://127.0.0.1:9", REFRAIN_LRCLIB_URL="http://127.0.0.1:9")


class Player:
    """The full-screen Refrain in a private tmux server, on the test's bus."""

    def __init__(self, binary: Path, home: Path, base_env: dict) -> None:
        self.binary = binary
        self.home = home
        self.tmux = ["tmux", "-L", f"refrain-mpris-{uuid.uuid4().hex[:12]}"]
        self.env = isolated_env(home, base_env)

    def start(self) -> None:
        keys = ("XDG_", "REFRAIN_", "LANG", "TERM", "DBUS_SESSION_BUS_ADDRESS")
        exports = " ".join(f"{k}={v}" for k, v in self.env.items() if k.startswith(keys))
        subprocess.run(self.tmux + ["new-session", "-d", "-x", "100", "-y", "30",
                                    f"exec env {exports} {self.binary} --output null"], check=True)
        wait_for(lambda: self.ctl("status").returncode == 0, "the control socket")

    def ctl(self, *words: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.binary), "ctl", *words], env=self.env, capture_output=True,
                              text=True, timeout=10)

    def status(self) -> dict:
        result = self.ctl("status")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def pid(self) -> int:
        shell = subprocess.run(self.tmux + ["display", "-p", "-t", "0", "#{pane_pid}"], capture_output=True,
                               text=True).stdout.strip()
        return int(shell)  # the pane runs `exec env … refrain`: the pane's process is Refrain

    def screen(self) -> str:
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", "0"], capture_output=True,
                              text=True).stdout

    def log(self) -> str:
        path = self.home / "state" / "refrain" / "refrain.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        self.ctl("quit")
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)
        folder = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (folder / self.tmux[2]).unlink(missing_ok=True)


@pytest.fixture
def player(refrain_bin, tmp_path, bus, song):
    """The full-screen player on the test's bus, playing `song`, then the plain sample."""
    instance = Player(refrain_bin, tmp_path / "home", bus.env)
    instance.start()
    try:
        assert instance.ctl("queue", "add", str(song)).returncode == 0
        assert instance.ctl("queue", "add", str(SAMPLE)).returncode == 0
        assert instance.ctl("play").returncode == 0
        wait_for(lambda: instance.status()["state"] == "playing", "playback")
        wait_for(lambda: BUS_NAME in bus.names(), "Refrain on the bus")
        yield instance
    finally:
        instance.stop()


def play_headless(binary: Path, home: Path, env: dict, *args: str) -> subprocess.Popen:
    return subprocess.Popen([str(binary), "play", "--output", "null", *args], env=isolated_env(home, env),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# ---------------------------------------------------------------- the tests

def test_playerctl_lists_refrain_and_reads_the_metadata(player, bus, song):
    assert "refrain" in bus.run("playerctl", "-l").stdout.split()
    fmt = "{{xesam:title}}|{{xesam:artist}}|{{xesam:album}}|{{mpris:length}}|{{mpris:artUrl}}"

    def with_cover():
        out = bus.playerctl("metadata", "--format", fmt, check=False)
        return out if out.split("|")[-1] else None

    line = wait_for(with_cover, "the cover in the metadata")
    title, artist, album, length, art = line.split("|")
    assert (title, artist, album) == (TITLE, ARTIST, ALBUM)
    assert int(length) == pytest.approx(22_000_000, abs=500_000)
    assert art.startswith("file://"), art
    cover = Path(art[len("file://"):])
    covers = player.home / "cache" / "refrain" / "covers"
    assert cover.resolve().parent == covers.resolve(), art
    assert cover.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", art
    everything = bus.playerctl("metadata")
    assert re.search(rf"xesam:albumArtist\s+{ALBUM_ARTIST}$", everything, re.M), everything
    assert re.search(rf"xesam:url\s+{re.escape(song.as_uri())}$", everything, re.M), everything
    assert re.search(r"mpris:trackid\s+'?/org/refrain/track/\d+'?$", everything, re.M), everything
    # The lyrics, once the sidecar was read.
    wait_for(lambda: "Refrain is playing on your server" in bus.playerctl("metadata", "xesam:asText", check=False),
             "the lyrics in the metadata")

    # The root interface, read with busctl.
    assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2", "Identity") == 's "Refrain"'
    assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2", "DesktopEntry") == 's "refrain"'
    assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2", "CanQuit") == "b true"
    assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2", "CanRaise") == "b false"
    assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2", "HasTrackList") == "b false"
    assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2", "SupportedUriSchemes") == 'as 3 "file" "http" "https"'
    assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2", "SupportedMimeTypes") == \
        'as 6 "audio/mpeg" "audio/flac" "audio/ogg" "audio/opus" "audio/mp4" "audio/wav"'
    player_interface = "org.mpris.MediaPlayer2.Player"
    for rate in ("Rate", "MinimumRate", "MaximumRate"):
        assert bus.get(BUS_NAME, player_interface, rate) == "d 1"
    for flag in ("CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek", "CanControl"):
        assert bus.get(BUS_NAME, player_interface, flag) == "b true", flag


def test_playerctl_commands_change_what_ctl_reports(player, bus, song):
    bus.playerctl("play-pause")
    wait_for(lambda: player.status()["state"] == "paused", "the pause")
    assert bus.playerctl("status") == "Paused"
    # Paused, Position stands still; playing, it moves with the audible clock.
    first = int(bus.run("busctl", f"--address={bus.address}", "get-property", BUS_NAME, OBJECT,
                        "org.mpris.MediaPlayer2.Player", "Position").stdout.split()[1])
    time.sleep(0.4)
    assert float(bus.playerctl("position")) == pytest.approx(first / 1e6, abs=0.002)
    bus.playerctl("play-pause")
    wait_for(lambda: player.status()["state"] == "playing", "the resume")

    bus.playerctl("position", "10")
    wait_for(lambda: 9.9 <= player.status()["position"] <= 10.6, "the seek to 0:10")
    time.sleep(0.5)
    assert float(bus.playerctl("position")) == pytest.approx(player.status()["position"], abs=0.25)

    bus.playerctl("volume", "0.5")
    wait_for(lambda: player.status()["volume"] == 50, "volume 50")
    bus.playerctl("loop", "Playlist")
    wait_for(lambda: player.status()["repeat"] == "all", "repeat all")
    assert bus.playerctl("loop") == "Playlist"
    bus.playerctl("loop", "Track")
    wait_for(lambda: player.status()["repeat"] == "one", "repeat one")
    bus.playerctl("loop", "None")
    wait_for(lambda: player.status()["repeat"] == "off", "repeat off")
    bus.playerctl("shuffle", "On")
    wait_for(lambda: player.status()["shuffle"] is True, "shuffle on")
    assert bus.playerctl("shuffle") == "On"
    bus.playerctl("shuffle", "Off")
    wait_for(lambda: player.status()["shuffle"] is False, "shuffle off")

    bus.playerctl("next")
    wait_for(lambda: player.status().get("track") == "Refrain Sample", "the next track")
    wait_for(lambda: bus.playerctl("metadata", "xesam:title", check=False) == "Refrain Sample",
             "its metadata (the file's ID3 title, though it was queued by path)")

    # OpenUri adds to the queue and plays what it added.
    bus.playerctl("open", song.as_uri())
    wait_for(lambda: player.status().get("track") == TITLE, "the opened file playing, by its tags")


def _monitor(bus: Bus, path: Path) -> subprocess.Popen:
    out = path.open("w")
    proc = subprocess.Popen(
        # Line-buffered: dbus-monitor's stdout is a file here, which stdio would buffer.
        ["stdbuf", "-oL", "dbus-monitor", "--address", bus.address,
         f"type='signal',path='{OBJECT}',interface='org.mpris.MediaPlayer2.Player',member='Seeked'",
         f"type='signal',path='{OBJECT}',interface='org.freedesktop.DBus.Properties'"],
        stdout=out, stderr=subprocess.STDOUT)
    # dbus-monitor prints NameLost once it became a monitor with its match rules in place.
    wait_for(lambda: "NameLost" in path.read_text() or proc.poll() is not None, "dbus-monitor")
    assert proc.poll() is None, path.read_text()
    return proc


def _signals(path: Path) -> list[tuple[float, str, str]]:
    """(wall time, member, the message's text) for each signal dbus-monitor printed."""
    text = path.read_text()
    found = []
    for block in re.split(r"\n(?=signal )", text):
        m = re.match(r"signal time=([\d.]+) .*?member=(\w+)", block)
        if m:
            found.append((float(m.group(1)), m.group(2), block))
    return found


def test_signals_follow_seeks_and_track_changes(player, bus, tmp_path):
    log = tmp_path / "monitor.txt"
    monitor = _monitor(bus, log)
    try:
        wait_for(lambda: bus.playerctl("metadata", "xesam:asText", check=False), "the lyrics")
        # A lyric-line seek from ctl: one Seeked, at the line's time (line 2 starts at 0:10).
        sent = time.time()
        assert player.ctl("lyrics", "line", "2").returncode == 0
        answered = time.time()
        seeked = wait_for(lambda: [s for s in _signals(log) if s[1] == "Seeked"], "Seeked after `ctl lyrics line 2`")
        at, _, text = seeked[0]
        assert sent - 0.05 <= at <= answered + 0.1, f"Seeked {at - answered:+.3f} s after the command returned"
        position = int(re.search(r"int64 (\d+)", text).group(1))
        assert position == pytest.approx(10_000_000, abs=300_000), text

        # A seek from MPRIS itself is announced too.
        bus.playerctl("position", "12")
        wait_for(lambda: len([s for s in _signals(log) if s[1] == "Seeked"]) >= 2, "Seeked after SetPosition")

        # A track change: PropertiesChanged with the new Metadata, within 100 ms.
        before = len(_signals(log))
        sent = time.time()
        assert player.ctl("next").returncode == 0
        answered = time.time()
        changed = wait_for(
            lambda: [s for s in _signals(log)[before:] if s[1] == "PropertiesChanged" and "xesam:title" in s[2]],
            "PropertiesChanged with the next track's metadata")
        assert changed[0][0] <= answered + 0.1, f"{changed[0][0] - answered:+.3f} s after the command returned"
        assert "refrain-sample" in changed[-1][2] or "Refrain Sample" in changed[-1][2], changed[-1][2]
        # Volume and pause from ctl are signalled as well.
        before = len(_signals(log))
        player.ctl("volume", "40")
        player.ctl("pause")
        wait_for(lambda: any("Paused" in s[2] for s in _signals(log)[before:]), "PlaybackStatus Paused")
        assert any("Volume" in s[2] and "double 0.4" in s[2] for s in _signals(log)[before:]), _signals(log)[before:]
        # Position is never signalled.
        assert not any('"Position"' in s[2] for s in _signals(log))
    finally:
        monitor.terminate()
        monitor.wait(5)


def test_a_paused_player_stays_asleep_with_mpris_on(player, bus):
    player.ctl("pause")
    wait_for(lambda: player.status()["state"] == "paused", "the pause")
    pid = player.pid()

    def switches() -> dict[int, int]:
        counts = {}
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                status = (task / "status").read_text()
            except FileNotFoundError:
                continue
            counts[int(task.name)] = int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", status).group(1))
        return counts

    # The status line's start-up message expires by itself a few seconds in: wait it out.
    time.sleep(4.5)
    before = switches()
    time.sleep(3)
    after = switches()
    woke = sum(after[t] - before[t] for t in before.keys() & after.keys())
    print(f"wake-ups of a paused Refrain with MPRIS on, all threads, over 3 s: {woke}")
    assert woke <= 3, f"a paused Refrain with MPRIS woke {woke} times in 3 s"
    # A Get of Position is answered by the D-Bus thread, without waking the player's loop.
    main_before = switches().get(pid, 0)
    for _ in range(5):
        bus.playerctl("position")
    assert switches().get(pid, 0) - main_before <= 1


def test_a_second_refrain_takes_the_instance_name_and_quit_quits(refrain_bin, bus, song, tmp_path):
    first = play_headless(refrain_bin, tmp_path / "one", bus.env, str(song))
    second = None
    try:
        wait_for(lambda: BUS_NAME in bus.names(), "the first Refrain on the bus")
        second = play_headless(refrain_bin, tmp_path / "two", bus.env, str(song))
        instance = f"{BUS_NAME}.instance{second.pid}"
        wait_for(lambda: instance in bus.names(), instance)
        assert f"refrain.instance{second.pid}" in bus.run("playerctl", "-l").stdout.split()
        # `refrain play` is controlled like the full-screen player.
        bus.playerctl("pause", player=f"refrain.instance{second.pid}")
        wait_for(lambda: bus.playerctl("status", player=f"refrain.instance{second.pid}") == "Paused", "the pause")
        # (`playerctl -p refrain` would match both: it counts instances as the same player.)
        assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2.Player", "PlaybackStatus") == 's "Playing"'
        for proc, name in ((second, instance), (first, BUS_NAME)):
            bus.run("dbus-send", f"--bus={bus.address}", "--type=method_call", f"--dest={name}", OBJECT,
                    "org.mpris.MediaPlayer2.Quit")
            assert proc.wait(10) == 0
            assert proc.stderr.read() == ""
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


def test_without_a_bus_the_player_runs_without_complaint(refrain_bin, song, tmp_path):
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path / 'no-such-bus'}")
    home = tmp_path / "home"
    proc = play_headless(refrain_bin, home, env, "--duration", "1.5", "--events", str(song))
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert err == "", err
    events = [json.loads(line)["event"] for line in out.splitlines()]
    assert events[0] == "start" and events[-1] == "end", events
    log = (home / "state" / "refrain" / "refrain.log").read_text()
    lines = [line for line in log.splitlines() if "MPRIS" in line]
    assert len(lines) == 1 and "MPRIS off: no session bus" in lines[0], log


def test_with_no_bus_announced_glib_is_not_started(refrain_bin, song, tmp_path):
    """No DBUS_SESSION_BUS_ADDRESS and no $XDG_RUNTIME_DIR/bus (an SSH login): one log line,
    not even the MPRIS thread is started, and GIO, GObject and GLib are never mapped (they
    come only with the MPRIS plugin)."""
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    home = tmp_path / "home"
    proc = play_headless(refrain_bin, home, env, "--duration", "1.5", str(song))
    try:
        wait_for(lambda: (home / "state" / "refrain" / "refrain.log").exists(), "the log")
        threads = [(Path(f"/proc/{proc.pid}/task") / t / "comm").read_text().strip()
                   for t in os.listdir(f"/proc/{proc.pid}/task")]
        assert "refrain-mpris" not in threads, threads
        maps = Path(f"/proc/{proc.pid}/maps").read_text()
        for library in ("libgio-2.0", "libgobject-2.0", "libglib-2.0", "librefrain-mpris"):
            assert library not in maps, f"{library} is mapped though MPRIS never started"
    finally:
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and err == "", err
    log = (home / "state" / "refrain" / "refrain.log").read_text()
    lines = [line for line in log.splitlines() if "MPRIS" in line]
    assert len(lines) == 1 and "MPRIS off: no session bus" in lines[0], log


def test_a_bus_loads_the_plugin_and_glib_with_it(player):
    maps = Path(f"/proc/{player.pid()}/maps").read_text()
    assert "librefrain-mpris.so" in maps and "libgio-2.0" in maps, "MPRIS runs without its plugin?"


def test_a_refrain_without_its_plugin_plays_and_logs_why(refrain_bin, bus, song, tmp_path):
    """A binary copied somewhere without librefrain-mpris.so: MPRIS is off with one log line
    naming the places looked at, and the track plays to the end."""
    alone = tmp_path / "bin" / "refrain"
    alone.parent.mkdir()
    shutil.copy2(refrain_bin, alone)
    home = tmp_path / "home"
    proc = play_headless(alone, home, bus.env, "--duration", "1.5", "--events", str(song))
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and err == "", err
    events = [json.loads(line)["event"] for line in out.splitlines()]
    assert events[0] == "start" and events[-1] == "end", events
    assert not any(name.startswith(BUS_NAME) for name in bus.names())
    log = (home / "state" / "refrain" / "refrain.log").read_text()
    lines = [line for line in log.splitlines() if "MPRIS" in line]
    assert len(lines) == 1 and "MPRIS off: the MPRIS plugin is missing" in lines[0], log
    assert str(alone.parent / "librefrain-mpris.so") in lines[0], lines[0]


def test_without_a_bus_the_full_screen_player_says_nothing(refrain_bin, song, tmp_path):
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path / 'no-such-bus'}")
    instance = Player(refrain_bin, tmp_path / "home", env)
    instance.start()
    try:
        assert instance.ctl("queue", "add", str(song)).returncode == 0
        assert instance.ctl("play").returncode == 0
        wait_for(lambda: instance.status()["state"] == "playing", "playback")
        wait_for(lambda: "MPRIS" in instance.log(), "the log line")
        screen = instance.screen()
        assert "MPRIS" not in screen and "D-Bus" not in screen and "bus" not in screen.lower(), screen
        lines = [line for line in instance.log().splitlines() if "MPRIS" in line]
        assert len(lines) == 1 and "MPRIS off: no session bus" in lines[0], lines
        err = (tmp_path / "home" / "err.log").read_text()
        assert err == "", err
    finally:
        instance.stop()


def test_desktop_mpris_false_keeps_refrain_off_the_bus(refrain_bin, bus, song, tmp_path):
    home = tmp_path / "home"
    config = home / "config" / "refrain" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[desktop]\nmpris = false\n")
    proc = play_headless(refrain_bin, home, bus.env, "--duration", "2", str(song))
    try:
        time.sleep(1.0)
        assert proc.poll() is None, proc.stderr.read()
        assert not any(name.startswith(BUS_NAME) for name in bus.names())
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    log = home / "state" / "refrain" / "refrain.log"
    assert not log.exists() or "MPRIS" not in log.read_text()


def test_the_bus_going_away_leaves_the_player_playing(refrain_bin, bus, song, tmp_path):
    home = tmp_path / "home"
    proc = play_headless(refrain_bin, home, bus.env, "--duration", "3", "--events", str(song))
    try:
        wait_for(lambda: BUS_NAME in bus.names(), "Refrain on the bus")
        bus.close()
        log = home / "state" / "refrain" / "refrain.log"
        wait_for(lambda: log.exists() and "MPRIS off: the session bus went away" in log.read_text(), "the log line")
        out, err = proc.communicate(timeout=15)
        assert proc.returncode == 0 and err == "", err
        assert [json.loads(line)["event"] for line in out.splitlines()][-1] == "end"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------- notifications

# A notification server on the test's bus, in the system Python (python3-dbus and
# python3-gi: the bindings desktop notification daemons are tested with). It owns
# org.freedesktop.Notifications, answers Notify with 1, 2, 3, … and prints each call as
# one JSON line.
NOTIFICATION_SERVER = r'''
import json, sys
import dbus, dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName("org.freedesktop.Notifications", bus)
class Server(dbus.service.Object):
    count = 0
    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i",
                         out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        Server.count += 1
        print(json.dumps({"app": str(app), "replaces": int(replaces), "icon": str(icon),
                          "summary": str(summary), "body": str(body),
                          "hints": {str(k): str(v) for k, v in hints.items()}, "id": Server.count}),
              flush=True)
        return Server.count
Server(bus, "/org/freedesktop/Notifications")
print("ready", flush=True)
GLib.MainLoop().run()
'''


def _line(proc: subprocess.Popen, what: str, seconds: float = 10) -> str:
    """The next line `proc` prints, within `seconds`."""
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    assert ready, f"no {what} within {seconds} s"
    return proc.stdout.readline()


def start_notification_server(bus) -> subprocess.Popen:
    """The notification server on `bus`, once it says it is ready."""
    _require("/usr/bin/python3")
    server = subprocess.Popen(["/usr/bin/python3", "-c", NOTIFICATION_SERVER, bus.address],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _line(server, "notification server").strip() == "ready"
    except BaseException:
        server.kill()
        raise
    return server


def notifying_home(tmp_path: Path) -> Path:
    """A home whose config.toml turns desktop notifications on."""
    home = tmp_path / "home"
    (home / "config" / "refrain").mkdir(parents=True)
    (home / "config" / "refrain" / "config.toml").write_text("[desktop]\nnotify = true\n")
    return home


def test_each_track_change_shows_one_notification_that_replaces_the_last(refrain_bin, bus, song,
                                                                         tmp_path):
    server = start_notification_server(bus)
    proc = None
    try:
        proc = play_headless(refrain_bin, notifying_home(tmp_path), bus.env, str(song), str(SAMPLE))
        first = json.loads(_line(server, "notification for the first track"))
        assert (first["app"], first["summary"], first["replaces"]) == ("Refrain", TITLE, 0), first
        assert first["body"] == f"{ARTIST} — {ALBUM}", first
        picture = Path(first["hints"]["image-path"])
        assert picture.is_file() and picture.read_bytes().startswith(b"\x89PNG"), first["hints"]
        assert first["icon"] == str(picture)
        bus.playerctl("next", player="refrain")
        second = json.loads(_line(server, "notification for the next track"))
        assert second["summary"] != TITLE and second["replaces"] == first["id"], second
        assert second["app"] == "Refrain"
        bus.run("dbus-send", f"--bus={bus.address}", "--type=method_call", f"--dest={BUS_NAME}", OBJECT,
                "org.mpris.MediaPlayer2.Quit")
        assert proc.wait(10) == 0
    finally:
        for p in (proc, server):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
