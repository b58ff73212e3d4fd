"""Playlist edits through `refrain ctl` survive the player being SIGKILLed at any moment.

A full-screen Refrain runs on a pseudo-terminal with isolated XDG folders. A client edits
one playlist through `refrain ctl playlist …` (add, remove, move, rename), one command at a
time, while the test SIGKILLs the player at a random moment: 100 times on one library file.
After each kill a fresh Refrain opens the same file, and the playlist it lists must be
exactly what the acknowledged edits made it, or that plus the one edit that was in flight
when the kill came (sent but never answered). SQLite's integrity check runs at the end.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import random
import signal
import sqlite3
import struct
import subprocess
import termios
import threading
import time
from pathlib import Path

KILLS = 100


class PtyPlayer:
    """`refrain` on a pseudo-terminal of its own; the test reads and discards its screen."""

    def __init__(self, binary: Path, env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.proc = subprocess.Popen([str(binary), "--output", "null"], stdin=slave, stdout=slave,
                                     stderr=subprocess.DEVNULL, env=env, start_new_session=True)
        os.close(slave)
        self.master = master
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        while True:
            try:
                if not os.read(self.master, 65536):
                    return
            except OSError:
                return

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.reader.join(5)
        os.close(self.master)


class Client:
    """Runs `refrain ctl` against the player's socket."""

    def __init__(self, binary: Path, env: dict[str, str]) -> None:
        self.binary, self.env = binary, env

    def run(self, *words: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.binary), "ctl", *words], env=self.env, capture_output=True,
                              text=True, timeout=20)

    def wait_until_listening(self, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.run("status").returncode == 0:
                return
            time.sleep(0.02)
        raise AssertionError("the player never opened its control socket")

    def titles(self, playlist: int) -> list[str]:
        result = self.run("playlist", "show", str(playlist))
        assert result.returncode == 0, result.stderr
        return [entry["title"] for entry in json.loads(result.stdout)]

    def name(self, playlist: int) -> str:
        result = self.run("playlist", "list")
        assert result.returncode == 0, result.stderr
        return next(p["name"] for p in json.loads(result.stdout) if p["id"] == playlist)


def apply(state: tuple[str, list[str]], edit: tuple) -> tuple[str, list[str]]:
    """The playlist (name, titles) after one edit, as Refrain must apply it."""
    name, titles = state[0], list(state[1])
    match edit:
        case ("add", title):
            titles.append(title)
        case ("remove", position):
            del titles[position - 1]
        case ("move", source, target):
            titles.insert(target - 1, titles.pop(source - 1))
        case ("rename", new_name):
            name = new_name
    return name, titles


def editor(client: Client, playlist: int, tracks: Path, state: tuple[str, list[str]],
           rng: random.Random, serial: list[int], stop: threading.Event,
           log: dict) -> None:
    """Edits until the player dies: records the acknowledged state and the edit in flight."""
    while not stop.is_set():
        titles = state[1]
        roll = rng.random()
        if roll < 0.6 or len(titles) < 2:
            serial[0] += 1
            title = f"t{serial[0]:05d}"
            (tracks / f"{title}.mp3").touch()
            edit, words = ("add", title), ["add", str(playlist), str(tracks / f"{title}.mp3")]
        elif roll < 0.75:
            position = rng.randint(1, len(titles))
            edit, words = ("remove", position), ["remove", str(playlist), str(position)]
        elif roll < 0.93:
            source, target = rng.randint(1, len(titles)), rng.randint(1, len(titles))
            edit, words = ("move", source, target), ["move", str(playlist), str(source), str(target)]
        else:
            serial[0] += 1
            new_name = f"mix {serial[0]} 노래"
            edit, words = ("rename", new_name), ["rename", str(playlist), new_name]
        log["in_flight"] = edit
        result = client.run("playlist", *words)
        if result.returncode == 0 and result.stdout.strip() == "ok":
            state = apply(state, edit)
            log["state"] = state
            log["acknowledged"] += 1
            log["in_flight"] = None
        else:
            return  # the player died under this command: its edit may or may not have landed


def test_sigkilled_player_keeps_every_acknowledged_playlist_edit(refrain_bin, tmp_path):
    seed = int(os.environ.get("REFRAIN_CRASH_SEED") or 20261125)
    rng = random.Random(seed)
    print(f"seed {seed} (set REFRAIN_CRASH_SEED to repeat)")
    run_dir = tmp_path / "run"
    run_dir.mkdir(mode=0o700)
    env = dict(os.environ, LANG="C.UTF-8", TERM="xterm-256color",
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_RUNTIME_DIR=str(run_dir), REFRAIN_STDERR_LOG=str(tmp_path / "err.log"),
               REFRAIN_DEEZER_URL="http://127.0.0.1:9/", REFRAIN_LRCLIB_URL="http://127.0.0.1:9/")
    tracks = tmp_path / "tracks"
    tracks.mkdir()
    client = Client(refrain_bin, env)

    player = PtyPlayer(refrain_bin, env)
    client.wait_until_listening()
    created = client.run("playlist", "create", "crash test")
    assert created.returncode == 0, created.stderr
    playlist = json.loads(created.stdout)["id"]
    state: tuple[str, list[str]] = ("crash test", [])
    serial = [0]
    acknowledged, in_flight_landed = 0, 0

    for kill in range(KILLS):
        log = {"state": state, "in_flight": None, "acknowledged": 0}
        stop = threading.Event()
        thread = threading.Thread(target=editor, daemon=True,
                                  args=(client, playlist, tracks, state, rng, serial, stop, log))
        thread.start()
        # Most kills land mid-edit; some right after start-up, before any edit.
        time.sleep(rng.choice([rng.uniform(0.0, 0.03), rng.uniform(0.03, 0.6)]))
        player.kill()
        stop.set()
        thread.join(30)
        assert not thread.is_alive(), "a ctl command hung after the player died"
        acknowledged += log["acknowledged"]

        player = PtyPlayer(refrain_bin, env)
        client.wait_until_listening()
        found = (client.name(playlist), client.titles(playlist))
        expected = log["state"]
        if log["in_flight"] is not None and found != expected:
            expected = apply(expected, log["in_flight"])
            in_flight_landed += 1
        assert found == expected, (
            f"kill {kill}: the library lost or invented edits (seed {seed})\n"
            f"acknowledged: {log['state']}\nin flight: {log['in_flight']}\nfound: {found}")
        state = found

    player.kill()
    print(f"{KILLS} kills, {acknowledged} acknowledged edits, all present; "
          f"{in_flight_landed} unanswered edits had committed")
    assert acknowledged >= KILLS, "too few edits were acknowledged to prove anything"

    connection = sqlite3.connect(tmp_path / "data" / "refrain" / "library.sqlite")
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        positions = [p for (p,) in connection.execute(
            "SELECT position FROM playlist_entries WHERE playlist_id = ? ORDER BY position",
            (playlist,))]
        assert positions == list(range(len(state[1])))
    finally:
        connection.close()
