"""`refrain ctl` drives a running full-screen Refrain (in tmux) over its Unix socket."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "Resources" / "sample" / "refrain-sample.mp3"


class Player:
    """A full-screen Refrain in a private tmux server, with isolated XDG folders."""

    def __init__(self, binary: Path, home: Path, name: str) -> None:
        self.binary = binary
        self.home = home
        self.tmux = ["tmux", "-L", name]
        run = home / "run"
        run.mkdir(mode=0o700, exist_ok=True)
        self.env = dict(
            os.environ, LANG="C.UTF-8", TERM="tmux-256color", XDG_DATA_HOME=str(home / "data"),
            XDG_CACHE_HOME=str(home / "cache"), XDG_CONFIG_HOME=str(home / "config"),
            XDG_STATE_HOME=str(home / "state"), XDG_RUNTIME_DIR=str(run),
            REFRAIN_STDERR_LOG=str(home / "err.log"))

    def start(self) -> None:
        exports = " ".join(f"{k}={v}" for k, v in self.env.items() if k.startswith(("XDG_", "REFRAIN_", "LANG", "TERM")))
        subprocess.run(self.tmux + ["new-session", "-d", "-x", "100", "-y", "30",
                                    f"exec env {exports} {self.binary} --output null"], check=True)
        self.wait_for(lambda: self.ctl("status").returncode == 0, "the control socket")

    def ctl(self, *words: str, timeout: float = 10) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.binary), "ctl", *words], env=self.env, capture_output=True,
                              text=True, timeout=timeout)

    def status(self) -> dict:
        result = self.ctl("status")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def wait_for(self, check, what: str, seconds: float = 15) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}")

    def stop(self) -> None:
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)
        # tmux leaves its socket file behind.
        folder = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (folder / self.tmux[2]).unlink(missing_ok=True)


@pytest.fixture
def player(refrain_bin, tmp_path):
    # A tmux server of its own per test: one still exiting from the last test's
    # `quit` would refuse the next test's session.
    instance = Player(refrain_bin, tmp_path, f"refrain-ctl-{uuid.uuid4().hex[:12]}")
    instance.start()
    yield instance
    instance.ctl("quit")
    instance.stop()


def test_status_and_transport_commands(player):
    assert player.status()["state"] == "idle"
    assert player.ctl("queue", "add", str(SAMPLE)).stdout.strip() == "ok"
    assert player.ctl("play").returncode == 0
    player.wait_for(lambda: player.status()["state"] == "playing", "playback")
    status = player.status()
    assert status["track"] == "Refrain Sample" and status["duration"] == pytest.approx(22, abs=0.5)  # its ID3 title, though queued by path
    assert player.ctl("seek", "0:09").returncode == 0
    player.wait_for(lambda: player.status().get("line_index") == 1, "lyric line 1 after seek 0:09")
    assert player.ctl("lyrics", "line", "3").returncode == 0
    status = player.status()
    assert status["line_index"] == 3 and status["position"] == pytest.approx(14.0, abs=0.5)
    assert status["line"] == "and let the music climb"
    assert player.ctl("volume", "-30").returncode == 0
    assert player.status()["volume"] == 70
    assert player.ctl("pause").returncode == 0
    paused = player.status()
    assert paused["state"] == "paused"
    time.sleep(0.6)
    assert player.status()["position"] == pytest.approx(paused["position"], abs=0.05)
    assert player.ctl("toggle").returncode == 0
    player.wait_for(lambda: player.status()["state"] == "playing", "resume")


def test_bad_commands_fail_with_one_line(player):
    for words in (["dance"], ["seek", "soon"], ["volume", "300"], ["queue", "shuffle"]):
        result = player.ctl(*words)
        assert result.returncode == 1, words
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("refrain: "), result.stderr


def test_socket_permissions_and_single_instance(player, refrain_bin):
    socket = Path(player.env["XDG_RUNTIME_DIR"]) / "refrain" / "socket"
    assert stat.S_IMODE(socket.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(socket.stat().st_mode) == 0o600
    second = subprocess.run([str(refrain_bin), "--output", "null"], env=player.env,
                            capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    assert second.returncode == 1
    assert "another Refrain is already running" in second.stderr, second.stderr


def test_watch_prints_a_line_per_change(player):
    watcher = subprocess.Popen([str(player.binary), "ctl", "status", "--watch"], env=player.env,
                               stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)
        player.ctl("volume", "40")
        player.ctl("shuffle")
        time.sleep(0.5)
    finally:
        watcher.terminate()
    lines = [json.loads(line) for line in watcher.communicate(timeout=5)[0].splitlines()]
    assert [entry["volume"] for entry in lines][:2] == [100, 40]
    assert lines[-1]["shuffle"] is True


def test_ctl_without_a_running_player_says_so(refrain_bin, tmp_path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
    result = subprocess.run([str(refrain_bin), "ctl", "status"], env=env, capture_output=True,
                            text=True, timeout=10)
    assert result.returncode == 2
    assert "is Refrain running?" in result.stderr
